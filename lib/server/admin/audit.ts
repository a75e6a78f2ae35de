import 'server-only';

import { adminAuditLog } from '@/lib/db/schema';
import type { Database } from '@/lib/db';

import type { Authenticated } from '../auth/session';

/** What admins do, by name; the audit log's filter and labels use these. */
export const ADMIN_ACTIONS = [
  'video.approve',
  'video.reject',
  'member.ban',
  'member.unban',
  'member.vip_grant',
  'member.vip_revoke',
  'member.admin_grant',
  'member.admin_revoke',
  'member.resend_verification',
  'report.resolve',
  'report.dismiss',
  'task.create',
  'task.update',
  'task.delete',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export interface AdminActionRecord {
  action: AdminAction;
  targetType: 'video' | 'member' | 'report' | 'comment' | 'task';
  targetId: string;
  /** One readable line for the log, e.g. 'Banned alex: spam'. */
  summary: string;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit entry. Pass the transaction that makes the change, so an
 * action and its record are stored together or not at all.
 */
export async function recordAdminAction(db: Database, admin: Pick<Authenticated, 'user'>, record: AdminActionRecord): Promise<void> {
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
