import 'server-only';

import { and, desc, eq, gt, isNotNull, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { z } from 'zod';

import { getConfig } from '@/lib/config/server';
import { getDb, type Executor } from '@/lib/db';
import { sessions, signUpHolds, users, type User } from '@/lib/db/schema';
import { addressNetwork } from '@/lib/front/resolve-client-address';
import {
  registerSchema,
  type changeEmailSchema,
  type changePasswordSchema,
  type LoginInput,
  type preferencesSchema,
  type resendVerificationSchema,
} from '@/lib/validation/auth';
import type { EndSessionsInput } from '@/lib/validation/two-factor';

import { hasAdminRole, requireMember, type Actor } from '../auth/actor';
import { COMMON_PASSWORD_MESSAGE, decoyHash, hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { revokeOtherSessions, revokeSession, startSession } from '../auth/session';
import { ApiError, BANNED_MESSAGE, badRequest, conflict, forbidden, parseInput } from '../errors';
import { consume, giveBack, reset } from '../rate-limit';

import { confirmCurrentPassword } from './current-password';

import { toUserDto, type UserDto } from './dto';
import { removeProfilePhoto, storeProfilePhoto } from './photos';
import { tellOwnerOfSignUpAttempt } from './sign-up-notice';
import { twoFactorChallenge, type TwoFactorChallenge } from './two-factor';
import { sendVerificationLink } from './verification';

export { toUserDto, type UserDto } from './dto';

export const REGISTERED_MESSAGE = 'Registration successful! Please check your email to verify your account.';
export const RESEND_MESSAGE =
  'If that address belongs to an account that still needs verifying, a new verification email is on its way.';
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';
export const NEEDS_VERIFICATION_MESSAGE =
  'Please verify your email address before logging in. Check your inbox for the verification link.';

const byEmail = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;
const byUsername = (username: string) => sql`lower(${users.username}) = ${username.toLowerCase()}`;

/** The inputs as the routes parse them (with the schemas in lib/validation/auth.ts). */
export type ResendVerificationInput = z.infer<typeof resendVerificationSchema>;
export type PreferencesInput = z.infer<typeof preferencesSchema>;
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const USERNAME_TAKEN = 'That username is already taken. Please choose another.';

/**
 * How long a sign-up holds its username before it is verified (as Mastodon
 * keeps unconfirmed accounts: 7 days). After that the name goes to the next
 * sign-up, so an unverified squatter never keeps a name from a real member.
 */
export const SIGN_UP_HOLD_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Signs up. A registered email is never said: every sign-up with a free
 * username answers a new account's 201 and holds the name for
 * SIGN_UP_HOLD_MS, whether it made an account or found the email taken (then
 * nothing else is kept and the owner is emailed instead), so signing up with
 * the same name again is refused alike in both cases (decision 041). The
 * photo is checked and stored and the password hashed either way, for the
 * time. A taken username is said (409): a verified member's, or one held by a
 * sign-up younger than the hold; an older unverified account gives its name
 * (and itself, since it was never used) to the new sign-up.
 */
export async function register(
  fields: Record<string, unknown>,
  photo: File | null,
  address: string,
): Promise<{ message: string }> {
  await consume(
    'registerPerIp',
    addressNetwork(address),
    'Too many sign-ups from your network. Please wait a few minutes and try again.',
  );
  const input = parseInput(registerSchema(), fields);
  if (isCommonPassword(input.password)) throw badRequest(COMMON_PASSWORD_MESSAGE, { field: 'password' });

  const db = await getDb();
  // An early answer for a name that is plainly taken, before the photo is stored; the transaction below decides.
  if (!(await usernameMayBeFree(db, input.username))) throw conflict(USERNAME_TAKEN);
  const photoKey = photo ? await storeProfilePhoto(photo) : null;
  const passwordHash = await hashPassword(input.password);
  let outcome: { created: User; released: string | null } | { owner: User | undefined; released: string | null };
  try {
    outcome = await db.transaction(async (tx) => {
      const released = await holdUsername(tx, input.username, input.email, passwordHash);
      const [created] = (await tx
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          passwordHash,
          dateOfBirth: input.dateOfBirth,
          profilePhotoKey: photoKey,
        })
        .onConflictDoNothing()
        .returning()) as User[];
      if (created) return { created, released };
      // The email has an account (the name is held, so only the email can have collided): the hold stays, nothing else.
      const [owner] = await tx.select().from(users).where(byEmail(input.email)).limit(1);
      return { owner, released };
    });
  } catch (error) {
    if (photoKey) await removeProfilePhoto(photoKey);
    throw error;
  }
  if (outcome.released) await removeProfilePhoto(outcome.released);
  if ('created' in outcome) {
    await sendVerificationLink(outcome.created, outcome.created.email, 'verify_email');
  } else {
    if (photoKey) await removeProfilePhoto(photoKey);
    if (outcome.owner) await tellOwnerOfSignUpAttempt(outcome.owner);
  }
  return { message: REGISTERED_MESSAGE };
}

