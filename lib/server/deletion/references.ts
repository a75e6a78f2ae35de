import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';

import { keepPerformerRecords } from '../trust/performers';

/**
 * Before videos are deleted (the rows' cascades take their likes, comments
 * and views): notifications that link to them go, and open reports on them
 * or on their comments are closed with a note, so the admin queue keeps the
 * record but nobody is sent to a page that no longer exists. Their
 * performer records stay for the years 18 U.S.C. 2257 asks (decision 015).
 * `which` is a condition on `v`, a videos row.
 */
export async function forgetVideos(tx: Database, which: SQL, note: string): Promise<void> {
  await keepPerformerRecords(tx, which);
  await queryRows(
    tx,
    sql`DELETE FROM notifications n USING videos v
        WHERE ${which} AND split_part(n.link, '#', 1) = '/video/' || v.stream_video_id`,
  );
  await queryRows(
    tx,
    sql`UPDATE reports SET status = 'resolved', resolved_at = now(), resolution_note = ${note}
        WHERE status = 'open'
          AND ((target_type = 'video' AND target_id IN (SELECT v.id FROM videos v WHERE ${which}))
            OR (target_type = 'comment' AND target_id IN (SELECT c.id FROM comments c JOIN videos v ON v.id = c.video_id WHERE ${which})))`,
  );
}
