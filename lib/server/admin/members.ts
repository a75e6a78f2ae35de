import 'server-only';

import { sql } from 'drizzle-orm';

import type { AdminMemberDetailDto, AdminMemberDto, AdminMemberListDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import type { DecisionGround } from '@/lib/trust/grounds';
import type { MemberFilter } from '@/lib/validation/admin';

import { sendVerificationLink } from '../accounts/verification';
import { requireAdmin, type Actor } from '../auth/actor';
import { notify } from '../notifications';
import { ApiError, badRequest, conflict } from '../errors';
import { recordDecision } from '../trust/decisions';
import { queueDecisionEmail } from '../trust/statements';

import { listAuditLog, recordAdminAction } from './audit';

interface MemberRow {
  id: string;
  username: string;
  email: string;
  email_verified_at: Date | string | null;
  is_admin: boolean;
  vip_until: Date | string | null;
  banned_at: Date | string | null;
  ban_reason: string | null;
  created_at: Date | string;
  tasks: number;
  videos: number | string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toMemberDto(row: MemberRow, now = Date.now()): AdminMemberDto {
  const vipUntil = iso(row.vip_until);
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    isAdmin: row.is_admin,
    isVIP: vipUntil !== null && Date.parse(vipUntil) > now,
    vipUntil,
    banned: row.banned_at !== null,
    bannedAt: iso(row.banned_at),
    banReason: row.ban_reason,
    createdAt: iso(row.created_at)!,
    tasks: Number(row.tasks),
    videos: Number(row.videos),
  };
}

const MEMBER_COLUMNS = sql`u.id, u.username, u.email, u.email_verified_at, u.is_admin, u.vip_until, u.banned_at, u.ban_reason, u.created_at, u.tasks,
  (SELECT count(*) FROM videos v WHERE v.owner_id = u.id) AS videos`;

const FILTERS: Record<MemberFilter, ReturnType<typeof sql>> = {
  all: sql`TRUE`,
  banned: sql`u.banned_at IS NOT NULL`,
  admins: sql`u.is_admin`,
  vip: sql`u.vip_until > now()`,
  unverified: sql`u.email_verified_at IS NULL`,
};

/** LIKE pattern for "contains", with the visitor's % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Members for the admin list: newest first, optionally matching a name or email and a filter. */
export async function listMembers(
  actor: Actor,
  query: { q: string; filter: MemberFilter; page: number; limit: number },
): Promise<AdminMemberListDto> {
  requireAdmin(actor);
  const db = await getDb();
  const match = query.q
    ? sql`(lower(u.username) LIKE ${containsPattern(query.q)} OR lower(u.email) LIKE ${containsPattern(query.q)})`
    : sql`TRUE`;
  const rows = await queryRows<MemberRow>(
    db,
    sql`SELECT ${MEMBER_COLUMNS} FROM users u
        WHERE ${match} AND ${FILTERS[query.filter]}
        ORDER BY u.created_at DESC, u.id DESC
        LIMIT ${query.limit + 1} OFFSET ${(query.page - 1) * query.limit}`,
  );
  return {
    members: rows.slice(0, query.limit).map((row) => toMemberDto(row)),
    pagination: { page: query.page, limit: query.limit, hasMore: rows.length > query.limit },
  };
}

async function memberRow(db: Database, id: string, lock = false): Promise<MemberRow> {
  const [row] = await queryRows<MemberRow>(
    db,
    sql`SELECT ${MEMBER_COLUMNS} FROM users u WHERE u.id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row) throw new ApiError(404, 'Member not found');
  return row;
}

/** One member as admins see them: account, counts, VIP history and what admins have done to the account. */
export async function getMemberDetail(actor: Actor, id: string): Promise<AdminMemberDetailDto> {
  requireAdmin(actor);
  const db = await getDb();
  const row = await memberRow(db, id);
  const [counts] = await queryRows<Record<string, number | string>>(
    db,
    sql`SELECT
          (SELECT count(*) FROM follows WHERE followee_id = ${id}) AS followers,
          (SELECT count(*) FROM follows WHERE follower_id = ${id}) AS following,
          (SELECT count(*) FROM comments WHERE author_id = ${id}) AS comments,
          (SELECT count(*) FROM videos WHERE owner_id = ${id} AND moderation_status = 'pending') AS pending,
          (SELECT count(*) FROM videos WHERE owner_id = ${id} AND moderation_status = 'approved') AS approved,
          (SELECT count(*) FROM videos WHERE owner_id = ${id} AND moderation_status = 'rejected') AS rejected,
          (SELECT count(*) FROM reports WHERE status = 'open' AND target_type = 'profile' AND target_id = ${id}) AS open_reports,
          (SELECT username FROM users b WHERE b.id = (SELECT banned_by FROM users WHERE id = ${id})) AS banned_by`,
  );
  const entitlements = await queryRows<{
    id: string;
    source: string;
    plan_id: string | null;
    status: string;
    period_end: Date | string;
    created_at: Date | string;
    note: string | null;
  }>(
    db,
    sql`SELECT id, source, plan_id, status, period_end, created_at, note FROM entitlements WHERE user_id = ${id} ORDER BY created_at DESC LIMIT 20`,
  );
  const history = await listAuditLog(actor, { targetType: 'member', targetId: id, page: 1, limit: 20 });
  return {
    ...toMemberDto(row),
    bannedBy: (counts!.banned_by as string | null) ?? null,
    counts: {
      followers: Number(counts!.followers),
      following: Number(counts!.following),
      comments: Number(counts!.comments),
      videosPending: Number(counts!.pending),
      videosApproved: Number(counts!.approved),
      videosRejected: Number(counts!.rejected),
      openReports: Number(counts!.open_reports),
    },
    entitlements: entitlements.map((e) => ({
      _id: e.id,
      source: e.source,
      planId: e.plan_id,
      status: e.status,
      periodEnd: iso(e.period_end)!,
      createdAt: iso(e.created_at)!,
      note: e.note,
    })),
    history: history.entries,
  };
}

/**
 * The ban itself, in the caller's transaction: the token version moves on and
 * sessions are revoked (every token stops working), and the member's videos
 * leave the public lists. The caller purges the public page cache afterwards.
 */
export async function applyBan(db: Database, id: string, reason: string, adminId: string): Promise<void> {
  await queryRows(
    db,
    sql`UPDATE users SET banned_at = now(), ban_reason = ${reason}, banned_by = ${adminId}, token_version = token_version + 1, updated_at = now() WHERE id = ${id}`,
  );
  await queryRows(db, sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${id} AND revoked_at IS NULL`);
  await queryRows(db, sql`UPDATE videos SET owner_banned = true, updated_at = now() WHERE owner_id = ${id}`);
}

/**
 * Bans a member: every session and token stops working (the token version
 * moves on, so the member's open browsers get 403 'Account is banned' on
 * their next call and log out), and their videos leave every public list.
 * Admins cannot ban themselves or another admin (remove the rights first).
 */
export async function banMember(
  actor: Actor,
  id: string,
  reason: string,
  ground: DecisionGround = 'standards-behaviour',
): Promise<AdminMemberDto> {
  const admin = requireAdmin(actor);
  if (id === admin.user.id) throw badRequest('You cannot ban yourself.');
  const db = await getDb();
  const member = await db.transaction(async (database) => {
    const row = await memberRow(database, id, true);
    if (row.is_admin) throw conflict(`${row.username} is an admin. Remove their admin rights before banning them.`);
    if (row.banned_at) throw conflict(`${row.username} is already banned.`);
    await applyBan(database, id, reason, admin.user.id);
    // The statement of reasons goes by email (a banned member cannot log in), with a signed link to read and appeal it.
    const statement = await recordDecision(database, {
      subjectUserId: id,
      targetType: 'account',
      targetId: id,
      targetLabel: row.username,
      action: 'account_banned',
      ground,
      explanation: reason,
      automated: false,
      source: 'moderation',
      decidedBy: admin.user.id,
    });
    await queueDecisionEmail(database, statement.id, 'statement');
    await recordAdminAction(database, admin, {
      action: 'member.ban',
      targetType: 'member',
      targetId: id,
      summary: `Banned ${row.username}: ${reason}`,
      details: { reason, ground, decisionId: statement.id },
    });
    return memberRow(database, id);
  });
  purgePublicPages();
  wakeWorkers();
  return toMemberDto(member);
}

/**
 * Lifting a ban, in the caller's transaction: the member can log in again
 * and their approved videos are public again (an admin's unban, or an appeal
 * that reverses the ban). The caller purges the public page cache afterwards.
 */
export async function liftBan(db: Database, id: string): Promise<void> {
  await queryRows(
    db,
    sql`UPDATE users SET banned_at = NULL, ban_reason = NULL, banned_by = NULL, updated_at = now() WHERE id = ${id}`,
  );
  await queryRows(db, sql`UPDATE videos SET owner_banned = false, updated_at = now() WHERE owner_id = ${id}`);
}

/** Lifts a ban: the member can log in again and their approved videos are public again. */
export async function unbanMember(actor: Actor, id: string, note: string | undefined): Promise<AdminMemberDto> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const member = await db.transaction(async (database) => {
    const row = await memberRow(database, id, true);
    if (!row.banned_at) throw conflict(`${row.username} is not banned.`);
    await liftBan(database, id);
    await recordAdminAction(database, admin, {
      action: 'member.unban',
      targetType: 'member',
      targetId: id,
      summary: `Lifted the ban on ${row.username}${note ? `: ${note}` : ''}`,
      details: { note: note ?? null, previousReason: row.ban_reason },
    });
    return memberRow(database, id);
  });
  purgePublicPages();
  return toMemberDto(member);
}

