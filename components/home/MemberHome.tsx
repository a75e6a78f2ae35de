'use client';

import type { ReactNode } from 'react';

import { DailyTaskBanner } from '@/components/tasks/DailyTaskBanner';

import { ContinueWatching } from './ContinueWatching';

/** What home adds for a member (MemberHomeSlot loads it): their Continue watching row, then a VIP's task or the unlock banner. */
export function MemberHome({ vip, fallback }: { vip: boolean; fallback: ReactNode }) {
  return (
    <>
      <ContinueWatching />
      {vip ? <DailyTaskBanner fallback={fallback} /> : fallback}
    </>
  );
}
