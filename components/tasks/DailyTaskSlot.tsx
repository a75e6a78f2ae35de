'use client';

import type { ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';

import { DailyTaskBanner } from './DailyTaskBanner';

/**
 * Home's daily-task place. The server renders `children`, the banner for
 * visitors and members without VIP ('Unlock Daily Tasks with VIP', linking
 * to /subscribe), so home's HTML is the same for everyone and can be cached;
 * once the session has loaded, a VIP member gets their task instead.
 */
export function DailyTaskSlot({ children }: { children: ReactNode }) {
  const { loading, user } = useSession();
  if (loading || !user?.isVIP) return <>{children}</>;
  return <DailyTaskBanner fallback={children} />;
}
