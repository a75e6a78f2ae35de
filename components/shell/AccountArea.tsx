'use client';

import { lazy, Suspense } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// The member's links, bell and settings load once a member's session is known: visitors never fetch them.
const MemberAccount = lazy(() => import('./MemberAccount').then((m) => ({ default: m.MemberAccount })));

/** Logged out: Sign up, Log in. Logged in: the notification bell, the member's links, settings, profile, Upload and Logout (header and mobile menu alike). */
export function AccountArea() {
  const { loading, user } = useSession();

  const placeholder = <div className="nav-account" aria-hidden="true" />;
  if (loading) return placeholder;
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