async function usernameMayBeFree(db: Executor, username: string): Promise<boolean> {
  const [verified] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(byUsername(username), isNotNull(users.emailVerifiedAt)))
    .limit(1);
  if (verified) return false;
  const [held] = await db
    .select({ key: signUpHolds.usernameKey })
    .from(signUpHolds)
    .where(and(eq(signUpHolds.usernameKey, username.toLowerCase()), gt(signUpHolds.expiresAt, sql`now()`)))
    .limit(1);
  return !held;
}

/**
 * Holds a username for this sign-up, in its transaction: a new hold, or an
 * expired one taken over in the same statement (so two sign-ups racing for a
 * name cannot both get it). The hold keeps the email and password hash the
 * sign-up gave, for login() (whether or not an account is made). An
 * unverified account whose hold has run out is removed with it; returns its
 * photo key to delete after the commit.
 */
async function holdUsername(tx: Executor, username: string, email: string, passwordHash: string): Promise<string | null> {
  const hold = { expiresAt: new Date(Date.now() + SIGN_UP_HOLD_MS), emailKey: email.toLowerCase(), passwordHash };
  const claimed = await tx
    .insert(signUpHolds)
    .values({ usernameKey: username.toLowerCase(), ...hold })
    .onConflictDoUpdate({ target: signUpHolds.usernameKey, set: hold, setWhere: lte(signUpHolds.expiresAt, sql`now()`) })
    .returning({ key: signUpHolds.usernameKey });
  if (claimed.length === 0) throw conflict(USERNAME_TAKEN);
  const [holder] = await tx.select().from(users).where(byUsername(username)).limit(1);
  if (!holder) return null;
  // Verified (perhaps a moment ago): the name is theirs for good.
  if (holder.emailVerifiedAt) throw conflict(USERNAME_TAKEN);
  // Never verified, so never logged in: nothing of theirs but the row, its links and a photo.
  const removed = await tx
    .delete(users)
    .where(and(eq(users.id, holder.id), isNull(users.emailVerifiedAt)))
    .returning({ photo: users.profilePhotoKey });
  if (removed.length === 0) throw conflict(USERNAME_TAKEN);
  return removed[0]!.photo;
}

/** Same answer whether or not the address has an account; the cooldown applies to every address alike. */
export async function resendVerification({ email }: ResendVerificationInput, address: string): Promise<{ message: string }> {
  await consume('resendPerIp', addressNetwork(address));
  await consume('resendPerAddress', email, 'Please wait 60 seconds before asking for another verification email.');
  const db = await getDb();
  const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
  if (user && !user.emailVerifiedAt && !user.bannedAt) await sendVerificationLink(user, user.email, 'verify_email');
  return { message: RESEND_MESSAGE };
}

const TOO_MANY_FAILED_LOGINS = (wait: string) => `Too many failed login attempts. Please wait ${wait} and try again.`;

