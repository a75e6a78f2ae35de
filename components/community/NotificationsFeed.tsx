'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useState, type MouseEvent as ReactMouseEvent } from 'react';
import useSWRInfinite from 'swr/infinite';

import { useSession } from '@/components/session/SessionProvider';
import type { NotificationDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import {
  fetchPage,
  LOAD_ERROR,
  messageOf,
  NOTIFICATIONS_POLL_MS,
  NotificationItem,
  notificationPageKey,
  targetOf,
  withRead,
} from './NotificationBell';

/**
 * /notifications: the bell's list as a page (the same SWR entry, so the badge and the page agree), with Mark all
 * as read and older pages. Clicking one marks it read and follows its link, as in the panel.
 */
export function NotificationsFeed() {
  const { user, loading } = useSession();
  const router = useRouter();
  const [actionError, setActionError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const getKey = useMemo(() => notificationPageKey(user?._id ?? null), [user?._id]);
  const {
    data: pages,
    error,
    isLoading,
    size,
    setSize,
    mutate,
  } = useSWRInfinite(getKey, fetchPage, {
    refreshInterval: NOTIFICATIONS_POLL_MS,
    refreshWhenHidden: false,
    revalidateFirstPage: true,
  });
  const notifications = pages?.flatMap((page) => page.notifications) ?? [];
  const unreadCount = pages?.[0]?.unreadCount ?? 0;
  const hasMore = pages?.at(-1)?.pagination.hasMore ?? false;
  const loadingOlder = size > 1 && pages !== undefined && pages.length < size;

  const markRead = async (notification: NotificationDto) => {
    if (notification.read) return;
    try {
      const result = await apiRequest<{ unreadCount: number }>(
        `/api/notifications/${encodeURIComponent(notification._id)}/read`,
        { method: 'PUT' },
      );
      await mutate((current) => withRead(current, (n) => n._id === notification._id, result.unreadCount), { revalidate: false });
    } catch (failure) {
      setActionError(messageOf(failure, 'Could not mark the notification as read. Please try again.'));
    }
  };

  const open = async (notification: NotificationDto, event: ReactMouseEvent) => {
    setActionError(null);
    const target = targetOf(notification.link);
    if (target && (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) return void markRead(notification);
    event.preventDefault();
    await markRead(notification);
    if (target?.startsWith('/')) router.push(target);
    else if (target) window.location.assign(target);
  };

  const markAllRead = async () => {
    setActionError(null);
    const newest = pages?.[0]?.notifications[0];
    try {
      const result = await apiRequest<{ unreadCount: number }>(
        `/api/notifications/read-all${newest ? `?upTo=${encodeURIComponent(newest._id)}` : ''}`,
        { method: 'PUT' },
      );
      await mutate((current) => withRead(current, () => true, result.unreadCount), { revalidate: result.unreadCount > 0 });
      setAnnouncement('All notifications marked as read.');
    } catch (failure) {
      setActionError(messageOf(failure, 'Could not mark your notifications as read. Please try again.'));
    }
  };

  if (loading || (user && pages === undefined && isLoading)) {
    return (
      <p className="notif-note" role="status">
        Loading notifications…
      </p>
    );
  }
  return (
    <div className="notif-page">
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {unreadCount > 0 && (
        <button type="button" className="btn btn-ghost" onClick={() => void markAllRead()}>
          Mark all as read
        </button>
      )}
      {(actionError ?? (error !== undefined ? messageOf(error, LOAD_ERROR) : null)) && (
        <p className="notif-error" role="alert">
          {actionError ?? messageOf(error, LOAD_ERROR)}
        </p>
      )}
      {pages !== undefined && notifications.length === 0 ? (
        <p className="muted">No notifications yet. Follows, likes, comments and news about your uploads appear here.</p>
      ) : (
        <ul className="notif-list">
          {notifications.map((notification) => (
            <li key={notification._id}>
              <NotificationItem notification={notification} onClick={(event) => void open(notification, event)} />
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <button type="button" className="btn btn-ghost" onClick={() => void setSize(size + 1)} disabled={loadingOlder}>
          {loadingOlder ? 'Loading…' : 'Show older notifications'}
        </button>
      )}
    </div>
  );
}
