import 'server-only';

import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';

import { getDb, type Executor } from '@/lib/db';
import { twoFactorRecoveryCodes, users, type User } from '@/lib/db/schema';
import { addressNetwork } from '@/lib/front/resolve-client-address';
import type { DisableTwoFactorInput, TotpCodeInput, TwoFactorLoginInput, TwoFactorSetupInput } from '@/lib/validation/two-factor';

import { adminPowerGap, hasAdminRole, requireMember, type Actor } from '../auth/actor';
import { startSession } from '../auth/session';
import {
  hashRecoveryCode,
  matchingStep,
  newRecoveryCodes,
  newTotpSecret,
  openChallenge,
  openSecret,
  passwordFingerprint,
  qrPath,
  sealChallenge,
  sealSecret,
  totpUri,
} from '../auth/two-factor-codes';
import { ApiError, BANNED_MESSAGE, badRequest, conflict, forbidden } from '../errors';
import { consume, giveBack, reset } from '../rate-limit';

import { confirmCurrentPassword } from './current-password';
import { toUserDto, type UserDto } from './dto';
import { tellOwnerOfTwoFactorChange } from './security-notice';

/**
 * Two-factor authentication for any member, required for admins (decision
 * 018): set up in Security settings, asked for at login after the password.
 * Every change (setup, confirmation, new recovery codes, turning it off)
 * needs the current password on top of the session, checked with the
 * settings' failure budget: a stolen cookie or token alone cannot turn it on
 * (locking the owner out, or enrolling an admin's second factor for the
 * thief) nor replace it. Each change that takes effect is mailed to the
 * member.
 */

export const TWO_FACTOR_MESSAGES = {
  wrongCode:
    'That code is not right. Enter the 6-digit code your authenticator app shows now (check that your phone’s clock is set automatically).',
  reusedCode: 'That code has already been used. Wait for your authenticator app to show a new code, then enter that one.',
  wrongRecoveryCode: 'That recovery code is not right. Check it and try again, or use another one.',
  usedRecoveryCode: 'That recovery code has already been used. Each recovery code works once: use another one.',
  expiredChallenge: 'Your login took more than 5 minutes. Please log in again with your email and password.',
  invalidChallenge: 'This login could not be continued. Please log in again with your email and password.',
  alreadyOn: 'Two-factor authentication is already on.',
  notOn: 'Two-factor authentication is not on.',
  noSetup: 'Start the setup again: no new secret is waiting to be confirmed.',
  adminCannotTurnOff: 'Admins must keep two-factor authentication on. Ask another admin to remove your admin rights first.',
  tooManyCodes: (wait: string) => `Too many wrong codes. Please wait ${wait} and try again.`,
  loginNeedsCode: 'Enter the code from your authenticator app to finish logging in.',
  enabled: 'Two-factor authentication is on. Keep your recovery codes somewhere safe: they are shown only now.',
  enabledAdmin:
    'Two-factor authentication is on. Keep your recovery codes somewhere safe: they are shown only now. Log out and log in again with a code to use admin tools.',
  disabled: 'Two-factor authentication is off.',
  regenerated: 'New recovery codes are ready; the old ones no longer work. Keep these somewhere safe: they are shown only now.',
} as const;

export interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** The member is an admin, so two-factor is required and cannot be turned off. */
  required: boolean;
  /** Whether this session's login passed the second factor. */
  sessionPassed: boolean;
  /** For an admin: what is still missing before admin tools answer. */
  adminGap: 'enrol' | 'login' | null;
}

export async function twoFactorStatus(actor: Actor): Promise<TwoFactorStatus> {
  const member = requireMember(actor);
  const db = await getDb();
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, member.user.id), isNull(twoFactorRecoveryCodes.usedAt)));
  return {
    enabled: member.user.twoFactorEnabledAt !== null,
    enabledAt: member.user.twoFactorEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft: member.user.twoFactorEnabledAt ? Number(left?.n ?? 0) : 0,
    required: hasAdminRole(member.user),
    sessionPassed: member.secondFactor,
    adminGap: adminPowerGap(member),
  };
}

/**
 * Step one of setup: a new secret, kept sealed as pending until a code
 * proves the app has it. Starting again replaces it, so an abandoned setup
 * leaves nothing that works.
 */
