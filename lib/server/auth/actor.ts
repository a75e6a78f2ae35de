import 'server-only';

import type { User } from '@/lib/db/schema';

import { ADMIN_REQUIRED_MESSAGE, BANNED_MESSAGE, forbidden, unauthorized } from '../errors';

/**
 * Who is calling, resolved from the database for this request: the first
 * argument of every service that needs to know. Services check it
 * themselves (requireMember, requireAdmin), so no page, route handler,
 * action, job or script can forget: a sealed token that no longer opens a
 * live session (logged out, password changed, banned) or an admin flag that
 * was taken away is simply not here.
 */
export type Actor = Visitor | Authenticated;

export interface Visitor {
  readonly kind: 'visitor';
  /** The request carried a genuine token of an account that is now banned: told 'Account is banned' rather than 'log in'. */
  readonly banned: boolean;
}

export interface Authenticated {
  readonly kind: 'member';
  readonly user: User;
  readonly sessionId: string;
  /** How the request proved who it is. */
  readonly via: 'bearer' | 'cookie';
  /** The sealed token itself. */
  readonly token: string;
  /** Whether the request also carried the session cookie. */
  readonly hasCookie: boolean;
}

export const VISITOR: Visitor = Object.freeze({ kind: 'visitor', banned: false });

/** A signed-in member who is not banned, else 401 (nobody) or 403 'Account is banned'. */
export function requireMember(actor: Actor): Authenticated {
  if (actor.kind === 'visitor') {
    // A ban revokes every token; its holder is told why (403), which the client answers by logging out (spec section 8).
    if (actor.banned) throw forbidden(BANNED_MESSAGE);
    throw unauthorized('Please log in to continue.');
  }
  if (actor.user.bannedAt) throw forbidden(BANNED_MESSAGE);
  return actor;
}

/** An admin (read from the database this request), else 401 / 403 with the spec's message / 403 banned. */
export function requireAdmin(actor: Actor): Authenticated {
  const member = requireMember(actor);
  if (!member.user.isAdmin) throw forbidden(ADMIN_REQUIRED_MESSAGE);
  return member;
}

/** The signed-in, unbanned member, or null for visitors (for services that answer everyone but personalise). */
export function memberOf(actor: Actor): User | null {
  return actor.kind === 'member' && !actor.user.bannedAt ? actor.user : null;
}

export function isAdmin(actor: Actor): boolean {
  return memberOf(actor)?.isAdmin === true;
}