/**
 * Logs in. Only failures spend the login budgets, keyed by the address (an
 * IPv6 /64) alone and by account and address together: a member with the
 * right password, from an address that has not failed, is never refused
 * because others guessed at their account. There is deliberately no budget
 * per account over all addresses, because any such budget lets strangers lock
 * the member out; guessing spread over many addresses meets the per-address
 * budgets, argon2id and the refusal of common passwords instead.
 *
 * Anything but a verified account with its password is answered from the
 * sign-up holds (decision 041): the email and password of a sign-up still
 * waiting to be verified get "verify your email" whether that sign-up made an
 * account or found the email taken, with the same two hash checks, so signing
 * up and then logging in does not tell the two apart either.
 */
export async function login(
  { email, password }: LoginInput,
  address: string,
): Promise<{ token: string; user: UserDto; sessionId: string } | TwoFactorChallenge> {
  const network = addressNetwork(address);
  const accountFromAddress = `${email}\n${network}`;
  await consume('loginFailuresPerAddress', network, TOO_MANY_FAILED_LOGINS);
  await consume('loginFailuresPerAccountAddress', accountFromAddress, TOO_MANY_FAILED_LOGINS);
  const db = await getDb();
  const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
  // The hash check runs either way, so timing does not reveal which emails have accounts.
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  const verifiedAccount = user && passwordOk && user.emailVerifiedAt ? user : null;
  if (!verifiedAccount && !(await isWaitingSignUp(db, email, password))) throw new ApiError(401, INVALID_LOGIN_MESSAGE);
  // The right password: this attempt was no failure, and this address's earlier failures on the account are forgiven.
  await Promise.all([giveBack('loginFailuresPerAddress', network), reset('loginFailuresPerAccountAddress', accountFromAddress)]);
  if (!verifiedAccount) throw new ApiError(403, NEEDS_VERIFICATION_MESSAGE, { needsVerification: true });
  if (verifiedAccount.bannedAt) throw forbidden(BANNED_MESSAGE);
  // Two-factor on: no session yet, a short-lived challenge for the code step (completeTwoFactorLogin).
  if (verifiedAccount.twoFactorEnabledAt) return twoFactorChallenge(verifiedAccount);
  const { token, sessionId } = await startSession(verifiedAccount);
  return { token, user: toUserDto(verifiedAccount), sessionId };
}

/**
 * Whether the newest sign-up with this email that is still waiting (its hold
 * is live, and no verified account has its name: a verified member's old
 * password is no waiting sign-up) was made with this password. One hash
 * check when there is one.
 */
