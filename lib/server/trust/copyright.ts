import 'server-only';

import { createHash, randomBytes } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { videos } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import { addBusinessDays } from '@/lib/format/business-days';
import type { AdminLawsuitInput, CounterNoticeInput, DmcaNoticeInput, LawsuitInput } from '@/lib/validation/notices';

import { requireAdmin, requireMember, type Actor } from '../auth/actor';
import { recordAdminAction } from '../admin/audit';
import { applyBan } from '../admin/members';
import { ApiError, badRequest, conflict } from '../errors';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { notify } from '../notifications';
import { consume } from '../rate-limit';
import { insertReport } from '../reports/file';
import { reporterKeyOf } from '../reports/keys';

import { approvalBlockers } from './approval-gate';
import { recordDecision } from './decisions';
import { holdVideoPendingReview } from './hold';
import { mayAcknowledge, queueTrustEmail } from './mail';
import { NOTICE_DUPLICATE_MESSAGE, NOTICE_RATE_LIMIT_MESSAGE, resolveNoticeVideo } from './notices';

/**
 * Copyright under the DMCA (17 U.S.C. 512, decision 016). A complete notice
 * takes the video down at once (a hold; the statement of reasons says why
 * and links the counter-notice form). The uploader may answer with a
 * counter-notice; it is forwarded to the claimant, and the video comes back
 * after COUNTER_NOTICE_WAIT_BUSINESS_DAYS (10 to 14) unless the claimant
 * tells us first that they went to court. Takedowns an admin upholds are
 * strikes; at REPEAT_INFRINGER_STRIKES the account ends.
 */

export const RESTORE_JOB = 'copyright-restore';
export const COUNTER_NOTICE_MESSAGES = {
  notFound: 'Video not found',
  notTakenDown: 'This video was not taken down.',
  already:
    'You have already sent a counter-notice for this video. It comes back after the legal wait unless the claimant tells us they went to court.',
  sent: 'Thank you. We forwarded your counter-notice to the person who complained. Unless they tell us they went to court, your video comes back after the legal wait.',
} as const;
export const LAWSUIT_MESSAGES = {
  invalid: 'This link is not valid. Open the whole link from the email we sent you.',
  already: 'You have already told us about the lawsuit. The video stays down.',
  closed:
    'This takedown is closed: the video was restored or the takedown withdrawn. Write to our copyright agent if you still need to reach us.',
  notWaiting: 'This takedown is not waiting for a lawsuit notice: no counter-notice was sent.',
  sent: 'Thank you. The video stays down while the court case goes on.',
} as const;
export const DMCA_SENT_MESSAGE =
  'Thank you. The video was taken down. We emailed you a reference, and we will forward any counter-notice to you.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A notice under 512(c)(3): stored in `reports` (so it is queued and counted) with its details in `copyright_takedowns`. */