export async function beginTwoFactorSetup(
  actor: Actor,
  { currentPassword }: TwoFactorSetupInput,
): Promise<{ secret: string; uri: string; qr: { size: number; path: string } }> {
  const member = requireMember(actor);
  if (member.user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  await confirmCurrentPassword(member, currentPassword);
  const secret = newTotpSecret();
  const db = await getDb();
  await db
    .update(users)
    .set({ twoFactorPendingSecret: await sealSecret(secret), updatedAt: sql`now()` })
    .where(eq(users.id, member.user.id));
  const uri = totpUri(secret, member.user.email);
  return { secret, uri, qr: qrPath(uri) };
}

/** Step two: a code from the app turns two-factor on and hands out the recovery codes, once. */
export async function confirmTwoFactorSetup(
  actor: Actor,
  { currentPassword, code }: TotpCodeInput,
): Promise<{ message: string; recoveryCodes: string[] }> {
  const member = requireMember(actor);
  if (member.user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  await confirmCurrentPassword(member, currentPassword);
  const secret = member.user.twoFactorPendingSecret ? await openSecret(member.user.twoFactorPendingSecret) : null;
  if (!secret) throw badRequest(TWO_FACTOR_MESSAGES.noSetup);
  await consume('twoFactorFailuresPerMember', member.user.id, TWO_FACTOR_MESSAGES.tooManyCodes);
  const step = matchingStep(secret, code);
  if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { field: 'code' });
  const codes = newRecoveryCodes();
  const db = await getDb();
  await db.transaction(async (tx) => {
    // Only if setup is still pending with this very secret: two confirmations at once turn it on once.
    const turnedOn = await tx
      .update(users)
      .set({
        twoFactorSecret: member.user.twoFactorPendingSecret,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: sql`now()`,
        twoFactorLastStep: step,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(users.id, member.user.id),
          isNull(users.twoFactorEnabledAt),
          eq(users.twoFactorPendingSecret, member.user.twoFactorPendingSecret!),
        ),
      )
      .returning({ id: users.id });
    if (turnedOn.length === 0) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
    await replaceRecoveryCodes(tx, member.user.id, codes);
  });
  await reset('twoFactorFailuresPerMember', member.user.id);
  await tellOwnerOfTwoFactorChange(member.user, 'turned-on');
  return {
    message: hasAdminRole(member.user) ? TWO_FACTOR_MESSAGES.enabledAdmin : TWO_FACTOR_MESSAGES.enabled,
    recoveryCodes: codes,
  };
}

/** New recovery codes for the password and an authenticator code; the old ones stop working in the same transaction. */
export async function regenerateRecoveryCodes(
  actor: Actor,
  { currentPassword, code }: TotpCodeInput,
): Promise<{ message: string; recoveryCodes: string[] }> {
  const member = requireMember(actor);
  if (!member.user.twoFactorEnabledAt) throw badRequest(TWO_FACTOR_MESSAGES.notOn);
  await confirmCurrentPassword(member, currentPassword);
  await consume('twoFactorFailuresPerMember', member.user.id, TWO_FACTOR_MESSAGES.tooManyCodes);
  const codes = newRecoveryCodes();
  const db = await getDb();
  await db.transaction(async (tx) => {
    await checkSecondFactor(tx, member.user, code, { recovery: false });
    await replaceRecoveryCodes(tx, member.user.id, codes);
  });
  await reset('twoFactorFailuresPerMember', member.user.id);
  await tellOwnerOfTwoFactorChange(member.user, 'recovery-codes-replaced');
  return { message: TWO_FACTOR_MESSAGES.regenerated, recoveryCodes: codes };
}

/** Turns two-factor off with the password and a code (a recovery code will do: the authenticator may be lost). Admins cannot. */
export async function disableTwoFactor(
  actor: Actor,
  { currentPassword, code }: DisableTwoFactorInput,
): Promise<{ message: string }> {
  const member = requireMember(actor);
  // A conflict with the member's role, not a refusal of the caller: 409, as for the last admin.
  if (hasAdminRole(member.user)) throw conflict(TWO_FACTOR_MESSAGES.adminCannotTurnOff);
  if (!member.user.twoFactorEnabledAt) throw badRequest(TWO_FACTOR_MESSAGES.notOn);
  await confirmCurrentPassword(member, currentPassword);
  await consume('twoFactorFailuresPerMember', member.user.id, TWO_FACTOR_MESSAGES.tooManyCodes);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await checkSecondFactor(tx, member.user, code, { recovery: true });
    await tx
      .update(users)
      .set({
        twoFactorSecret: null,
        twoFactorPendingSecret: null,
        twoFactorEnabledAt: null,
        twoFactorLastStep: null,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, member.user.id));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, member.user.id));
  });
  await reset('twoFactorFailuresPerMember', member.user.id);
  await tellOwnerOfTwoFactorChange(member.user, 'turned-off');
  return { message: TWO_FACTOR_MESSAGES.disabled };
}

