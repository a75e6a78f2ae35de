import 'server-only';

import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { NextRequest, NextResponse } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { getDb, type Database } from '@/lib/db';
import { sessions, users, type User } from '@/lib/db/schema';
import { STORAGE_KEYS } from '@/lib/storage-keys';

import { ADMIN_REQUIRED_MESSAGE, BANNED_MESSAGE, forbidden, unauthorized } from '../errors';

import { sealToken, SESSION_TTL_SECONDS, unsealToken, type SessionClaims } from './tokens';

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
export async function startSession(user: Pick<User, 'id' | 'tokenVersion' | 'isAdmin'>, db?: Database): Promise<{ token: string; sessionId: string }> {
  const database = db ?? (await getDb());
  const [row] = await database
    .insert(sessions)
    .values({ userId: user.id, tokenVersion: user.tokenVersion, expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000) })
    .returning({ id: sessions.id });
  const token = await sealToken({ sid: row!.id, uid: user.id, ver: user.tokenVersion, adm: user.isAdmin });
  return { token, sessionId: row!.id };
}

export interface Authenticated {
  user: User;
  sessionId: string;
  /** How the request proved who it is; cookie-authenticated mutations need a same-origin check. */
  via: 'bearer' | 'cookie';
  /** The sealed token itself. */
  token: string;
  /** Whether the request also carried the session cookie. */
  hasCookie: boolean;
}

/** The sealed token a request carries: `Authorization: Bearer` first, then the session cookie. */
function tokenOf(request: NextRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const header = request.headers.get('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return match ? { token: match[1]!, via: 'bearer' } : { token: '', via: 'bearer' };
  }
  const cookie = request.cookies.get(STORAGE_KEYS.sessionCookie)?.value;
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

/**
 * Who is calling, or null. A token is valid while its session row exists,
 * is not revoked or expired, and the user's token version still matches.
 */
export async function findSession(request: NextRequest): Promise<Authenticated | null> {
  const carried = tokenOf(request);
  if (!carried) return null;
  const claims = await unsealToken(carried.token);
  if (!claims) return null;
  const found = await resolveClaims(claims);
  return found && { ...found, via: carried.via, token: carried.token, hasCookie: request.cookies.has(STORAGE_KEYS.sessionCookie) };
}

async function resolveClaims(claims: SessionClaims): Promise<Pick<Authenticated, 'user' | 'sessionId'> | null> {
  const db = await getDb();
  const [row] = await db
    .select({ user: users })
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
  return row ? { user: row.user, sessionId: claims.sid } : null;
}

/**
 * The calling member, or a 401; a banned member gets 403 'Account is banned'.
 * Cookie-authenticated writes must come from our own origin (CSRF defence on
 * top of SameSite=Lax); bearer tokens are not sent by browsers on their own.
 */
export async function requireUser(request: NextRequest): Promise<Authenticated> {
  const auth = await findSession(request);
  if (!auth) {
    // A ban revokes every token; its holder is told why (403), which the client answers by logging out (spec section 8).
    if (await carriesBannedToken(request)) throw forbidden(BANNED_MESSAGE);
    throw unauthorized('Please log in to continue.');
  }
  if (auth.user.bannedAt) throw forbidden(BANNED_MESSAGE);
  if (auth.via === 'cookie' && !['GET', 'HEAD', 'OPTIONS'].includes(request.method) && !isSameOrigin(request)) {
    throw forbidden('This request did not come from this site.');
  }
  return auth;
}

/** Whether a token that no longer opens a session was sealed for an account that is now banned. */
async function carriesBannedToken(request: NextRequest): Promise<boolean> {
  const carried = tokenOf(request);
  const claims = carried?.token ? await unsealToken(carried.token) : null;
  if (!claims) return false;
  const db = await getDb();
  const [row] = await db.select({ bannedAt: users.bannedAt }).from(users).where(eq(users.id, claims.uid)).limit(1);
  return Boolean(row?.bannedAt);
}

/** An admin, or 401 (anonymous) / 403 with the spec's message (members) / 403 'Account is banned'. */
export async function requireAdmin(request: NextRequest): Promise<Authenticated> {
  const auth = await requireUser(request);
  if (!auth.user.isAdmin) throw forbidden(ADMIN_REQUIRED_MESSAGE);
  return auth;
}

export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (!origin) return request.headers.get('sec-fetch-site') === 'same-origin';
  const allowed = new Set([getConfig().siteUrl, new URL(request.url).origin]);
  return allowed.has(origin);
}

export async function revokeSession(sessionId: string): Promise<void> {
  const db = await getDb();
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user except one (after a password change). */
export async function revokeOtherSessions(userId: string, keepSessionId: string, db?: Database): Promise<void> {
  const database = db ?? (await getDb());
  await database
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), isNull(sessions.revokedAt)));
}