export async function createDmcaNotice(
  actor: Actor,
  input: DmcaNoticeInput,
  address: string,
  now = new Date(),
): Promise<{ reference: string; message: string }> {
  const memberId = actor.kind === 'member' && !actor.user.bannedAt ? actor.user.id : null;
  const reporterKey = reporterKeyOf(null, address);
  await consume('noticePerIp', reporterKey, NOTICE_RATE_LIMIT_MESSAGE);
  const acknowledge = await mayAcknowledge(input.email);
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const video = await resolveNoticeVideo(tx, input.video);
    const report = await insertReport(tx, {
      targetType: 'video',
      targetId: video.id,
      reason: 'copyright',
      details: input.work,
      reporterId: memberId,
      reporterKey,
      source: 'notice',
      notifier: { name: input.name, email: input.email, signature: input.signature },
      now,
    });
    if (!report) throw new ApiError(409, NOTICE_DUPLICATE_MESSAGE);
    const held = await holdVideoPendingReview(tx, video.id);
    await queryRows(tx, sql`UPDATE reports SET held_video = ${held !== null} WHERE id = ${report.id}`);
    const [takedown] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO copyright_takedowns (report_id, video_id, uploader_id, video_label, claimant_name, claimant_address, claimant_phone, claimant_email, claimant_signature, work, infringing_url, created_at)
          VALUES (${report.id}, ${video.id}, ${video.owner_id}, ${video.title}, ${input.name}, ${input.address}, ${input.phone}, ${input.email}, ${input.signature}, ${input.work}, ${input.video}, ${now})
          RETURNING id`,
    );
    const decision = await recordDecision(tx, {
      subjectUserId: video.owner_id,
      targetType: 'video',
      targetId: video.stream_video_id,
      targetLabel: video.title,
      action: 'video_taken_down',
      ground: 'law-copyright-dmca',
      explanation: `We received a copyright notice under the DMCA from ${input.name}, who says the video uses this work without permission: ${input.work}. The law has us take the video down at once. If you believe it was removed by mistake, you can send a counter-notice; the video then comes back after ${getConfig().trust.counterNoticeWaitBusinessDays} business days unless the claimant goes to court.`,
      automated: true,
      source: 'copyright',
      decidedBy: null,
    });
    const counterUrl = `/copyright/counter-notice?video=${encodeURIComponent(video.stream_video_id)}`;
    await notify(tx, {
      recipientId: video.owner_id,
      type: 'site_notice',
      link: decision.link,
      message: `Your video "${video.title}" was taken down after a copyright notice. Read why, and how to send a counter-notice.`,
    });
    const [owner] = await queryRows<{ email: string }>(tx, sql`SELECT email FROM users WHERE id = ${video.owner_id}`);
    if (owner) {
      await queueTrustEmail(tx, {
        to: owner.email,
        subject: `Your video "${video.title}" was taken down after a copyright notice`,
        lines: [
          `We received a copyright notice about your video "${video.title}" and took it down, as the law (17 U.S.C. 512) asks.`,
          `The notice says it uses this work: ${input.work}`,
          'If you believe this is a mistake, send a counter-notice with the button below. The statement of reasons is at ' +
            `${getConfig().siteUrl}${decision.link}.`,
          'Repeated takedowns that stand end an account.',
        ],
        action: 'Send a counter-notice',
        url: counterUrl,
      });
    }
    // The address was typed by whoever sent the notice: our words and the reference only, never their text.
    if (acknowledge) {
      await queueTrustEmail(tx, {
        to: input.email,
        subject: 'We received your copyright notice',
        lines: [
          'We received a copyright notice about a video on Chrysalis, sent with this email address, and took the video down.',
          'If the uploader sends a counter-notice, we will forward it to you.',
          `Your reference: ${report.id}`,
          'If you did not send this notice, you can ignore this email.',
        ],
        action: 'Read our copyright policy',
        url: '/copyright-policy',
      });
    }
    return { reference: report.id, takedownId: takedown!.id, held: held !== null };
  });
  if (result.held) purgePublicPages();
  wakeWorkers();
  return { reference: result.reference, message: DMCA_SENT_MESSAGE };
}

interface TakedownRow {
  id: string;
  report_id: string;
  status: string;
  video_id: string | null;
  uploader_id: string;
  video_label: string;
  claimant_email: string;
  restore_at: Date | string | null;
}

/**
 * A counter-notice under 512(g)(3), only from the uploader of a video that
 * was taken down, once per takedown. It is forwarded to the claimant with a
 * single-use link to tell us about a lawsuit; a job restores the video
 * after the wait.
 */
export async function sendCounterNotice(
  actor: Actor,
  input: CounterNoticeInput,
  now = new Date(),
): Promise<{ message: string; restoreAt: string }> {
  const member = requireMember(actor).user;
  const { trust } = getConfig();
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const streamId = /^[A-Za-z0-9_-]{1,32}$/.test(input.video) ? input.video : null;
    // Someone else's video is not found: its takedown is none of the caller's business.
    const [video] = streamId
      ? await queryRows<{ id: string; title: string; stream_video_id: string }>(
          tx,
          sql`SELECT id, title, stream_video_id FROM videos WHERE stream_video_id = ${streamId} AND owner_id = ${member.id}`,
        )
      : [];
    if (!video) throw new ApiError(404, COUNTER_NOTICE_MESSAGES.notFound, { field: 'video' });
    const [takedown] = await queryRows<TakedownRow>(
      tx,
      sql`SELECT id, report_id, status, video_id, uploader_id, video_label, claimant_email, restore_at FROM copyright_takedowns
          WHERE video_id = ${video.id} AND status IN ('active', 'counter_noticed', 'lawsuit')
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    );
    if (!takedown) throw conflict(COUNTER_NOTICE_MESSAGES.notTakenDown);
    if (takedown.status !== 'active') throw conflict(COUNTER_NOTICE_MESSAGES.already);
    const restoreAt = addBusinessDays(now, trust.counterNoticeWaitBusinessDays);
    const token = randomBytes(32).toString('base64url');
    await queryRows(
      tx,
      sql`UPDATE copyright_takedowns SET status = 'counter_noticed', counter_name = ${input.name}, counter_address = ${input.address}, counter_phone = ${input.phone},
                 counter_signature = ${input.signature}, counter_statement = ${input.material}, counter_at = ${now}, restore_at = ${restoreAt},
                 lawsuit_token_hash = ${hashToken(token)}
          WHERE id = ${takedown.id}`,
    );
    await enqueue(tx, RESTORE_JOB, { takedownId: takedown.id }, { runAt: restoreAt, dedupeKey: `${RESTORE_JOB}:${takedown.id}` });
    // The claimant's address was typed by a visitor and the counter-notice by the uploader: the mail carries our words and
    // the reference, and the counter-notice itself is on the page the single-use link opens (counterNoticeForClaimant).
    await queueTrustEmail(tx, {
      to: takedown.claimant_email,
      subject: 'A counter-notice about your copyright notice',
      lines: [
        `The uploader of the video named in your copyright notice (reference ${takedown.report_id}) sent a counter-notice under 17 U.S.C. 512(g)(3). Read it with the button below.`,
        `We will restore the video on ${restoreAt.toUTCString()} unless you tell us before then, on the same page, that you have filed an action seeking a court order to restrain the uploader.`,
        'This link is for you alone: do not forward it.',
      ],
      action: 'Read the counter-notice',
      url: `/copyright/lawsuit?token=${encodeURIComponent(token)}`,
    });
    await notify(tx, {
      recipientId: member.id,
      type: 'site_notice',
      link: `/copyright/counter-notice?video=${encodeURIComponent(video.stream_video_id)}`,
      message: `We forwarded your counter-notice about "${video.title}". It comes back on ${restoreAt.toUTCString()} unless the claimant goes to court.`,
    });
    return { restoreAt };
  });
  wakeWorkers();
  return { message: COUNTER_NOTICE_MESSAGES.sent, restoreAt: result.restoreAt.toISOString() };
}

