import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import type { ReportSource } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import { addBusinessDays } from '@/lib/format/business-days';
import {
  HOLD_DUE_HOURS,
  HOLD_REPORT_REASONS,
  REPORT_DUE_BUSINESS_DAYS_DEFAULT,
  REPORT_REASON_LABELS,
  type ReportReason,
} from '@/lib/report-reasons';
import { parseVideoReference, VIDEO_REFERENCE_MESSAGE } from '@/lib/trust/video-reference';
import { NOTICE_MESSAGES, type NoticeInput } from '@/lib/validation/notices';

import { REPORT_REASON_GROUNDS } from '../admin/reports';
import { ApiError, badRequest } from '../errors';
import type { Actor } from '../auth/actor';
import { reporterKeyOf } from '../community/reports';
import { notify } from '../notifications';
import { consume } from '../rate-limit';

import { recordDecision } from './decisions';
import { holdVideoPendingReview } from './hold';
import { mayAcknowledge, queueTrustEmail } from './mail';

/**
 * Notices and reports about videos (decision 016). Non-consent and minors
 * hide the video at once (a hold pending review) with a 48-hour clock;
 * everything else gets seven business days. In-app reports and public
 * notices follow the same rule: both are rows in `reports`, queued,
 * counted and decided as one.
 */

export const NOTICE_RATE_LIMIT_MESSAGE = 'Too many notices were sent from your network in a short time. Please wait a while, or write to us by email.';
export const NOTICE_DUPLICATE_MESSAGE = 'You have already sent a notice about this video. We will tell you what we decide.';

export const isHoldReason = (reason: ReportReason) => HOLD_REPORT_REASONS.includes(reason);

/** When a report is due: 48 hours for holds, otherwise 7 business days. */
export function dueAtFor(reason: ReportReason, now: Date): Date {
  return isHoldReason(reason) ? new Date(now.getTime() + HOLD_DUE_HOURS * 3_600_000) : addBusinessDays(now, REPORT_DUE_BUSINESS_DAYS_DEFAULT);
}

export interface Notifier {
  name: string;
  email: string;
  signature: string;
  /** Whether the acknowledgement may go out (mayAcknowledge, decided before the filing transaction). */
  acknowledge: boolean;
}

export interface NewVideoReport {
  videoId: string;
  reason: ReportReason;
  details: string;
  reporterId: string | null;
  reporterKey: string;
  source: ReportSource;
  notifier?: Notifier;
  now?: Date;
}

export interface FiledReport {
  /** Null when the same reporter already has an open report on the video (nothing was stored). */
  id: string | null;
  /** The video was public and this report hid it. */
  held: boolean;
  dueAt: Date;
}

/**
 * Stores a report or notice on a video in the caller's transaction and, for
 * the hold reasons, hides the video, records the statement of reasons for
 * the uploader and queues the admin alert. The caller runs `afterFiling`
 * once the transaction has committed.
 */
