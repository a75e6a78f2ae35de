import 'server-only';

import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';

import { getDb, queryRows, type Database } from '@/lib/db';
import { entitlements, paymentEvents } from '@/lib/db/schema';

import { recordAdminAction } from '../admin/audit';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';

/**
 * Recomputes users.vip_until from the member's entitlements: the latest end
 * among those still granting VIP (active, or cancelled but paid up). Call it
 * in the transaction that changed an entitlement.
 */
export async function syncVipUntil(db: Database, userId: string): Promise<Date | null> {
  const [row] = await queryRows<{ vip_until: Date | string | null }>(
    db,
    sql`UPDATE users SET vip_until = (
          SELECT max(period_end) FROM entitlements WHERE user_id = ${userId} AND status IN ('active', 'cancelled')
        ), updated_at = now()
        WHERE id = ${userId}
        RETURNING vip_until`,
  );
  if (!row) throw new ApiError(404, 'Member not found');
  return row.vip_until === null ? null : new Date(row.vip_until);
}

async function findMember(
  db: Database,
  userId: string,
): Promise<{ id: string; username: string; vip_until: Date | string | null }> {
  const [member] = await queryRows<{ id: string; username: string; vip_until: Date | string | null }>(
    db,
    sql`SELECT id, username, vip_until FROM users WHERE id = ${userId} FOR UPDATE`,
  );
  if (!member) throw new ApiError(404, 'Member not found');
  return member;
}

export const MAX_MANUAL_VIP_DAYS = 3650;

/**
 * An admin gives a member VIP for a number of days, on top of any VIP they
 * already have (the new period starts when the current one ends). Logged as
 * a payment event of the manual processor and in the audit log.
 */
export async function grantManualVip(
  actor: Actor,
  userId: string,
  grant: { days: number; note?: string },
): Promise<{ vipUntil: string }> {
  const admin = requireAdmin(actor);
  if (!Number.isInteger(grant.days) || grant.days < 1 || grant.days > MAX_MANUAL_VIP_DAYS) {
    throw badRequest(`Days must be a whole number from 1 to ${MAX_MANUAL_VIP_DAYS}.`, { field: 'days' });
  }
  const db = await getDb();
  return db.transaction(async (database) => {
    const member = await findMember(database, userId);
    const id = randomUUID();
    await database.insert(entitlements).values({
      id,
      userId,
      source: 'manual',
      status: 'active',
      periodEnd: sql`greatest(now(), coalesce(${member.vip_until}::timestamptz, now())) + make_interval(days => ${grant.days})`,
      grantedBy: admin.user.id,
      note: grant.note ?? null,
    });
    const vipUntil = await syncVipUntil(database, userId);
    await database.insert(paymentEvents).values({
      processor: 'manual',
      dedupeKey: `manual:grant:${id}`,
      event: 'grant',
      userId,
      entitlementId: id,
      outcome: 'applied',
      detail: `${grant.days} days granted by ${admin.user.username}${grant.note ? `: ${grant.note}` : ''}`,
    });
    await recordAdminAction(database, admin, {
      action: 'member.vip_grant',
      targetType: 'member',
      targetId: userId,
      summary: `Granted ${member.username} ${grant.days} day${grant.days === 1 ? '' : 's'} of VIP${grant.note ? `: ${grant.note}` : ''}`,
      details: { days: grant.days, note: grant.note ?? null, entitlementId: id, vipUntil: vipUntil?.toISOString() ?? null },
    });
    return { vipUntil: vipUntil!.toISOString() };
  });
}

/**
 * An admin ends a member's VIP now: every entitlement still granting it is
 * revoked. A processor subscription keeps billing until it is cancelled at
 * the processor too; the note says so.
 */
export async function revokeVip(actor: Actor, userId: string, revoke: { note?: string } = {}): Promise<{ revoked: number }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  return db.transaction(async (database) => {
    const member = await findMember(database, userId);
    const ended = await queryRows<{ id: string; source: string }>(
      database,
      sql`UPDATE entitlements SET status = 'revoked', ended_at = now(), updated_at = now()
          WHERE user_id = ${userId} AND status IN ('active', 'cancelled')
          RETURNING id, source`,
    );
    if (ended.length === 0) throw new ApiError(409, `${member.username} does not have VIP.`);
    await syncVipUntil(database, userId);
    for (const entitlement of ended) {
      await database.insert(paymentEvents).values({
        processor: 'manual',
        dedupeKey: `manual:revoke:${entitlement.id}`,
        event: 'revoke',
        userId,
        entitlementId: entitlement.id,
        outcome: 'applied',
        detail: `Revoked by ${admin.user.username}${revoke.note ? `: ${revoke.note}` : ''}`,
      });
    }
    await recordAdminAction(database, admin, {
      action: 'member.vip_revoke',
      targetType: 'member',
      targetId: userId,
      summary: `Revoked ${member.username}’s VIP${revoke.note ? `: ${revoke.note}` : ''}`,
      details: { note: revoke.note ?? null, entitlements: ended.map((e) => e.id), sources: ended.map((e) => e.source) },
    });
    return { revoked: ended.length };
  });
}
