'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import useSWRInfinite from 'swr/infinite';

import { useSession } from '@/components/session/SessionProvider';
import { RelativeTime } from '@/components/videos/RelativeTime';
import type { NotificationDto, NotificationListDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';
import { relativeTime } from '@/lib/format/relative-time';
import { ACCOUNT_PATHS } from '@/lib/account-paths';

/**
 * The navbar bell (spec sections 2, 4 and 8): the unread count as a badge; a
 * click toggles the notification panel, which closes on an outside click, on
 * Escape (focus back on the bell) and on navigation. Clicking a notification
 * marks it read (the server call, then the local update) and goes to its link
 * unless that is missing or '#'. 'Mark all as read' clears the badge.
 *
 * The first page is polled every 30 s (the spec names no interval; this is
 * half its 60 s session re-check) and on focus, never while the tab is hidden.
 * The header and the mobile menu each render a bell; they share one SWR cache
 * entry, so they poll once and always agree.
 */
export const NOTIFICATIONS_POLL_MS = 30_000;
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const LOAD_ERROR = 'Failed to load notifications.';
const MARK_ERROR = 'Could not mark the notification as read. Please try again.';
const MARK_ALL_ERROR = 'Could not mark your notifications as read. Please try again.';

export type PageKey = readonly [path: string, userId: string];

/** The SWR key of a page of the member's notifications: the bell and /notifications share one cache entry. */
export function notificationPageKey(userId: string | null) {
  return (index: number, previous: NotificationListDto | null): PageKey | null => {
    if (!userId) return null;
    if (index === 0) return [`/api/notifications?limit=${NOTIFICATIONS_PAGE_SIZE}`, userId];
    if (!previous?.pagination.hasMore || !previous.pagination.nextCursor) return null;
    return [
      `/api/notifications?limit=${NOTIFICATIONS_PAGE_SIZE}&cursor=${encodeURIComponent(previous.pagination.nextCursor)}`,
      userId,
    ];
  };
}

/** The server's message when it sent one (spec section 8: 'Failed to load notifications.' or the server message). */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiClientError && typeof error.data.message === 'string' && error.data.message.trim())
    return error.data.message;
  return fallback;
}

/** Where a notification goes: same-site paths (and http(s) links) only; missing or '#' goes nowhere. */
export function targetOf(link: string | null | undefined): string | null {
  if (!link || link === '#') return null;
  if (link.startsWith('/') && !link.startsWith('//') && !link.includes('\\')) return link;
  return /^https?:\/\//i.test(link) ? link : null;
}

export const fetchPage = ([path]: PageKey) => apiRequest<NotificationListDto>(path);

export function withRead(pages: NotificationListDto[] | undefined, isRead: (n: NotificationDto) => boolean, unreadCount: number) {
  return pages?.map((page) => ({
    ...page,
    unreadCount,
    notifications: page.notifications.map((n) => (!n.read && isRead(n) ? { ...n, read: true } : n)),
  }));
}

