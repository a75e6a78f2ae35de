import 'server-only';

import type { User } from '@/lib/db/schema';

import { ADMIN_REQUIRED_MESSAGE, ApiError, BANNED_MESSAGE, forbidden, unauthorized } from '../errors';

export const CROSS_SITE_MESSAGE = 'This request did not come from this site.';

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
  /** A write from another site carried a session cookie, which is not believed for it (CSRF): told so rather than 'log in'. */
  readonly crossSite?: true;
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
  /** Whether the login that started this session passed the second factor (sessions.second_factor_at). */
  readonly secondFactor: boolean;
}

export const VISITOR: Visitor = Object.freeze({ kind: 'visitor', banned: false });

/** A signed-in member who is not banned, else 401 (nobody) or 403 'Account is banned'. */
export function requireMember(actor: Actor): Authenticated {
  if (actor.kind === 'visitor') {
    // A ban revokes every token; its holder is told why (403), which the client answers by logging out (spec section 8).
    if (actor.banned) throw forbidden(BANNED_MESSAGE);
    if (actor.crossSite) throw forbidden(CROSS_SITE_MESSAGE);
    throw unauthorized('Please log in to continue.');
  }
  if (actor.user.bannedAt) throw forbidden(BANNED_MESSAGE);
  return actor;
}

export const TWO_FACTOR_ENROL_MESSAGE =
  'Admins must use two-factor authentication. Turn it on in Settings under Security, then log in again with a code.';
export const TWO_FACTOR_LOGIN_MESSAGE =
  'This session was started without your two-factor code. Log out and log in again with a code to use admin tools.';

/**
 * Whether an account holds the admin role: what it owes (two-factor on, not
 * the last admin to leave) and what the UI shows. It grants nothing: admin
 * power is isAdmin(actor) or requireAdmin(actor), which also ask for a
 * session that passed the second factor. The one place outside this file
 * that reads the flag off a user row (eslint.config.mjs refuses the others).
 */
export function hasAdminRole(user: Pick<User, 'isAdmin'>): boolean {
  return user.isAdmin;
}

/**
 * What an admin still lacks before admin tools answer (decision 018): a
 * second factor enrolled, then a session whose login passed it. A bearer
 * token from a password-only login, or from before enrolment, stays a
 * member's token.
 */
export function adminTwoFactorGap(member: Authenticated): 'enrol' | 'login' | null {
  if (!member.user.twoFactorEnabledAt) return 'enrol';
  if (!member.secondFactor) return 'login';
  return null;
}

/**
 * An admin (read from the database this request) with two-factor passed,
 * else 401 / 403 with the spec's message / 403 banned / 403 with
 * `twoFactorRequired` and what to do.
 */
export function requireAdmin(actor: Actor): Authenticated {
  const member = requireMember(actor);
  if (!hasAdminRole(member.user)) throw forbidden(ADMIN_REQUIRED_MESSAGE);
  const gap = adminTwoFactorGap(member);
  if (gap)
    throw new ApiError(403, gap === 'enrol' ? TWO_FACTOR_ENROL_MESSAGE : TWO_FACTOR_LOGIN_MESSAGE, {
      twoFactorRequired: true,
      twoFactor: gap,
    });
  return member;
}

/** Whether the caller may use admin powers now: an unbanned admin whose session passed the second factor. The one answer to "may they act as an admin". */
export function isAdmin(actor: Actor): boolean {
  return actor.kind === 'member' && !actor.user.bannedAt && hasAdminRole(actor.user) && adminTwoFactorGap(actor) === null;
}

/** For an unbanned admin whose session cannot use admin tools yet, what it lacks; null for everyone else (pages that send them to Settings). */
export function adminPowerGap(actor: Actor): 'enrol' | 'login' | null {
  return actor.kind === 'member' && !actor.user.bannedAt && hasAdminRole(actor.user) ? adminTwoFactorGap(actor) : null;
}

/**
 * The signed-in, unbanned member, or null for visitors (for services that
 * answer everyone but personalise). What the member may do as an admin is
 * isAdmin(actor), never a field of this row.
 */
export function memberOf(actor: Actor): User | null {
  return actor.kind !== 'member' || actor.user.bannedAt ? null : actor.user;
}
