import 'server-only';

import { eq, sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { appeals, videos, type AppealStatus } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import type { AdminAppealDto, AppealDto } from '@/lib/trust/statements';
import type { AppealDecisionInput, AppealInput } from '@/lib/validation/trust';

import { recordAdminAction } from '../admin/audit';
import { refuseOwnCase } from '../admin/duties';
import { liftBan } from '../admin/members';
import { memberOf, requireAdmin, type Actor } from '../auth/actor';
import { ApiError, conflict, forbidden } from '../errors';
import { notify } from '../notifications';

import { approvalBlockers } from './approval-gate';
import {
  DECISION_COLUMNS,
  queueDecisionEmail,
  readableDecision,
  toDecisionDto,
  type DecisionRow,
  appealRefusal,
} from './statements';

/**
 * Appeals (DSA Art. 20): the member a decision is about appeals it once,
 * within its window; an admin who did not make the decision upholds or
 * reverses it with a note; reversing undoes what can be undone, and the
 * member is told in the app and by email. Decision 017.
 */

export const APPEAL_RESULT_MESSAGES = {
  received:
    'Thank you. Your appeal has been received. An admin who did not make the decision will review it, and we will tell you the outcome.',
  onlySubject: 'Only the member this decision is about can appeal it.',
  notFound: 'Appeal not found',
  sameAdmin: 'You made this decision, so another admin must decide its appeal.',
  alreadyDecided: (status: string) => `This appeal was already decided (${status}).`,
  videoBlocked: (reason: string) =>
    `This video cannot be made public again yet: ${reason} The appeal stays open until that is resolved.`,
  videoProcessingFailed:
    'This video could not be processed, so it cannot be made public again. Uphold the decision, or ask the uploader to upload it again.',
} as const;

/** Files an appeal: the caller must be the decision's member (signed in, or holding its signed link). */
export async function appealDecision(
  actor: Actor,
  decisionId: string,
  input: AppealInput,
): Promise<{ message: string; appeal: AppealDto }> {
  const db = await getDb();
  const { row, reader } = await readableDecision(db, actor, decisionId, { e: input.e, k: input.k });
  if (reader === 'admin') throw forbidden(APPEAL_RESULT_MESSAGES.onlySubject);
  const refusal = appealRefusal(row);
  if (refusal) throw conflict(refusal);
  // The unique decision_id makes a second appeal impossible, even two sent at once.
  const [appeal] = await db
    .insert(appeals)
    .values({ decisionId: row.id, appellantId: row.subject_user_id ?? memberOf(actor)?.id ?? null, statement: input.statement })
    .onConflictDoNothing({ target: appeals.decisionId })
    .returning();
  if (!appeal) throw conflict(appealRefusal({ ...row, appeal_status: 'open' })!);
  return {
    message: APPEAL_RESULT_MESSAGES.received,
    appeal: {
      _id: appeal.id,
      status: appeal.status,
      statement: appeal.statement,
      createdAt: appeal.createdAt.toISOString(),
      decidedAt: null,
      outcomeNote: null,
    },
  };
}

interface AppealRow extends DecisionRow {
  appellant_username: string | null;
  original_username: string | null;
}

/** The admin queue: open appeals oldest first (first come, first reviewed), decided ones newest first; counts per status. */
export async function listAppeals(
  actor: Actor,
  query: { status: AppealStatus; page: number; limit: number },
): Promise<{
  appeals: AdminAppealDto[];
  counts: Record<AppealStatus, number>;
  pagination: { page: number; limit: number; hasMore: boolean };
}> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const order = query.status === 'open' ? sql`a.created_at ASC, a.id ASC` : sql`a.decided_at DESC, a.id DESC`;
  const rows = await queryRows<AppealRow>(
    db,
    sql`SELECT ${DECISION_COLUMNS}, appellant.username AS appellant_username, original.username AS original_username
        FROM appeals a JOIN moderation_decisions d ON d.id = a.decision_id
        LEFT JOIN users appellant ON appellant.id = a.appellant_id
        LEFT JOIN users original ON original.id = d.decided_by
        WHERE a.status = ${query.status}
        ORDER BY ${order}
        LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  const [counts] = await queryRows<Record<AppealStatus, number>>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'open')::int AS open, count(*) FILTER (WHERE status = 'upheld')::int AS upheld,
               count(*) FILTER (WHERE status = 'reversed')::int AS reversed FROM appeals`,
  );
  return {
    appeals: rows.slice(0, query.limit).map((row) => {
      const decision = toDecisionDto(row);
      return {
        ...decision.appeal!,
        decision,
        appellant:
          row.subject_user_id && row.appellant_username ? { _id: row.subject_user_id, username: row.appellant_username } : null,
        decidedByOriginal: row.decided_by ? { _id: row.decided_by, username: row.original_username ?? 'a former admin' } : null,
        mayDecide: row.decided_by !== admin.user.id,
      };
    }),
    counts: counts!,
    pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit },
  };
}

const VIDEO_ACTIONS = new Set(['video_rejected', 'video_removed', 'video_hidden', 'video_taken_down']);
const ACCOUNT_ACTIONS = new Set(['account_banned', 'account_terminated']);

/**
 * Undoes a decision found wrong, in the caller's transaction, and says what
 * happened in a sentence for the member. A video goes back to approved only
 * through the approval gate (a blocker keeps the appeal open: 409); a ban
 * is lifted the way an admin lifts one; a deleted comment cannot come back.
 */