export function NotificationBell() {
  const { user } = useSession();
  const router = useRouter();
  const pathname = usePathname();
  // Open only on the path where it was opened: following a notification closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const [actionError, setActionError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [markingAll, setMarkingAll] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const headingId = useId();

  const userId = user?._id ?? null;
  const getKey = useMemo(() => notificationPageKey(userId), [userId]);
  const {
    data: pages,
    error,
    isLoading,
    isValidating,
    size,
    setSize,
    mutate,
  } = useSWRInfinite(getKey, fetchPage, {
    refreshInterval: NOTIFICATIONS_POLL_MS,
    // SWR's poll timer checks document.visibilityState before each fetch: a hidden tab makes no requests,
    // and coming back (visibilitychange or focus) revalidates at once.
    refreshWhenHidden: false,
    refreshWhenOffline: false,
    revalidateOnFocus: true,
    revalidateFirstPage: true,
  });

  const unreadCount = pages?.[0]?.unreadCount ?? 0;
  const notifications = pages?.flatMap((page) => page.notifications) ?? [];
  const hasMore = pages?.at(-1)?.pagination.hasMore ?? false;
  const loadingOlder = size > 1 && pages !== undefined && pages.length < size;

  const close = useCallback((returnFocus: boolean) => {
    setOpenOn(null);
    if (returnFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const element = root.current;
    // Outside clicks close the panel without taking focus anywhere.
    const onPointerDown = (event: PointerEvent) => {
      if (!element?.contains(event.target as Node)) close(false);
    };
    // Escape inside closes just this layer and puts focus back on the bell. React listens on the document, so
    // this has to be a native listener on the bell to stop the event first; and the mobile menu is a popover,
    // which the browser closes on an Escape nobody cancelled.
    const onKeyDownInside = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      close(true);
    };
    // Escape with focus elsewhere (after a click on plain text) closes it too.
    const onKeyDownAnywhere = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(false);
    };
    // Tabbing out closes it; a null relatedTarget (a click on plain text, a removed button) does not.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && !element?.contains(next)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDownAnywhere);
    element?.addEventListener('keydown', onKeyDownInside);
    element?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDownAnywhere);
      element?.removeEventListener('keydown', onKeyDownInside);
      element?.removeEventListener('focusout', onFocusOut);
    };
  }, [open, close]);

  // Opening moves focus into the panel, so its heading is announced and Tab walks its notifications.
  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  const toggle = () => {
    if (open) {
      close(false);
      return;
    }
    setActionError(null);
    setAnnouncement('');
    setOpenOn(pathname);
    // Opening is a good moment to catch up, polling or not.
    void mutate();
  };

  /** Spec section 4: unread to read on click — the server call, then the local update. */
  const markRead = async (notification: NotificationDto): Promise<void> => {
    if (notification.read) return;
    try {
      const result = await apiRequest<{ unreadCount: number }>(
        `/api/notifications/${encodeURIComponent(notification._id)}/read`,
        { method: 'PUT' },
      );
      await mutate((current) => withRead(current, (n) => n._id === notification._id, result.unreadCount), { revalidate: false });
    } catch (failure) {
      setActionError(messageOf(failure, MARK_ERROR));
    }
  };

  const onNotificationClick = async (notification: NotificationDto, event: ReactMouseEvent) => {
    setActionError(null);
    const target = targetOf(notification.link);
    // A new tab or window: let the browser open it, and record the read here.
    if (target && (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) {
      void markRead(notification);
      return;
    }
    event.preventDefault();
    await markRead(notification);
    if (!target) return;
    close(false);
    if (target.startsWith('/')) router.push(target);
    else window.location.assign(target);
  };

  const markAllRead = async () => {
    setActionError(null);
    setMarkingAll(true);
    // Up to the newest one on screen: a notification arriving meanwhile stays unread.
    const newest = pages?.[0]?.notifications[0];
    try {
      const result = await apiRequest<{ unreadCount: number }>(
        `/api/notifications/read-all${newest ? `?upTo=${encodeURIComponent(newest._id)}` : ''}`,
        { method: 'PUT' },
      );
      await mutate((current) => withRead(current, () => true, result.unreadCount), { revalidate: result.unreadCount > 0 });
      setAnnouncement('All notifications marked as read.');
      // The button disappears with the last unread notification; keep focus in the panel.
      panel.current?.focus();
    } catch (failure) {
      setActionError(messageOf(failure, MARK_ALL_ERROR));
    } finally {
      setMarkingAll(false);
    }
  };

  if (!user) return null;

  const badge = unreadCount > 99 ? '99+' : String(unreadCount);
  const label = unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications';

  return (
    <div className="notif" ref={root}>
      <button
        ref={button}
        type="button"
        className="nav-link notif-bell"
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        data-unread={unreadCount > 0 || undefined}
        onClick={toggle}
      >
        <BellIcon />
        <span className="notif-bell-label" aria-hidden="true">
          Notifications
        </span>
        {unreadCount > 0 && (
          <span className="notif-badge" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      <div
        ref={panel}
        id={panelId}
        className="notif-panel"
        role="region"
        aria-labelledby={headingId}
        tabIndex={-1}
        hidden={!open}
      >
        {open && (
          <>
            <div className="notif-head">
              <h2 id={headingId} className="notif-title">
                Notifications
              </h2>
              {unreadCount > 0 && (
                <button type="button" className="notif-mark-all" onClick={() => void markAllRead()} disabled={markingAll}>
                  Mark all as read
                </button>
              )}
            </div>
            <p className="visually-hidden" role="status">
              {announcement}
            </p>
            {actionError && (
              <p className="notif-error" role="alert">
                {actionError}
              </p>
            )}
            {error !== undefined && (
              <div className="notif-error notif-load-error" role="alert">
                <p>{messageOf(error, LOAD_ERROR)}</p>
                <button type="button" className="btn btn-ghost notif-retry" onClick={() => void mutate()} disabled={isValidating}>
                  Try again
                </button>
              </div>
            )}
            {pages === undefined ? (
              isLoading && (
                <p className="notif-note" role="status">
                  Loading notifications…
                </p>
              )
            ) : notifications.length === 0 ? (
              <div className="notif-empty">
                <BellIcon size={28} />
                <p>No notifications yet.</p>
                <span>Follows, likes, comments and news about your uploads appear here.</span>
              </div>
            ) : (
              <ul className="notif-list">
                {notifications.map((notification) => (
                  <li key={notification._id}>
                    <NotificationItem
                      notification={notification}
                      onClick={(event) => void onNotificationClick(notification, event)}
                    />
                  </li>
                ))}
              </ul>
            )}
            {hasMore && (
              <button type="button" className="notif-more" onClick={() => void setSize(size + 1)} disabled={loadingOlder}>
                {loadingOlder ? 'Loading…' : 'Show older notifications'}
              </button>
            )}
            <a className="notif-more" href={ACCOUNT_PATHS.notifications}>
              All notifications
            </a>
          </>
        )}
      </div>
    </div>
  );
}

export function NotificationItem({
  notification,
  onClick,
}: {
  notification: NotificationDto;
  onClick: (event: ReactMouseEvent) => void;
}) {
  const target = targetOf(notification.link);
  const content = (
    <>
      <span className="notif-icon" data-type={notification.type} aria-hidden="true">
        <TypeIcon type={notification.type} />
      </span>
      <span className="notif-body">
        <span className="notif-message">
          {!notification.read && <span className="visually-hidden">Unread: </span>}
          {notification.message}
        </span>
        <RelativeTime date={notification.createdAt} serverText={relativeTime(notification.createdAt)} />
      </span>
      {!notification.read && <span className="notif-dot" aria-hidden="true" />}
    </>
  );
  return target ? (
    <a className="notif-item" href={target} data-read={notification.read} onClick={onClick}>
      {content}
    </a>
  ) : (
    <button type="button" className="notif-item" data-read={notification.read} onClick={onClick}>
      {content}
    </button>
  );
}

const iconProps = (size: number) =>
  ({
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round',
    strokeLinejoin: 'round',
    'aria-hidden': true,
    focusable: false,
  }) as const;

function BellIcon({ size = 22 }: { size?: number }) {
  return (
    <svg {...iconProps(size)}>
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

function TypeIcon({ type }: { type: NotificationDto['type'] }) {
  const props = iconProps(16);
  switch (type) {
    case 'follow':
      return (
        <svg {...props}>
          <circle cx="9" cy="8" r="4" />
          <path d="M2 21a7 7 0 0 1 14 0M19 8v6M16 11h6" />
        </svg>
      );
    case 'like':
      return (
        <svg {...props}>
          <path d="M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 1 0-7.8 7.8l1 1.1L12 21l7.8-7.5 1-1.1a5.5 5.5 0 0 0 0-7.8Z" />
        </svg>
      );
    case 'comment':
      return (
        <svg {...props}>
          <path d="M21 12a8 8 0 0 1-11.6 7.1L3 21l1.9-6.4A8 8 0 1 1 21 12Z" />
        </svg>
      );
    case 'video_approved':
      return (
        <svg {...props}>
          <path d="m5 12 5 5L20 7" />
        </svg>
      );
    case 'video_rejected':
      return (
        <svg {...props}>
          <path d="M6 6l12 12M18 6 6 18" />
        </svg>
      );
    default:
      return <BellIcon size={16} />;
  }
}
