'use client';

import { lazy, Suspense, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// Only members get anything here: its code (the Continue watching row, a VIP's task and SWR) loads for them alone.
const MemberHome = lazy(() => import('./MemberHome').then((m) => ({ default: m.MemberHome })));

/**
 * Home's member place. The server renders `children`, the banner for visitors and members without VIP ('Unlock
 * Daily Tasks with VIP', linking to /subscribe), so home's HTML is the same for everyone and can be cached; once the
 * session has loaded, a member gets their Continue watching row above it, and a VIP member their task instead of the
 * banner (the banner stays while it loads).
 */
export function MemberHomeSlot({ children }: { children: ReactNode }) {
  const { loading, user } = useSession();
  if (loading || !user) return <>{children}</>;
  return (
    <Suspense fallback={children}>
      <MemberHome vip={user.isVIP} fallback={children} />
    </Suspense>
  );
}