/**
 * Grants or removes admin rights. Role changes take a transaction-wide
 * advisory lock, so two admins demoting each other at once cannot leave the
 * site with none: the last admin (not banned) cannot be demoted.
 */
export async function setAdmin(actor: Actor, id: string, makeAdmin: boolean): Promise<AdminMemberDto> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const member = await db.transaction(async (database) => {
    await queryRows(database, sql`SELECT pg_advisory_xact_lock(hashtext('chrysalis:admin-roles'))`);
    const row = await memberRow(database, id, true);
    if (row.is_admin === makeAdmin) throw conflict(`${row.username} ${makeAdmin ? 'is already an admin' : 'is not an admin'}.`);
    if (makeAdmin && row.banned_at) throw conflict(`${row.username} is banned. Lift the ban before making them an admin.`);
    if (makeAdmin && row.email_verified_at === null) throw conflict(`${row.username} has not verified their email address yet.`);
    if (!makeAdmin) {
      const [admins] = await queryRows<{ n: number | string }>(
        database,
        sql`SELECT count(*) AS n FROM users WHERE is_admin AND banned_at IS NULL`,
      );
      if (Number(admins!.n) <= 1) throw conflict('This is the last admin. Make someone else an admin first.');
    }
    await queryRows(database, sql`UPDATE users SET is_admin = ${makeAdmin}, updated_at = now() WHERE id = ${id}`);
    await recordAdminAction(database, admin, {
      action: makeAdmin ? 'member.admin_grant' : 'member.admin_revoke',
      targetType: 'member',
      targetId: id,
      summary: makeAdmin
        ? `Made ${row.username} an admin`
        : `Removed ${row.username}’s admin rights${id === admin.user.id ? ' (their own)' : ''}`,
    });
    // Admin tools answer only after two-factor (decision 018): the new admin is told where to turn it on.
    if (makeAdmin) {
      await notify(database, {
        recipientId: id,
        type: 'site_notice',
        link: '/settings/security',
        message:
          'You are now an admin. Turn on two-factor authentication in Settings under Security, then log in again with a code to use admin tools.',
      });
    }
    return memberRow(database, id);
  });
  return toMemberDto(member);
}

/** Sends a new verification link to a member who has not verified their address (support asks for this). */
export async function resendVerificationFor(actor: Actor, id: string): Promise<{ message: string }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const row = await memberRow(db, id);
  if (row.email_verified_at !== null) throw conflict(`${row.username} has already verified their email address.`);
  const sent = await sendVerificationLink({ id: row.id, username: row.username }, row.email, 'verify_email');
  if (!sent) throw new ApiError(503, 'The verification email could not be sent. Check the mail settings and try again.');
  await recordAdminAction(db, admin, {
    action: 'member.resend_verification',
    targetType: 'member',
    targetId: id,
    summary: `Sent ${row.username} a new verification email`,
  });
  return { message: `A new verification email is on its way to ${row.email}.` };
}