async function undo(db: Database, adminId: string, decision: DecisionRow): Promise<{ sentence: string; publicChanged: boolean }> {
  if (VIDEO_ACTIONS.has(decision.action)) {
    const [video] = await db.select().from(videos).where(eq(videos.streamVideoId, decision.target_id)).for('update');
    if (!video) return { sentence: 'The video has since been deleted, so it cannot come back.', publicChanged: false };
    if (video.moderationStatus === 'approved') return { sentence: 'Your video is public again.', publicChanged: false };
    if (video.processingState === 'failed') throw conflict(APPEAL_RESULT_MESSAGES.videoProcessingFailed);
    const [blocker] = await approvalBlockers(db, video);
    if (blocker) throw conflict(APPEAL_RESULT_MESSAGES.videoBlocked(blocker));
    await db
      .update(videos)
      .set({
        moderationStatus: 'approved',
        rejectionReason: null,
        moderatedBy: adminId,
        moderatedAt: sql`now()`,
        publishedAt: sql`coalesce(${videos.publishedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(videos.id, video.id));
    return { sentence: 'Your video is public again.', publicChanged: true };
  }
  if (decision.action === 'comment_removed') {
    return {
      sentence: 'The comment was deleted when it was removed, so it cannot be restored; you are welcome to post it again.',
      publicChanged: false,
    };
  }
  if (ACCOUNT_ACTIONS.has(decision.action)) {
    const [member] = await queryRows<{ banned_at: unknown }>(
      db,
      sql`SELECT banned_at FROM users WHERE id = ${decision.target_id} FOR UPDATE`,
    );
    if (!member) return { sentence: 'The account has since been deleted, so the ban cannot be lifted.', publicChanged: false };
    if (!member.banned_at) return { sentence: 'Your account is not banned: you can log in.', publicChanged: false };
    await liftBan(db, decision.target_id);
    return { sentence: 'The ban is lifted: you can log in again.', publicChanged: true };
  }
  if (decision.action === 'verification_rejected') {
    return { sentence: 'You can send your verification again; this decision will not count against you.', publicChanged: false };
  }
  return { sentence: 'The decision no longer applies.', publicChanged: false };
}

/**
 * Decides an appeal: an admin other than the one who made the decision
 * (automated decisions: any admin) upholds or reverses it with a note.
 */
export async function decideAppeal(
  actor: Actor,
  appealId: string,
  input: AppealDecisionInput,
): Promise<{ message: string; appeal: AdminAppealDto['status'] }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    // Locked: two admins deciding at once cannot both win.
    const [locked] = await tx.select().from(appeals).where(eq(appeals.id, appealId)).for('update');
    if (!locked) throw new ApiError(404, APPEAL_RESULT_MESSAGES.notFound);
    if (locked.status !== 'open') throw conflict(APPEAL_RESULT_MESSAGES.alreadyDecided(locked.status));
    const [decision] = await queryRows<DecisionRow>(
      tx,
      sql`SELECT ${DECISION_COLUMNS} FROM moderation_decisions d JOIN appeals a ON a.decision_id = d.id WHERE a.id = ${appealId}`,
    );
    if (!decision) throw new ApiError(404, APPEAL_RESULT_MESSAGES.notFound);
    if (decision.decided_by === admin.user.id) throw forbidden(APPEAL_RESULT_MESSAGES.sameAdmin);
    refuseOwnCase(admin, decision.subject_user_id, 'appeal');
    const status: AppealStatus = input.outcome === 'reverse' ? 'reversed' : 'upheld';
    const undone = input.outcome === 'reverse' ? await undo(tx, admin.user.id, decision) : { sentence: '', publicChanged: false };
    await tx
      .update(appeals)
      .set({ status, outcomeNote: input.note, decidedBy: admin.user.id, decidedAt: sql`now()` })
      .where(eq(appeals.id, appealId));
    const what = decision.target_label || decision.action.replace(/_/g, ' ');
    await recordAdminAction(tx, admin, {
      action: input.outcome === 'reverse' ? 'appeal.reverse' : 'appeal.uphold',
      targetType: 'appeal',
      targetId: appealId,
      summary: `${input.outcome === 'reverse' ? 'Reversed' : 'Upheld'} the decision “${decision.action.replace(/_/g, ' ')}” on “${what}” after an appeal: ${input.note}`,
      details: {
        decisionId: decision.id,
        action: decision.action,
        targetType: decision.target_type,
        targetId: decision.target_id,
        note: input.note,
        undone: undone.sentence || null,
      },
    });
    if (decision.subject_user_id) {
      const [subject] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM users WHERE id = ${decision.subject_user_id}`);
      if (subject) {
        await notify(tx, {
          recipientId: subject.id,
          senderId: null,
          type: 'site_notice',
          link: `/decisions/${decision.id}`,
          message:
            input.outcome === 'reverse'
              ? `We reviewed your appeal about “${what}” and reversed the decision. ${undone.sentence}`.trim()
              : `We reviewed your appeal about “${what}”: the decision stands. ${input.note}`,
        });
        await queueDecisionEmail(tx, decision.id, 'outcome');
      }
    }
    return { status, undone };
  });
  wakeWorkers();
  if (result.undone.publicChanged) purgePublicPages();
  return {
    message:
      result.status === 'reversed'
        ? `Decision reversed. ${result.undone.sentence}`.trim()
        : 'Decision upheld. The member has been told.',
    appeal: result.status,
  };
}
