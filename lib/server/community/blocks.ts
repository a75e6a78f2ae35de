import 'server-only';

import { and, asc, desc, eq, or, sql } from 'drizzle-orm';

import type { BlockDto } from '@/lib/api-types';
import { getDb, type Database } from '@/lib/db';
import { blocks, follows, users } from '@/lib/db/schema';

import { requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';

/** Whether `blockerId` has blocked `blockedId` (one direction). */
export async function hasBlocked(db: Database, blockerId: string, blockedId: string): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .limit(1);
  return Boolean(row);
}

/** Whether either member has blocked the other. */
export async function eitherBlocked(db: Database, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(or(and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)), and(eq(blocks.blockerId, b), eq(blocks.blockedId, a))))
    .limit(1);
  return Boolean(row);
}

// ---------- Blocking and unblocking (the API) ----------

/** A member by username, case-insensitively; null for a name that cannot exist or does not. */
async function memberNamed(db: Database, username: string): Promise<{ id: string; username: string } | null> {
  if (!/^[A-Za-z0-9_.-]{1,30}$/.test(username)) return null;
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

async function blockTarget(db: Database, blockerId: string, username: string): Promise<{ id: string; username: string }> {
  const target = await memberNamed(db, username);
  if (!target) throw new ApiError(404, 'Member not found');
  if (target.id === blockerId) throw badRequest('You cannot block yourself.');
  return target;
}

/**
 * The caller blocks the member named `username`. Idempotent: blocking
 * again keeps the first block. In the same transaction the blocked member
 * stops following the blocker ("blocking a member stops them following
 * you"); the follow and comment services refuse new ones with hasBlocked().
 */
export async function blockMember(actor: Actor, username: string): Promise<{ block: BlockDto; created: boolean }> {
  const blockerId = requireMember(actor).user.id;
  const db = await getDb();
  const target = await blockTarget(db, blockerId, username);
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(blocks)
      .values({ blockerId, blockedId: target.id })
      .onConflictDoNothing({ target: [blocks.blockerId, blocks.blockedId] })
      .returning({ createdAt: blocks.createdAt });
    await tx.delete(follows).where(and(eq(follows.followerId, target.id), eq(follows.followeeId, blockerId)));
    const createdAt =
      inserted?.createdAt ??
      (
        await tx
          .select({ createdAt: blocks.createdAt })
          .from(blocks)
          .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, target.id)))
      )[0]!.createdAt;
    return {
      block: { _id: target.id, username: target.username, createdAt: createdAt.toISOString() },
      created: Boolean(inserted),
    };
  });
}

/** Lifts the caller's block; idempotent (unblocking someone not blocked is fine). Follows removed by the block stay removed. */
export async function unblockMember(actor: Actor, username: string): Promise<{ removed: boolean; username: string }> {
  const blockerId = requireMember(actor).user.id;
  const db = await getDb();
  const target = await blockTarget(db, blockerId, username);
  const removed = await db
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, target.id)))
    .returning({ blockedId: blocks.blockedId });
  return { removed: removed.length > 0, username: target.username };
}

/** The members the caller has blocked, most recent first. */
export async function listBlocks(actor: Actor): Promise<BlockDto[]> {
  const blockerId = requireMember(actor).user.id;
  const db = await getDb();
  const rows = await db
    .select({ id: users.id, username: users.username, createdAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt), asc(users.username));
  return rows.map((row) => ({ _id: row.id, username: row.username, createdAt: row.createdAt.toISOString() }));
}
