import 'server-only';

import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { cookies } from 'next/headers';
import type { NextResponse } from 'next/server';
import { cache } from 'react';

import { getConfig } from '@/lib/config/server';
import { getDb, type Database } from '@/lib/db';
import { sessions, users, type User } from '@/lib/db/schema';
import { noteMember } from '@/lib/server/log';
import { STORAGE_KEYS } from '@/lib/storage-keys';

import { hasAdminRole, VISITOR, type Actor } from './actor';
import { sealToken, SESSION_TTL_SECONDS, unsealToken } from './tokens';

/**
 * The cookie half of a session carries the same sealed token the API accepts
 * as a bearer token: HttpOnly (scripts cannot read it), SameSite=Lax, Secure
 * when the site runs on https.
 */
export function setSessionCookie(response: NextResponse, token: string): void {
  response.cookies.set(STORAGE_KEYS.sessionCookie, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: getConfig().siteUrl.startsWith('https://'),
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function clearSessionCookie(response: NextResponse): void {
  response.cookies.set(STORAGE_KEYS.sessionCookie, '', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 0 });
}

/** Starts a session for a user: a row and the sealed token naming it (the caller sets the cookie). */
export async function startSession(
  user: Pick<User, 'id' | 'tokenVersion' | 'isAdmin'>,
  db?: Database,
  { secondFactor = false }: { secondFactor?: boolean } = {},
): Promise<{ token: string; sessionId: string }> {
  const database = db ?? (await getDb());
  const [row] = await database
    .insert(sessions)
    .values({
      userId: user.id,
      tokenVersion: user.tokenVersion,
      expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      // Recorded per session, so admin endpoints can refuse a token from a password-only login (decision 018).
      secondFactorAt: secondFactor ? new Date() : null,
    })
    .returning({ id: sessions.id });
  const token = await sealToken({ sid: row!.id, uid: user.id, ver: user.tokenVersion, adm: hasAdminRole(user) });
  return { token, sessionId: row!.id };
}

/** The sealed token a request carries: `Authorization: Bearer` first, then the session cookie. */
function tokenOf(request: Request): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = request.headers.get('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return match ? { token: match[1]!, via: 'bearer' } : { token: '', via: 'bearer' };
  }
  const cookie = cookieValue(request, STORAGE_KEYS.sessionCookie);
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

function cookieValue(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** Who is calling: a member with a live session (read from the database now), or a visitor. */
export async function resolveActor(request: Request): Promise<Actor> {
  const carried = tokenOf(request);
  if (!carried) return VISITOR;
  return resolveToken(carried.token, carried.via, cookieValue(request, STORAGE_KEYS.sessionCookie) !== undefined);
}

/**
 * A token is valid while its session row exists, is not revoked or expired,
 * and the user's token version still matches. A genuine token of a banned
 * account resolves to a visitor marked banned, so services can say why.
 */
export async function resolveToken(token: string, via: 'bearer' | 'cookie', hasCookie: boolean): Promise<Actor> {
  const claims = await unsealToken(token);
  if (!claims) return VISITOR;
  const db = await getDb();
  const [row] = await db
    .select({ user: users, secondFactorAt: sessions.secondFactorAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, claims.sid),
        eq(sessions.userId, claims.uid),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.tokenVersion, claims.ver),
      ),
    )
    .limit(1);
  if (row) {
    // The request's log line names the member (lib/server/log; never sent to the client).
    noteMember(row.user.id);
    return {
      kind: 'member',
      user: row.user,
      sessionId: claims.sid,
      via,
      token,
      hasCookie,
      secondFactor: row.secondFactorAt !== null,
    };
  }
  const [owner] = await db.select({ bannedAt: users.bannedAt }).from(users).where(eq(users.id, claims.uid)).limit(1);
  return owner?.bannedAt ? { kind: 'visitor', banned: true } : VISITOR;
}

/**
 * A session cookie is believed for a write only when the write comes from our
 * own origin (CSRF defence on top of SameSite=Lax); from anywhere else the
 * caller is a visitor, and services that need a member say why they refuse.
 * Bearer tokens are not sent by browsers on their own, so they need no check.
 * A visitor's writes (login, sign-up, reports) go on as a visitor's.
 */
export function distrustCrossSiteCookie(request: Request, actor: Actor): Actor {
  if (actor.kind !== 'member' || actor.via !== 'cookie') return actor;
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method) || isSameOrigin(request)) return actor;
  return { kind: 'visitor', banned: false, crossSite: true };
}

export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (!origin) return request.headers.get('sec-fetch-site') === 'same-origin';
  const allowed = new Set([getConfig().siteUrl, new URL(request.url).origin]);
  return allowed.has(origin);
}

export async function revokeSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(eq(sessions.id, sessionId));
}

/** Ends every session of a user except one (after a password change). */
export async function revokeOtherSessions(userId: string, keepSessionId: string, db?: Database): Promise<void> {
  const database = db ?? (await getDb());
  await database
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)));
}

/**
 * The caller of a server-rendered page, from its session cookie, memoised per
 * request so layout, metadata and page share one lookup. Pages that call it
 * render per request and are never cached.
 */
export const pageActor = cache(async (): Promise<Actor> => {
  const token = (await cookies()).get(STORAGE_KEYS.sessionCookie)?.value;
  return token ? resolveToken(token, 'cookie', true) : VISITOR;
});
