import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import type { DecisionGround } from '@/lib/trust/grounds';
import { REPORT_REASON_LABELS, type ReportReason, type ReportTargetType } from '@/lib/validation/community';
import type { ReportDecision } from '@/lib/validation/admin';

import { recordAdminAction } from '../admin/audit';
import { refuseOwnCase, reportSubject } from '../admin/duties';
import { applyBan } from '../admin/members';
import { requireAdmin, type Actor, type Authenticated } from '../auth/actor';
import { removeComment } from '../community/comments';
import { ApiError, conflict } from '../errors';
import { notify } from '../notifications';
import { approveIfClear, applyStrikes } from '../trust/copyright';
import { recordDecision } from '../trust/decisions';
import { queueTrustEmail } from '../trust/mail';
import { queueDecisionEmail } from '../trust/statements';

import { REPORT_REASON_GROUNDS } from './reasons';

interface OpenReport {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  status: string;
  source: 'report' | 'notice';
}

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
    recordDecision(db, { subjectUserId, targetType, targetId, targetLabel, action, ground, explanation: why, automated: false, source: report.source === 'notice' ? (report.reason === 'copyright' ? 'copyright' : 'notice') : 'report', decidedBy: admin.user.id });
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
    // A copyright takedown an admin upholds is a strike (decision 016).
    const upheld = await queryRows<{ id: string }>(
      db,
      sql`UPDATE copyright_takedowns SET status = 'upheld', closed_at = now() WHERE video_id = ${video.id} AND status IN ('active', 'counter_noticed', 'lawsuit') RETURNING id`,
    );
    if (upheld.length > 0 && (await applyStrikes(db, video.owner_id, admin.user.id))) return `removed the video “${video.title}” and closed the uploader's account (repeat infringer)`;
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
      sql`SELECT id, target_type, target_id, reason, status, source FROM reports WHERE id = ${reportId} FOR UPDATE`,
    );
    if (!report) throw new ApiError(404, 'Report not found');
    if (report.status !== 'open') throw conflict(`This report was already ${report.status}.`);
    // Removing their own content is the owner's right anyway; clearing it is another admin's call.
    if (decision.action === 'dismiss') refuseOwnCase(admin, await reportSubject(database, report.target_type, report.target_id), 'report');
    const outcome = decision.action === 'remove' ? await removeTarget(database, admin, report, decision.note, decision.ground) : 'dismissed';
    const closed = await queryRows<{ id: string; notifier_email: string | null; reason: ReportReason; held_video: boolean }>(
      database,
      sql`UPDATE reports SET status = ${decision.action === 'remove' ? 'resolved' : 'dismissed'}, resolved_by = ${admin.user.id},
                 resolved_at = now(), resolution_note = ${decision.note || null}
          WHERE status = 'open' AND target_type = ${report.target_type} AND target_id = ${report.target_id}
          RETURNING id, notifier_email, reason, held_video`,
    );
    let restored = false;
    if (decision.action === 'dismiss' && report.target_type === 'video') {
      // Nothing wrong: a takedown from these notices is withdrawn, and a video they hid is public again when nothing else blocks it.
      const withdrawn = await queryRows<{ id: string }>(
        database,
        sql`UPDATE copyright_takedowns SET status = 'withdrawn', closed_at = now() WHERE video_id = ${report.target_id} AND status IN ('active', 'counter_noticed', 'lawsuit') RETURNING id`,
      );
      // Only a video these reports hid comes back; one held for another reason stays with that cause.
      if (withdrawn.length > 0 || closed.some((row) => row.held_video)) restored = await approveIfClear(database, report.target_id);
    }
    // DSA Art. 16(5): whoever sent a notice is told the outcome.
    for (const row of closed) {
      if (!row.notifier_email) continue;
      await queueTrustEmail(database, {
        to: row.notifier_email,
        subject: 'The outcome of your notice',
        lines: [
          `We reviewed your notice (${REPORT_REASON_LABELS[row.reason].label.toLowerCase()}). Your reference: ${row.id}.`,
          decision.action === 'remove' ? 'We removed the content.' : 'We found no breach of our rules or the law, so the content stays up.',
          ...(decision.note ? [`The moderator's note: ${decision.note}`] : []),
          'If you disagree, reply to this email, or take the matter to a certified out-of-court dispute settlement body or a court.',
        ],
        action: 'Read our Community Standards',
        url: '/community-standards',
      });
    }
    await recordAdminAction(database, admin, {
      action: decision.action === 'remove' ? 'report.resolve' : 'report.dismiss',
      targetType: 'report',
      targetId: report.id,
      summary: `${decision.action === 'remove' ? 'Resolved' : 'Dismissed'} a ${report.target_type} report (${REPORT_REASON_LABELS[report.reason].label.toLowerCase()}): ${outcome}${decision.note ? `. Note: ${decision.note}` : ''}`,
      details: { targetType: report.target_type, targetId: report.target_id, reports: closed.map((row) => row.id), note: decision.note, outcome },
    });
    return { closed: closed.length, outcome: restored ? 'dismissed; the video is public again' : outcome, removedVideo: (decision.action === 'remove' && report.target_type !== 'comment') || restored };
  });
  if (result.removedVideo) purgePublicPages();
  wakeWorkers();
  return { closed: result.closed, outcome: result.outcome };
}
