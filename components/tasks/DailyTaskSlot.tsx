'use client';

import { lazy, Suspense, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// Only VIP members see a task: the banner (and SWR, which it fetches with) loads for them alone.
const DailyTaskBanner = lazy(() => import('./DailyTaskBanner').then((m) => ({ default: m.DailyTaskBanner })));

/**
 * Home's daily-task place. The server renders `children`, the banner for
 * visitors and members without VIP ('Unlock Daily Tasks with VIP', linking
 * to /subscribe), so home's HTML is the same for everyone and can be cached;
 * once the session has loaded, a VIP member gets their task instead (the
 * unlock banner stays while it loads).
 */
export function DailyTaskSlot({ children }: { children: ReactNode }) {
  const { loading, user } = useSession();
  if (loading || !user?.isVIP) return <>{children}</>;
  return (
    <Suspense fallback={children}>
      <DailyTaskBanner fallback={children} />
    </Suspense>
  );
}