/** A counter-notice as its claimant reads it on the page their single-use link opens. */
export interface CounterNoticeCopy {
  reference: string;
  name: string;
  address: string;
  phone: string;
  material: string;
  signature: string;
  sentAt: string;
  restoreAt: string | null;
  status: 'counter_noticed' | 'lawsuit' | 'closed';
}

/**
 * The copy of the counter-notice 512(g)(2)(B) owes the claimant, for the
 * holder of the link we mailed them: it stays off the email (that address
 * was typed by a visitor, and the text by the uploader). Null for a token
 * that opens nothing.
 */
export async function counterNoticeForClaimant(token: string): Promise<CounterNoticeCopy | null> {
  if (!token || token.length > 100) return null;
  const db = await getDb();
  const [row] = await queryRows<{
    report_id: string;
    status: string;
    counter_name: string | null;
    counter_address: string | null;
    counter_phone: string | null;
    counter_statement: string | null;
    counter_signature: string | null;
    counter_at: Date | string | null;
    restore_at: Date | string | null;
  }>(
    db,
    sql`SELECT report_id, status, counter_name, counter_address, counter_phone, counter_statement, counter_signature, counter_at, restore_at
        FROM copyright_takedowns WHERE lawsuit_token_hash = ${hashToken(token)}`,
  );
  if (!row?.counter_at) return null;
  return {
    reference: row.report_id,
    name: row.counter_name ?? '',
    address: row.counter_address ?? '',
    phone: row.counter_phone ?? '',
    material: row.counter_statement ?? '',
    signature: row.counter_signature ?? '',
    sentAt: new Date(row.counter_at).toISOString(),
    restoreAt: row.restore_at ? new Date(row.restore_at).toISOString() : null,
    status: row.status === 'counter_noticed' || row.status === 'lawsuit' ? row.status : 'closed',
  };
}

/** Marks a counter-noticed takedown as taken to court: the restore job then does nothing. Returns the row. */
async function markLawsuit(db: Database, takedown: TakedownRow, details: string, now: Date): Promise<void> {
  await queryRows(
    db,
    sql`UPDATE copyright_takedowns SET status = 'lawsuit', lawsuit_at = ${now}, lawsuit_details = ${details} WHERE id = ${takedown.id}`,
  );
  await notify(db, {
    recipientId: takedown.uploader_id,
    type: 'site_notice',
    link: '/copyright-policy',
    message: `The person who complained about "${takedown.video_label}" told us they went to court, so the video stays down until the case is decided.`,
  });
}

