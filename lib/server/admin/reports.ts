import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import type { DecisionGround } from '@/lib/trust/grounds';
import { REPORT_REASON_LABELS, type ReportReason, type ReportTargetType } from '@/lib/validation/community';
import type { ReportDecision } from '@/lib/validation/admin';

import { requireAdmin, type Actor, type Authenticated } from '../auth/actor';
import { removeComment } from '../community/comments';
import { ApiError, conflict } from '../errors';
import { notify } from '../notifications';
import { recordDecision } from '../trust/decisions';
import { queueDecisionEmail } from '../trust/statements';

import { recordAdminAction } from './audit';
import { applyBan } from './members';


interface OpenReport {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  status: string;
}

/**
 * The rule a removal after a report rests on, from the report's reason, when
 * the admin names none: the statement of reasons cites it (DSA Art. 17).
 */
export const REPORT_REASON_GROUNDS: Record<ReportReason, DecisionGround> = {
  underage: 'law-child-protection',
  non_consensual: 'law-take-it-down',
  illegal: 'law-illegal-content',
  copyright: 'law-copyright-dmca',
  harassment: 'standards-behaviour',
  spam: 'standards-what-you-can-share',
  other: 'standards-prohibited-content',
};

/**
 * Takes reported content down: a video is rejected (its uploader is told
 * why), a comment is deleted, a profile's member is banned. Returns a line
 * for the audit log. Content already gone counts as removed.
 */
async function removeTarget(db: Database, admin: Authenticated, report: OpenReport, note: string, chosenGround?: DecisionGround): Promise<string> {
  const why = `${REPORT_REASON_LABELS[report.reason].label}${note ? ` — ${note}` : ''}`;
  const ground = chosenGround ?? REPORT_REASON_GROUNDS[report.reason];
  // Each removal records its statement of reasons in this transaction; the member's notice links to it.
  const statement = (subjectUserId: string, targetType: 'video' | 'comment' | 'account', targetId: string, targetLabel: string, action: 'video_removed' | 'comment_removed' | 'account_banned') =>
    recordDecision(db, { subjectUserId, targetType, targetId, targetLabel, action, ground, explanation: why, automated: false, source: 'report', decidedBy: admin.user.id });
  if (report.target_type === 'video') {
    const [video] = await queryRows<{ id: string; title: string; owner_id: string; stream_video_id: string }>(
      db,
      sql`UPDATE videos SET moderation_status = 'rejected', rejection_reason = ${`Removed after a report: ${why}`},
                 moderated_by = ${admin.user.id}, moderated_at = now(), updated_at = now()
          WHERE id = ${report.target_id}
          RETURNING id, title, owner_id, stream_video_id`,
    );
    if (!video) return 'the video was already deleted';
    const { link } = await statement(video.owner_id, 'video', video.stream_video_id, video.title, 'video_removed');
    await notify(db, {
      recipientId: video.owner_id,
      senderId: admin.user.id,
      type: 'video_rejected',
      link,
      message: `Your video "${video.title}" was removed after a report. Reason: ${why}`,
    });
    return `removed the video “${video.title}”`;
  }
  if (report.target_type === 'comment') {
    const [comment] = await queryRows<{ author_id: string; body: string; title: string }>(
      db,
      sql`SELECT c.author_id, c.body, v.title FROM comments c JOIN videos v ON v.id = c.video_id WHERE c.id = ${report.target_id}`,
    );
    // Its replies and the notifications they caused go with it.
    if (!comment || !(await removeComment(db, report.target_id))) return 'the comment was already deleted';
    const excerpt = [...comment.body.replace(/\s+/g, ' ').trim()].slice(0, 80).join('');
    const { link } = await statement(comment.author_id, 'comment', report.target_id, `Comment on “${comment.title}”: ${excerpt}`, 'comment_removed');
    await notify(db, {
      recipientId: comment.author_id,
      senderId: admin.user.id,
      type: 'site_notice',
      link,
      message: `Your comment on "${comment.title}" was removed after a report. Reason: ${why}`,
    });
    return 'deleted the comment';
  }
  const [member] = await queryRows<{ username: string; is_admin: boolean; banned_at: unknown }>(
    db,
    sql`SELECT username, is_admin, banned_at FROM users WHERE id = ${report.target_id} FOR UPDATE`,
  );
  if (!member) return 'the account was already deleted';
  if (member.is_admin) throw conflict(`${member.username} is an admin. Remove their admin rights before banning them.`);
  if (member.banned_at) return `${member.username} was already banned`;
  await applyBan(db, report.target_id, `Reported profile: ${why}`, admin.user.id);
  // A banned member cannot log in: the statement goes by email, with a link to read and appeal it.
  const { id } = await statement(report.target_id, 'account', report.target_id, member.username, 'account_banned');
  await queueDecisionEmail(db, id, 'statement');
  return `banned ${member.username}`;
}

/**
 * Closes a report by removing the content or dismissing it, with a note.
 * Every other open report on the same target is closed the same way (they
 * are about one thing); the audit log keeps who decided and why.
 */
export async function decideReport(actor: Actor, reportId: string, decision: ReportDecision): Promise<{ closed: number; outcome: string }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const result = await db.transaction(async (database) => {
    const [report] = await queryRows<OpenReport>(
      database,
      sql`SELECT id, target_type, target_id, reason, status FROM reports WHERE id = ${reportId} FOR UPDATE`,
    );
    if (!report) throw new ApiError(404, 'Report not found');
    if (report.status !== 'open') throw conflict(`This report was already ${report.status}.`);
    const outcome = decision.action === 'remove' ? await removeTarget(database, admin, report, decision.note, decision.ground) : 'dismissed';
    const closed = await queryRows<{ id: string }>(
      database,
      sql`UPDATE reports SET status = ${decision.action === 'remove' ? 'resolved' : 'dismissed'}, resolved_by = ${admin.user.id},
                 resolved_at = now(), resolution_note = ${decision.note || null}
          WHERE status = 'open' AND target_type = ${report.target_type} AND target_id = ${report.target_id}
          RETURNING id`,
    );
    await recordAdminAction(database, admin, {
      action: decision.action === 'remove' ? 'report.resolve' : 'report.dismiss',
      targetType: 'report',
      targetId: report.id,
      summary: `${decision.action === 'remove' ? 'Resolved' : 'Dismissed'} a ${report.target_type} report (${REPORT_REASON_LABELS[report.reason].label.toLowerCase()}): ${outcome}${decision.note ? `. Note: ${decision.note}` : ''}`,
      details: { targetType: report.target_type, targetId: report.target_id, reports: closed.map((row) => row.id), note: decision.note, outcome },
    });
    return { closed: closed.length, outcome, removedVideo: decision.action === 'remove' && report.target_type !== 'comment' };
  });
  if (result.removedVideo) purgePublicPages();
  wakeWorkers();
  return { closed: result.closed, outcome: result.outcome };
}
