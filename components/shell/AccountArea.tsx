'use client';

import { lazy, Suspense, useCallback, useSyncExternalStore } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// The member's links, bell and settings load once a member's session is known: visitors never fetch them.
const MemberAccount = lazy(() => import('./MemberAccount').then((m) => ({ default: m.MemberAccount })));

/** Whether the popover `id` is open (it may have opened before this island hydrated); always true without one. */
function usePopoverOpen(id: string | undefined): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const popover = id ? document.getElementById(id) : null;
      popover?.addEventListener('toggle', changed);
      return () => popover?.removeEventListener('toggle', changed);
    },
    [id],
  );
  return useSyncExternalStore(
    subscribe,
    () => !id || Boolean(document.getElementById(id)?.matches(':popover-open')),
    () => !id,
  );
}

/**
 * Logged out: Sign up, Log in. Logged in: the notification bell, the member's links, settings, profile, Upload and
 * Logout (header and mobile menu alike). In the mobile menu (`panel`, the menu's popover) its links are drawn only while
 * the menu is open, so a closed menu holds no second bell, settings or username.
 */
export function AccountArea({ panel }: { panel?: string }) {
  const { loading, user } = useSession();
  const open = usePopoverOpen(panel);

  const placeholder = <div className="nav-account" aria-hidden="true" />;
  if (loading || !open) return placeholder;
  if (!user) {
    return (
      <div className="nav-account nav-account-guest">
        <a className="btn btn-ghost" href="/register">
          Sign up
        </a>
        <a className="btn btn-primary" href="/login">
          Log in
        </a>
      </div>
    );
  }
  return (
    <Suspense fallback={placeholder}>
      <MemberAccount />
    </Suspense>
  );
}