function refuseLawsuit(takedown: TakedownRow | undefined): void {
  if (!takedown) throw badRequest(LAWSUIT_MESSAGES.invalid, { field: 'token' });
  if (takedown.status === 'lawsuit') throw conflict(LAWSUIT_MESSAGES.already);
  if (takedown.status === 'active') throw conflict(LAWSUIT_MESSAGES.notWaiting);
  if (takedown.status !== 'counter_noticed') throw conflict(LAWSUIT_MESSAGES.closed);
}

/** The claimant's link: they filed an action (512(g)(2)(C)), so the video is not restored. */
export async function reportLawsuit(input: LawsuitInput, now = new Date()): Promise<{ message: string }> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [takedown] = await queryRows<TakedownRow>(
      tx,
      sql`SELECT id, report_id, status, video_id, uploader_id, video_label, claimant_email, restore_at FROM copyright_takedowns
          WHERE lawsuit_token_hash = ${hashToken(input.token)} FOR UPDATE`,
    );
    refuseLawsuit(takedown);
    await markLawsuit(tx, takedown!, input.details, now);
  });
  return { message: LAWSUIT_MESSAGES.sent };
}

/** An admin records a lawsuit the claimant reported another way (a letter, the agent's email). */
export async function recordLawsuitByAdmin(
  actor: Actor,
  takedownId: string,
  input: AdminLawsuitInput,
  now = new Date(),
): Promise<{ message: string }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [takedown] = await queryRows<TakedownRow>(
      tx,
      sql`SELECT id, report_id, status, video_id, uploader_id, video_label, claimant_email, restore_at FROM copyright_takedowns WHERE id = ${takedownId} FOR UPDATE`,
    );
    if (!takedown) throw new ApiError(404, 'Takedown not found');
    refuseLawsuit(takedown);
    await markLawsuit(tx, takedown, input.details, now);
    await recordAdminAction(tx, admin, {
      action: 'copyright.lawsuit',
      targetType: 'video',
      targetId: takedown.video_id ?? takedown.id,
      summary: `Recorded a lawsuit on the takedown of “${takedown.video_label}”: the video stays down`,
      details: { takedownId: takedown.id, details: input.details },
    });
  });
  return { message: LAWSUIT_MESSAGES.sent };
}

/**
 * Approves a held video again when nothing blocks it (the approval gate);
 * returns whether it is public again. Used after a counter-notice's wait and
 * when an admin dismisses the notice or withdraws the takedown.
 */
export async function approveIfClear(db: Database, videoId: string): Promise<boolean> {
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId)).for('update');
  if (!video || video.moderationStatus !== 'pending' || !video.publishedAt) return false;
  if ((await approvalBlockers(db, video)).length > 0) return false;
  await queryRows(
    db,
    sql`UPDATE videos SET moderation_status = 'approved', moderated_at = now(), updated_at = now() WHERE id = ${video.id}`,
  );
  return true;
}

/**
 * The restore after the counter-notice wait (512(g)(2)(C)): unless the
 * claimant reported a lawsuit (or an admin closed it) the takedown ends, its
 * notice closes, and the video is approved again through the approval gate
 * (another open cause keeps it in the moderation queue). Returns what happened.
 */
