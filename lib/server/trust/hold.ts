import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';

export interface HeldVideo {
  id: string;
  stream_video_id: string;
  title: string;
  owner_id: string;
}

/**
 * Hides a video pending review: it goes back to 'pending', which every
 * public list, page, sitemap, feed, search and embed already excludes (they
 * all read PUBLIC_VIDEO), so nothing can forget to hide it. Its publication
 * date is kept, so approval after review puts it back where it was.
 * Returns the video when this call hid it, null when it was not public
 * (already pending, rejected or gone). The caller purges public pages after
 * its transaction commits (purgePublicPages in lib/events.ts), and records
 * why in its own tables; approval is then refused while that cause is open
 * (lib/server/trust/approval-gate.ts).
 */
export async function holdVideoPendingReview(db: Database, videoId: string): Promise<HeldVideo | null> {
  const [row] = await queryRows<HeldVideo>(
    db,
    sql`UPDATE videos SET moderation_status = 'pending', moderated_at = now(), updated_at = now()
        WHERE id = ${videoId} AND moderation_status = 'approved'
        RETURNING id, stream_video_id, title, owner_id`,
  );
  return row ?? null;
}
