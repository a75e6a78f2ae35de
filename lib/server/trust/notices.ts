import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { parseVideoReference, VIDEO_REFERENCE_MESSAGE } from '@/lib/trust/video-reference';
import { NOTICE_MESSAGES, type NoticeInput } from '@/lib/validation/notices';

import type { Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';
import { consume } from '../rate-limit';
import { afterFiling, fileVideoReport } from '../reports/file';
import { reporterKeyOf } from '../reports/keys';

import { mayAcknowledge } from './mail';

/**
 * Public notices about videos (decision 016), from anyone, through the
 * notice form. They are filed as reports (lib/server/reports/file.ts), so
 * they follow the same rule as the Report button: non-consent and minors
 * hide the video at once (a hold pending review) with a 48-hour clock;
 * everything else gets seven business days. Both are rows in `reports`,
 * queued, counted and decided as one.
 */

export const NOTICE_RATE_LIMIT_MESSAGE =
  'Too many notices were sent from your network in a short time. Please wait a while, or write to us by email.';
export const NOTICE_DUPLICATE_MESSAGE = 'You have already sent a notice about this video. We will tell you what we decide.';

/** The public video a notice names, by any form of its address; 400 for a bad address, 404 for no such public video. */
export async function resolveNoticeVideo(
  db: Database,
  reference: string,
): Promise<{ id: string; stream_video_id: string; title: string; owner_id: string }> {
  const streamId = parseVideoReference(reference, getConfig().siteUrl);
  if (!streamId) throw badRequest(VIDEO_REFERENCE_MESSAGE, { field: 'video' });
  const [video] = await queryRows<{ id: string; stream_video_id: string; title: string; owner_id: string }>(
    db,
    sql`SELECT id, stream_video_id, title, owner_id FROM videos
        WHERE stream_video_id = ${streamId} AND processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned`,
  );
  // Only what the sender could have seen: anything not public is not found (a hidden video cannot be reported twice into a second hold).
  if (!video)
    throw new ApiError(404, 'We could not find a public video at that address. It may already have been removed.', {
      field: 'video',
    });
  return video;
}

/**
 * A notice from anyone (DSA Art. 16; TAKE IT DOWN Act for intimate images):
 * no account needed, rate limited per address, acknowledged by email with a
 * reference (at most LIMITS.acknowledgementsPerRecipient a day per inbox). Copyright goes through the DMCA form instead (the schema says so).
 */
export async function createNotice(
  actor: Actor,
  input: NoticeInput,
  address: string,
  now = new Date(),
): Promise<{ reference: string; message: string; dueAt: string }> {
  const memberId = actor.kind === 'member' && !actor.user.bannedAt ? actor.user.id : null;
  const reporterKey = reporterKeyOf(null, address);
  await consume('noticePerIp', reporterKey, NOTICE_RATE_LIMIT_MESSAGE);
  const acknowledge = await mayAcknowledge(input.email);
  const db = await getDb();
  const filed = await db.transaction(async (tx) => {
    const video = await resolveNoticeVideo(tx, input.video);
    return fileVideoReport(tx, {
      videoId: video.id,
      reason: input.reason,
      details: input.details,
      reporterId: memberId,
      reporterKey,
      source: 'notice',
      notifier: { name: input.name, email: input.email, signature: input.signature, acknowledge },
      now,
    });
  });
  if (!filed.id) throw new ApiError(409, NOTICE_DUPLICATE_MESSAGE);
  afterFiling(filed);
  return { reference: filed.id, message: NOTICE_MESSAGES.sent, dueAt: filed.dueAt.toISOString() };
}