export async function restoreAfterCounterNotice(
  takedownId: string,
  now = new Date(),
): Promise<'restored' | 'held' | 'not-due' | 'skipped'> {
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const [takedown] = await queryRows<TakedownRow>(
      tx,
      sql`SELECT id, report_id, status, video_id, uploader_id, video_label, claimant_email, restore_at FROM copyright_takedowns WHERE id = ${takedownId} FOR UPDATE`,
    );
    if (!takedown || takedown.status !== 'counter_noticed') return 'skipped' as const;
    if (!takedown.restore_at || new Date(takedown.restore_at).getTime() > now.getTime()) return 'not-due' as const;
    await queryRows(tx, sql`UPDATE copyright_takedowns SET status = 'restored', closed_at = ${now} WHERE id = ${takedown.id}`);
    await queryRows(
      tx,
      sql`UPDATE reports SET status = 'dismissed', resolved_at = ${now}, resolution_note = 'Restored after a counter-notice; the claimant did not report a lawsuit in time.'
          WHERE status = 'open' AND id = (SELECT report_id FROM copyright_takedowns WHERE id = ${takedown.id})`,
    );
    if (!takedown.video_id) return 'skipped' as const;
    const restored = await approveIfClear(tx, takedown.video_id);
    const [video] = await queryRows<{ stream_video_id: string; title: string }>(
      tx,
      sql`SELECT stream_video_id, title FROM videos WHERE id = ${takedown.video_id}`,
    );
    if (restored && video) {
      const decision = await recordDecision(tx, {
        subjectUserId: takedown.uploader_id,
        targetType: 'video',
        targetId: video.stream_video_id,
        targetLabel: video.title,
        action: 'video_restored',
        ground: 'law-copyright-dmca',
        explanation:
          'You sent a counter-notice and the person who complained did not tell us they went to court within the legal wait, so the video is public again (17 U.S.C. 512(g)(2)(C)).',
        automated: true,
        source: 'copyright',
        decidedBy: null,
      });
      await notify(tx, {
        recipientId: takedown.uploader_id,
        type: 'site_notice',
        link: decision.link,
        message: `Your video "${video.title}" is public again after your counter-notice.`,
      });
    } else {
      await notify(tx, {
        recipientId: takedown.uploader_id,
        type: 'site_notice',
        link: '/upload#your-videos',
        message: `The copyright takedown of "${takedown.video_label}" has ended. The video waits for a moderator because something else needs review first.`,
      });
    }
    await queueTrustEmail(tx, {
      to: takedown.claimant_email,
      subject: 'The video you reported was restored after a counter-notice',
      lines: [
        `We did not hear of a lawsuit within the legal wait after the counter-notice to your copyright notice (reference ${takedown.report_id}), so the video was restored, as 17 U.S.C. 512(g) provides.`,
      ],
      action: 'Read our copyright policy',
      url: '/copyright-policy',
    });
    return restored ? ('restored' as const) : ('held' as const);
  });
  if (outcome === 'restored') purgePublicPages();
  wakeWorkers();
  return outcome;
}

const runRestore: JobHandler = async (job) => {
  const takedownId = (job.payload as { takedownId?: unknown }).takedownId;
  if (typeof takedownId !== 'string') return;
  const outcome = await restoreAfterCounterNotice(takedownId);
  // The job runs at restore_at; a clock that is behind the database's tries again (the worker's backoff).
  if (outcome === 'not-due') throw new Error('the counter-notice wait has not ended yet');
};

export const COPYRIGHT_JOB_HANDLERS: Record<string, JobHandler> = { [RESTORE_JOB]: runRestore };

/**
 * Ends the account of a repeat infringer (512(i)): at REPEAT_INFRINGER_STRIKES
 * upheld takedowns the existing ban applies, with a statement of reasons.
 * Admins are never ended here (their rights must be removed first). Returns
 * whether the account ended. Runs in the caller's transaction.
 */
export async function applyStrikes(db: Database, uploaderId: string, adminId: string): Promise<boolean> {
  const [counted] = await queryRows<{ strikes: number | string }>(
    db,
    sql`SELECT count(*) AS strikes FROM copyright_takedowns WHERE uploader_id = ${uploaderId} AND status = 'upheld'`,
  );
  const strikes = Number(counted?.strikes ?? 0);
  const limit = getConfig().trust.repeatInfringerStrikes;
  if (strikes < limit) return false;
  const [member] = await queryRows<{ username: string; is_admin: boolean; banned_at: unknown; email: string }>(
    db,
    sql`SELECT username, is_admin, banned_at, email FROM users WHERE id = ${uploaderId} FOR UPDATE`,
  );
  if (!member || member.is_admin || member.banned_at) return false;
  await applyBan(db, uploaderId, `Repeat copyright infringement: ${strikes} takedowns upheld`, adminId);
  const decision = await recordDecision(db, {
    subjectUserId: uploaderId,
    targetType: 'account',
    targetId: uploaderId,
    targetLabel: member.username,
    action: 'account_terminated',
    ground: 'law-copyright-dmca',
    explanation: `${strikes} of your videos were taken down after copyright notices that were upheld. Our repeat infringer policy ends an account at ${limit}.`,
    automated: false,
    source: 'copyright',
    decidedBy: adminId,
  });
  await queueTrustEmail(db, {
    to: member.email,
    subject: 'Your account was closed for repeated copyright infringement',
    lines: [
      `${strikes} of your videos were taken down after copyright notices that were upheld. Our repeat infringer policy ends an account at ${limit}, so your account is closed.`,
    ],
    action: 'Read the statement of reasons and how to appeal',
    url: decision.link,
  });
  return true;
}