async function isWaitingSignUp(db: Executor, email: string, password: string): Promise<boolean> {
  const verifiedName = db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.username}) = ${signUpHolds.usernameKey}`, isNotNull(users.emailVerifiedAt)));
  const [hold] = await db
    .select({ passwordHash: signUpHolds.passwordHash })
    .from(signUpHolds)
    .where(and(eq(signUpHolds.emailKey, email.toLowerCase()), gt(signUpHolds.expiresAt, sql`now()`), notExists(verifiedName)))
    .orderBy(desc(signUpHolds.expiresAt))
    .limit(1);
  return hold?.passwordHash ? verifyPassword(password, hold.passwordHash) : false;
}

/** Ends the caller's session (a banned member's too); a visitor has none, so nothing happens. */
export async function logout(actor: Actor): Promise<void> {
  if (actor.kind === 'member') await revokeSession(actor.sessionId);
}

export const END_SESSIONS_MESSAGES = {
  others: 'Your other sessions have ended: every other device and app is logged out. This one stays logged in.',
  all: 'All your sessions have ended, this one too. Log in again to go on.',
} as const;

/**
 * Ends the member's sessions from Settings, under Security: every other one
 * (this one stays), or all of them. "All" also bumps the token version, which
 * voids any login half-way through its two-factor step. Asks for no password:
 * it only ever takes access away, and the owner can log in again.
 */
export async function endSessions(actor: Actor, { which }: EndSessionsInput): Promise<{ message: string; loggedOut: boolean }> {
  const member = requireMember(actor);
  const db = await getDb();
  if (which === 'others') {
    await revokeOtherSessions(member.user.id, member.sessionId);
    return { message: END_SESSIONS_MESSAGES.others, loggedOut: false };
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: sql`now()` })
      .where(eq(users.id, member.user.id));
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.userId, member.user.id), isNull(sessions.revokedAt)));
  });
  return { message: END_SESSIONS_MESSAGES.all, loggedOut: true };
}

export async function updatePreferences(
  actor: Actor,
  { autoPlayVideos }: PreferencesInput,
): Promise<{ success: true; user: UserDto }> {
  const member = requireMember(actor);
  const db = await getDb();
  const [user] = await db
    .update(users)
    .set({ autoPlayVideos, updatedAt: sql`now()` })
    .where(eq(users.id, member.user.id))
    .returning();
  return { success: true, user: toUserDto(user!) };
}

const TOO_MANY_EMAIL_CHANGES = (wait: string) =>
  `You can change your email address at most 5 times a day. Please try again in ${wait}.`;

export async function changeEmail(
  actor: Actor,
  input: ChangeEmailInput,
): Promise<{ message: string; emailVerificationSent: boolean }> {
  const member = requireMember(actor);
  await confirmCurrentPassword(member, input.currentPassword);
  if (input.newEmail === member.user.email.toLowerCase())
    throw badRequest('That is already your email address.', { field: 'newEmail' });
  // Each change mails an address of the member's choosing; counted before the lookup below, which also bounds asking it which addresses have accounts.
  await consume('emailChangesPerMember', member.user.id, TOO_MANY_EMAIL_CHANGES);
  const db = await getDb();
  const [taken] = await db.select({ id: users.id }).from(users).where(byEmail(input.newEmail)).limit(1);
  if (taken) throw conflict('That email is already used by another account.');
  const sent = await sendVerificationLink(member.user, input.newEmail, 'change_email');
  return sent
    ? { message: 'Email updated successfully! Please check your new email for verification.', emailVerificationSent: true }
    : { message: 'Email updated, but verification email could not be sent.', emailVerificationSent: false };
}

export async function changePassword(actor: Actor, input: ChangePasswordInput): Promise<{ message: string }> {
  const member = requireMember(actor);
  await confirmCurrentPassword(member, input.currentPassword);
  if (isCommonPassword(input.newPassword)) throw badRequest(COMMON_PASSWORD_MESSAGE, { field: 'newPassword' });
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(input.newPassword), updatedAt: sql`now()` })
      .where(eq(users.id, member.user.id));
    await revokeOtherSessions(member.user.id, member.sessionId, tx as unknown as Awaited<ReturnType<typeof getDb>>);
  });
  return { message: 'Password updated successfully!' };
}

/**
 * With ADMIN_USERNAME, ADMIN_EMAIL and ADMIN_PASSWORD set, makes sure that
 * verified admin account exists (created, or promoted if the email exists).
 * Returns what it did, for the start log.
 */
export async function ensureAdmin(): Promise<'created' | 'promoted' | 'present' | 'unconfigured' | 'missing'> {
  const { admin } = getConfig();
  const db = await getDb();
  if (!admin) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
    return existing ? 'present' : 'missing';
  }
  const [existing] = await db.select().from(users).where(byEmail(admin.email)).limit(1);
  if (existing) {
    if (hasAdminRole(existing) && existing.emailVerifiedAt) return 'present';
    await db
      .update(users)
      .set({ isAdmin: true, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, existing.id));
    return 'promoted';
  }
  await db.insert(users).values({
    username: admin.username,
    email: admin.email,
    passwordHash: await hashPassword(admin.password),
    dateOfBirth: '1970-01-01',
    isAdmin: true,
    emailVerifiedAt: new Date(),
  });
  return 'created';
}