export async function fileVideoReport(db: Database, input: NewVideoReport): Promise<FiledReport> {
  const now = input.now ?? new Date();
  const dueAt = dueAtFor(input.reason, now);
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO reports (target_type, target_id, reason, details, reporter_id, reporter_key, source, notifier_name, notifier_email, notifier_signature, created_at, due_at)
        VALUES ('video', ${input.videoId}, ${input.reason}, ${input.details}, ${input.reporterId}, ${input.reporterKey}, ${input.source},
                ${input.notifier?.name ?? null}, ${input.notifier?.email ?? null}, ${input.notifier?.signature ?? null}, ${now}, ${dueAt})
        ON CONFLICT (target_type, target_id, reporter_key) WHERE status = 'open' DO NOTHING
        RETURNING id`,
  );
  if (!row) return { id: null, held: false, dueAt };
  let held = false;
  if (isHoldReason(input.reason)) {
    const video = await holdVideoPendingReview(db, input.videoId);
    if (video) {
      held = true;
      await queryRows(db, sql`UPDATE reports SET held_video = true WHERE id = ${row.id}`);
      const label = REPORT_REASON_LABELS[input.reason].label.toLowerCase();
      const decision = await recordDecision(db, {
        subjectUserId: video.owner_id,
        targetType: 'video',
        targetId: video.stream_video_id,
        targetLabel: video.title,
        action: 'video_hidden',
        ground: REPORT_REASON_GROUNDS[input.reason],
        explanation: `Someone reported that this video shows ${input.reason === 'underage' ? 'someone under 18' : 'someone who did not consent to it being shared'}. We hide every video reported for this at once while a moderator reviews it, within 48 hours. This was automatic: no one has decided yet that the report is right.`,
        automated: true,
        source: input.source === 'notice' ? 'notice' : 'report',
        decidedBy: null,
      });
      await notify(db, {
        recipientId: video.owner_id,
        type: 'site_notice',
        link: decision.link,
        message: `Your video "${video.title}" is hidden while we review a report (${label}). Read why and how to appeal.`,
      });
    }
    const alertTo = getConfig().trust.adminAlertEmail;
    if (alertTo) {
      await queueTrustEmail(db, {
        to: alertTo,
        subject: `Urgent ${input.source}: ${REPORT_REASON_LABELS[input.reason].label}`,
        lines: [
          `An urgent ${input.source} (${REPORT_REASON_LABELS[input.reason].label.toLowerCase()}) arrived. ${held ? 'The video was hidden at once.' : 'The video was not public.'}`,
          `It must be decided by ${dueAt.toUTCString()}.`,
          `Reference: ${row.id}`,
        ],
        action: 'Open the report queue',
        url: '/admin/reports',
        footer: 'You receive this because ADMIN_ALERT_EMAIL is set to this address.',
      });
    }
  }
  if (input.notifier?.acknowledge) {
    // The address was typed by whoever sent the notice: our words, the reason's label and the reference only, never their text.
    await queueTrustEmail(db, {
      to: input.notifier.email,
      subject: 'We received your notice',
      lines: [
        `We received a notice about a video on Chrysalis (${REPORT_REASON_LABELS[input.reason].label.toLowerCase()}), sent with this email address.`,
        held ? 'The video is hidden while a moderator reviews it.' : 'A moderator will review it.',
        `We will decide by ${dueAt.toUTCString()} and email you the outcome.`,
        `Your reference: ${row.id}`,
        'If you did not send this notice, you can ignore this email.',
      ],
      action: 'Read how we handle notices',
      url: '/community-standards#reporting',
    });
  }
  return { id: row.id, held, dueAt };
}

/** After the filing transaction committed: the hidden video leaves cached pages, queued mail goes out. */
export function afterFiling(filed: Pick<FiledReport, 'held'>): void {
  if (filed.held) purgePublicPages();
  wakeWorkers();
}

/** The public video a notice names, by any form of its address; 400 for a bad address, 404 for no such public video. */
export async function resolveNoticeVideo(db: Database, reference: string): Promise<{ id: string; stream_video_id: string; title: string; owner_id: string }> {
  const streamId = parseVideoReference(reference, getConfig().siteUrl);
  if (!streamId) throw badRequest(VIDEO_REFERENCE_MESSAGE, { field: 'video' });
  const [video] = await queryRows<{ id: string; stream_video_id: string; title: string; owner_id: string }>(
    db,
    sql`SELECT id, stream_video_id, title, owner_id FROM videos
        WHERE stream_video_id = ${streamId} AND processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned`,
  );
  // Only what the sender could have seen: anything not public is not found (a hidden video cannot be reported twice into a second hold).
  if (!video) throw new ApiError(404, 'We could not find a public video at that address. It may already have been removed.', { field: 'video' });
  return video;
}

/**
 * A notice from anyone (DSA Art. 16; TAKE IT DOWN Act for intimate images):
 * no account needed, rate limited per address, acknowledged by email with a
 * reference (at most LIMITS.acknowledgementsPerRecipient a day per inbox). Copyright goes through the DMCA form instead (the schema says so).
 */
export async function createNotice(actor: Actor, input: NoticeInput, address: string, now = new Date()): Promise<{ reference: string; message: string; dueAt: string }> {
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
