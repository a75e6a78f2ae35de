import 'server-only';

import { sql } from 'drizzle-orm';

import type { AuditEntryDto, AuditLogDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { adminAuditLog } from '@/lib/db/schema';

import { requireAdmin, type Actor, type Authenticated } from '../auth/actor';

/** What admins do, by name; the audit log's filter and labels use these. */
export const ADMIN_ACTIONS = [
  'video.approve',
  'video.reject',
  'video.edit',
  'video.edit_approve',
  'video.edit_reject',
  'video.delete',
  'member.ban',
  'member.unban',
  'member.vip_grant',
  'member.vip_revoke',
  'member.admin_grant',
  'member.admin_revoke',
  'member.resend_verification',
  'member.delete',
  'report.resolve',
  'report.dismiss',
  'consent_withdrawal.confirm',
  'consent_withdrawal.dismiss',
  'copyright.lawsuit',
  'task.create',
  'task.update',
  'task.delete',
  'appeal.uphold',
  'appeal.reverse',
  'verification.approve',
  'verification.reject',
  'document.view',
  'job.retry',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export interface AdminActionRecord {
  action: AdminAction;
  targetType: 'video' | 'member' | 'report' | 'comment' | 'task' | 'appeal' | 'verification' | 'document' | 'job';
  targetId: string;
  /** One readable line for the log, e.g. 'Banned alex: spam'. */
  summary: string;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit entry. Pass the transaction that makes the change, so an
 * action and its record are stored together or not at all.
 */
export async function recordAdminAction(
  db: Database,
  admin: Pick<Authenticated, 'user'>,
  record: AdminActionRecord,
): Promise<void> {
  await db.insert(adminAuditLog).values({
    adminId: admin.user.id,
    adminUsername: admin.user.username,
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    summary: record.summary,
    details: record.details ?? {},
  });
}

/** Where an entry's target is looked at in the panel. */
function linkOf(targetType: string, targetId: string): string | null {
  if (targetType === 'member') return `/admin/members/${targetId}`;
  if (targetType === 'video') return `/video/${encodeURIComponent(targetId)}`;
  if (targetType === 'report') return '/admin/reports';
  if (targetType === 'task') return '/admin/tasks';
  if (targetType === 'appeal') return '/admin/appeals';
  if (targetType === 'verification') return `/admin/verifications/${targetId}`;
  if (targetType === 'job') return '/admin/jobs';
  return null;
}

/** The audit log, newest first; narrowed by action, admin or target. */
export async function listAuditLog(
  actor: Actor,
  query: {
    action?: string;
    adminId?: string;
    targetType?: string;
    targetId?: string;
    page: number;
    limit: number;
  },
): Promise<AuditLogDto> {
  requireAdmin(actor);
  const db = await getDb();
  const conditions = [
    query.action ? sql`action = ${query.action}` : null,
    query.adminId ? sql`admin_id = ${query.adminId}` : null,
    query.targetType ? sql`target_type = ${query.targetType}` : null,
    query.targetId ? sql`target_id = ${query.targetId}` : null,
  ].filter((condition) => condition !== null);
  const where = conditions.length ? sql.join(conditions, sql` AND `) : sql`TRUE`;
  const rows = await queryRows<{
    id: string;
    admin_id: string | null;
    admin_username: string;
    action: string;
    target_type: string;
    target_id: string;
    summary: string;
    details: Record<string, unknown>;
    created_at: Date | string;
  }>(
    db,
    sql`SELECT id, admin_id, admin_username, action, target_type, target_id, summary, details, created_at
        FROM admin_audit_log WHERE ${where}
        ORDER BY created_at DESC, id DESC
        LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  const entries: AuditEntryDto[] = rows.slice(0, query.limit).map((row) => ({
    _id: row.id,
    admin: { _id: row.admin_id, username: row.admin_username },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    summary: row.summary,
    details: row.details,
    link: linkOf(row.target_type, row.target_id),
    createdAt: new Date(row.created_at).toISOString(),
  }));
  return { entries, pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit } };
}
