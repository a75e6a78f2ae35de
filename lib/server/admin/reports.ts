import 'server-only';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages } from '@/lib/events';
import { REPORT_REASON_LABELS, type ReportReason, type ReportTargetType } from '@/lib/validation/community';
import type { ReportDecision } from '@/lib/validation/admin';

import { requireAdmin, type Actor, type Authenticated } from '../auth/actor';
import { removeComment } from '../community/comments';
import { ApiError, conflict } from '../errors';
import { notify } from '../notifications';

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
 * Takes reported content down: a video is rejected (its uploader is told
 * why), a comment is deleted, a profile's member is banned. Returns a line
 * for the audit log. Content already gone counts as removed.
 */
async function removeTarget(db: Database, admin: Authenticated, report: OpenReport, note: string): Promise<string> {
  const why = `${REPORT_REASON_LABELS[report.reason].label}${note ? ` — ${note}` : ''}`;
  if (report.target_type === 'video') {
    const [video] = await queryRows<{ id: string; title: string; owner_id: string; stream_video_id: string }>(
      db,
      sql`UPDATE videos SET moderation_status = 'rejected', rejection_reason = ${`Removed after a report: ${why}`},
                 moderated_by = ${admin.user.id}, moderated_at = now(), updated_at = now()
          WHERE id = ${report.target_id}
          RETURNING id, title, owner_id, stream_video_id`,
    );
    if (!video) return 'the video was already deleted';
    await notify(db, {
      recipientId: video.owner_id,
      senderId: admin.user.id,
      type: 'video_rejected',
      link: '/upload#your-videos',
      message: `Your video "${video.title}" was removed after a report. Reason: ${why}`,
    });
    return `removed the video “${video.title}”`;
  }
  if (report.target_type === 'comment') {
    // Its replies and the notifications they caused go with it.
    return (await removeComment(db, report.target_id)) ? 'deleted the comment' : 'the comment was already deleted';
  }
  const [member] = await queryRows<{ username: string; is_admin: boolean; banned_at: unknown }>(
    db,
    sql`SELECT username, is_admin, banned_at FROM users WHERE id = ${report.target_id} FOR UPDATE`,
  );
  if (!member) return 'the account was already deleted';
  if (member.is_admin) throw conflict(`${member.username} is an admin. Remove their admin rights before banning them.`);
  if (member.banned_at) return `${member.username} was already banned`;
  await applyBan(db, report.target_id, `Reported profile: ${why}`, admin.user.id);
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
    const outcome = decision.action === 'remove' ? await removeTarget(database, admin, report, decision.note) : 'dismissed';
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
  return { closed: result.closed, outcome: result.outcome };
}
