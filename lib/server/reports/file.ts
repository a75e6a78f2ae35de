import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import type { ReportSource, User } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import { REPORT_MESSAGES, REPORT_REASON_LABELS, type ReportInput, type ReportReason, type ReportTargetType } from '@/lib/validation/community';

import { CROSS_SITE_MESSAGE, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, forbidden, unauthorized } from '../errors';
import { notify } from '../notifications';
import { consume } from '../rate-limit';
import { recordDecision } from '../trust/decisions';
import { holdVideoPendingReview } from '../trust/hold';
import { queueTrustEmail } from '../trust/mail';
import { findVideoRow, isPublicRow } from '../videos/catalog';

import { reporterKeyOf } from './keys';
import { dueAtFor, isHoldReason, REPORT_REASON_GROUNDS } from './reasons';

/*
 * Filing a report: the Report button (createReport), and for the trust code
 * the public notice forms (trust/notices.ts, trust/copyright.ts), which call
 * fileVideoReport or insertReport. Every report is a row in `reports`,
 * queued, counted and decided as one (list.ts, decide.ts).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STREAM_VIDEO_ID = /^[A-Za-z0-9_-]{1,32}$/;
const USERNAME = /^[A-Za-z0-9_.-]{1,30}$/;

export const REPORT_RATE_LIMIT_MESSAGE = 'You have sent a lot of reports in a short time. Please wait a while before sending another.';

/** Who sent a public notice, to be told the outcome (DSA Art. 16(5)). */
export interface Notifier {
  name: string;
  email: string;
  signature: string;
}

export interface NewReport {
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  details: string;
  reporterId: string | null;
  reporterKey: string;
  source: ReportSource;
  notifier?: Notifier;
  now: Date;
}

/**
 * Stores a report, due when its reason says. Null when the same reporter
 * already has an open report on the target: the partial unique index
 * decides, also when two requests race.
 */
export async function insertReport(db: Database, report: NewReport): Promise<{ id: string; dueAt: Date } | null> {
  const dueAt = dueAtFor(report.reason, report.now);
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO reports (target_type, target_id, reason, details, reporter_id, reporter_key, source, notifier_name, notifier_email, notifier_signature, created_at, due_at)
        VALUES (${report.targetType}, ${report.targetId}, ${report.reason}, ${report.details}, ${report.reporterId}, ${report.reporterKey}, ${report.source},
                ${report.notifier?.name ?? null}, ${report.notifier?.email ?? null}, ${report.notifier?.signature ?? null}, ${report.now}, ${dueAt})
        ON CONFLICT (target_type, target_id, reporter_key) WHERE status = 'open' DO NOTHING
        RETURNING id`,
  );
  return row ? { id: row.id, dueAt } : null;
}

export type NewVideoReport = Omit<NewReport, 'targetType' | 'targetId' | 'notifier' | 'now'> & {
  videoId: string;
  /** With whether the acknowledgement may go out (mayAcknowledge, decided before the filing transaction). */
  notifier?: Notifier & { acknowledge: boolean };
  now?: Date;
};

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
  const row = await insertReport(db, { ...input, targetType: 'video', targetId: input.videoId, now });
  if (!row) return { id: null, held: false, dueAt: dueAtFor(input.reason, now) };
  const { dueAt } = row;
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

/**
 * The reporting member, or null for a visitor. A banned member (or the
 * holder of a banned account's token) is refused with 403 'Account is
 * banned' rather than treated as a visitor.
 */
function optionalUser(actor: Actor): User | null {
  if (actor.kind === 'visitor' && !actor.banned) return null;
  return requireMember(actor).user;
}

/** 400 for a target that cannot exist (checked before the rate limit and the database). */
function assertTargetFormat(type: ReportTargetType, target: string): void {
  const [pattern, message] =
    type === 'video' ? [STREAM_VIDEO_ID, 'That is not a valid video id.'] : type === 'comment' ? [UUID, 'That is not a valid comment id.'] : [USERNAME, 'That is not a valid username.'];
  if (!pattern.test(target)) throw badRequest(message, { field: 'target' });
}

/** The reported thing's row id, or 404. */
async function resolveTarget(type: ReportTargetType, target: string, reporterId: string | null): Promise<string> {
  const db = await getDb();
  if (type === 'video') {
    const row = await findVideoRow(target);
    // Only what the reporter could have seen: unpublished videos are 404 to everyone but their owner and admins.
    if (!row || !isPublicRow(row)) throw new ApiError(404, 'Video not found');
    return row.id;
  }
  if (type === 'comment') {
    const [row] = await queryRows<{ id: string; author_id: string }>(
      db,
      sql`SELECT c.id, c.author_id FROM comments c JOIN videos v ON v.id = c.video_id
          WHERE c.id = ${target} AND v.processing_state = 'ready' AND v.moderation_status = 'approved' AND NOT v.owner_banned`,
    );
    if (!row) throw new ApiError(404, 'Comment not found');
    if (row.author_id === reporterId) throw badRequest(REPORT_MESSAGES.ownComment, { field: 'target' });
    return row.id;
  }
  const [row] = await queryRows<{ id: string }>(db, sql`SELECT id FROM users WHERE lower(username) = ${target.toLowerCase()}`);
  if (!row) throw new ApiError(404, 'Member not found');
  if (row.id === reporterId) throw badRequest('You cannot report yourself.', { field: 'target' });
  return row.id;
}

export interface ReportOutcome {
  created: boolean;
  message: string;
}

/**
 * Files a report. Anyone may report a video; comments and profiles need a
 * member (401). Rate limited per address for visitors and per account for
 * members (429). Reporting the same target again while the first report is
 * open changes nothing (insertReport).
 */
export async function createReport(actor: Actor, input: ReportInput, address: string): Promise<ReportOutcome> {
  const member = optionalUser(actor);
  if (!member && input.targetType !== 'video') {
    // A member's cookie on a report from another site is not believed (CSRF); say so rather than 'log in'.
    if (actor.kind === 'visitor' && actor.crossSite) throw forbidden(CROSS_SITE_MESSAGE);
    throw unauthorized(REPORT_MESSAGES.loginRequired);
  }
  const memberId = member?.id ?? null;
  const reporterKey = reporterKeyOf(memberId, address);
  // Cheap format checks first, then the budget, then the database lookups it protects.
  assertTargetFormat(input.targetType, input.target);
  if (memberId) await consume('reportPerMember', memberId, REPORT_RATE_LIMIT_MESSAGE);
  else await consume('reportPerIp', reporterKey, REPORT_RATE_LIMIT_MESSAGE);

  const targetId = await resolveTarget(input.targetType, input.target, memberId);
  const db = await getDb();
  if (input.targetType === 'video') {
    // Videos follow the notice rules (decision 016): non-consent and minors hide the video at once with a 48-hour clock.
    const filed = await db.transaction((tx) =>
      fileVideoReport(tx, { videoId: targetId, reason: input.reason, details: input.details, reporterId: memberId, reporterKey, source: 'report' }),
    );
    afterFiling(filed);
    return filed.id ? { created: true, message: REPORT_MESSAGES.thanks } : { created: false, message: REPORT_MESSAGES.duplicate };
  }
  const inserted = await insertReport(db, {
    targetType: input.targetType,
    targetId,
    reason: input.reason,
    details: input.details,
    reporterId: memberId,
    reporterKey,
    source: 'report',
    now: new Date(),
  });
  return inserted ? { created: true, message: REPORT_MESSAGES.thanks } : { created: false, message: REPORT_MESSAGES.duplicate };
}
