import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows } from '@/lib/db';

import type { ApprovalCheck } from './approval-gate';

/**
 * The approval gate's checks for notices and copyright (decision 016). Kept
 * apart from the services so the gate imports nothing heavy.
 */

export const URGENT_NOTICE_BLOCKER =
  'An urgent notice (non-consent or a minor) on this video is still open. Decide it in the report queue first.';
export const TAKEDOWN_BLOCKER =
  'This video was taken down after a copyright notice. It can come back only after a counter-notice and the legal wait, or when an admin withdraws the takedown.';

/** Refused while a non-consent or minor report on the video is open, whoever sent it. */
export const noOpenUrgentNotice: ApprovalCheck = async (db, video) => {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM reports WHERE target_type = 'video' AND target_id = ${video.id} AND status = 'open'
          AND reason IN ('non_consensual', 'underage') LIMIT 1`,
  );
  return row ? URGENT_NOTICE_BLOCKER : null;
};

/** Refused while a copyright takedown on the video stands (not restored or withdrawn). */
export const noActiveTakedown: ApprovalCheck = async (db, video) => {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM copyright_takedowns WHERE video_id = ${video.id} AND status IN ('active', 'counter_noticed', 'lawsuit', 'upheld') LIMIT 1`,
  );
  return row ? TAKEDOWN_BLOCKER : null;
};