/** What the password step of a login answers for a member with two-factor on: no session yet, a challenge. */
export interface TwoFactorChallenge {
  twoFactorRequired: true;
  challenge: string;
  message: string;
}

export async function twoFactorChallenge(user: User): Promise<TwoFactorChallenge> {
  return { twoFactorRequired: true, challenge: await sealChallenge(user), message: TWO_FACTOR_MESSAGES.loginNeedsCode };
}

/**
 * The code step of a login. Wrong codes spend budgets per member and per
 * address (counted up front, as login failures are); the right code starts
 * a session marked as having passed the second factor.
 */
export async function completeTwoFactorLogin(
  { challenge, code }: TwoFactorLoginInput,
  address: string,
): Promise<{ token: string; user: UserDto; sessionId: string }> {
  const claims = await openChallenge(challenge);
  if (!claims) throw new ApiError(401, TWO_FACTOR_MESSAGES.invalidChallenge, { restartLogin: true });
  if (claims.exp <= Date.now()) throw new ApiError(401, TWO_FACTOR_MESSAGES.expiredChallenge, { restartLogin: true });
  const network = addressNetwork(address);
  await consume('loginFailuresPerAddress', network, TWO_FACTOR_MESSAGES.tooManyCodes);
  await consume('twoFactorFailuresPerMember', claims.uid, TWO_FACTOR_MESSAGES.tooManyCodes);
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, claims.uid)).limit(1);
  // A password change, ban or logout-everywhere since the password step voids the challenge.
  if (!user || user.tokenVersion !== claims.ver || passwordFingerprint(user.passwordHash) !== claims.pw) {
    throw new ApiError(401, TWO_FACTOR_MESSAGES.invalidChallenge, { restartLogin: true });
  }
  if (user.bannedAt) throw forbidden(BANNED_MESSAGE);
  if (!user.twoFactorEnabledAt) throw new ApiError(401, TWO_FACTOR_MESSAGES.invalidChallenge, { restartLogin: true });
  const session = await db.transaction(async (tx) => {
    await checkSecondFactor(tx, user, code, { recovery: true });
    return startSession(user, tx as unknown as Awaited<ReturnType<typeof getDb>>, { secondFactor: true });
  });
  await Promise.all([giveBack('loginFailuresPerAddress', network), reset('twoFactorFailuresPerMember', user.id)]);
  return { token: session.token, user: toUserDto(user), sessionId: session.sessionId };
}

/**
 * Checks a second factor inside the caller's transaction, and spends it: a
 * TOTP code's time step must be later than the last accepted one (so the
 * same code, or an older one, never works twice: RFC 6238 section 5.2), a
 * recovery code is marked used. Both are one conditional UPDATE, so two
 * requests racing with one code cannot both pass.
 */
async function checkSecondFactor(
  db: Executor,
  user: User,
  code: string,
  { recovery }: { recovery: boolean },
): Promise<'totp' | 'recovery'> {
  if (/^\d{6}$/.test(code)) {
    const secret = user.twoFactorSecret ? await openSecret(user.twoFactorSecret) : null;
    if (!secret) throw badRequest(TWO_FACTOR_MESSAGES.notOn);
    const step = matchingStep(secret, code);
    if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { field: 'code' });
    const spent = await db
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    if (spent.length === 0) throw badRequest(TWO_FACTOR_MESSAGES.reusedCode, { field: 'code' });
    return 'totp';
  }
  if (!recovery) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { field: 'code' });
  const hash = hashRecoveryCode(user.id, code);
  const spent = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, user.id),
        eq(twoFactorRecoveryCodes.codeHash, hash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  if (spent.length > 0) return 'recovery';
  const [used] = await db
    .select({ id: twoFactorRecoveryCodes.id })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, user.id), eq(twoFactorRecoveryCodes.codeHash, hash)))
    .limit(1);
  throw badRequest(used ? TWO_FACTOR_MESSAGES.usedRecoveryCode : TWO_FACTOR_MESSAGES.wrongRecoveryCode, { field: 'code' });
}

async function replaceRecoveryCodes(db: Executor, userId: string, codes: string[]): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(userId, code) })));
}
