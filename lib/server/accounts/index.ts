import 'server-only';

import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';

import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { users, type User } from '@/lib/db/schema';
import { addressNetwork } from '@/lib/http/client-address';
import {
  registerSchema,
  type changeEmailSchema,
  type changePasswordSchema,
  type LoginInput,
  type preferencesSchema,
  type resendVerificationSchema,
} from '@/lib/validation/auth';

import { hasAdminRole, requireMember, type Actor, type Authenticated } from '../auth/actor';
import { COMMON_PASSWORD_MESSAGE, decoyHash, hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { revokeOtherSessions, revokeSession, startSession } from '../auth/session';
import { ApiError, BANNED_MESSAGE, badRequest, conflict, forbidden, parseInput } from '../errors';
import { consume, giveBack, reset } from '../rate-limit';

import { toUserDto, type UserDto } from './dto';
import { removeProfilePhoto, storeProfilePhoto } from './photos';
import { tellOwnerOfSignUpAttempt } from './sign-up-notice';
import { twoFactorChallenge, type TwoFactorChallenge } from './two-factor';
import { sendVerificationLink } from './verification';

export { toUserDto, type UserDto } from './dto';

export const REGISTERED_MESSAGE = 'Registration successful! Please check your email to verify your account.';
export const RESEND_MESSAGE = 'If that address belongs to an account that still needs verifying, a new verification email is on its way.';
export const INVALID_LOGIN_MESSAGE = 'Invalid email or password';
export const NEEDS_VERIFICATION_MESSAGE = 'Please verify your email address before logging in. Check your inbox for the verification link.';

const byEmail = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;
const byUsername = (username: string) => sql`lower(${users.username}) = ${username.toLowerCase()}`;

/** Which unique field a write collided with, from the index name in the database error. */
function duplicateOf(error: unknown): 'username' | 'email' | null {
  const text = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message ?? ''} ${String((error as { cause?: unknown }).cause ?? '')}`;
  if (text.includes('users_username_lower_key')) return 'username';
  if (text.includes('users_email_lower_key')) return 'email';
  return null;
}

/** The inputs as the routes parse them (with the schemas in lib/validation/auth.ts). */
export type ResendVerificationInput = z.infer<typeof resendVerificationSchema>;
export type PreferencesInput = z.infer<typeof preferencesSchema>;
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const USERNAME_TAKEN = 'That username is already taken. Please choose another.';

/**
 * Signs up. A taken username is said (409); a registered email is not: the
 * answer is a new account's, status, body and (as far as practical) time,
 * since the photo is checked and stored and the password hashed either way,
 * and the owner is emailed instead of the caller being told.
 */
export async function register(fields: Record<string, unknown>, photo: File | null, address: string): Promise<{ message: string }> {
  await consume('registerPerIp', addressNetwork(address), 'Too many sign-ups from your network. Please wait a few minutes and try again.');
  const input = parseInput(registerSchema(), fields);
  if (isCommonPassword(input.password)) throw badRequest(COMMON_PASSWORD_MESSAGE, { field: 'password' });

  const db = await getDb();
  const [nameTaken] = await db.select({ id: users.id }).from(users).where(byUsername(input.username)).limit(1);
  if (nameTaken) throw conflict(USERNAME_TAKEN);
  const photoKey = photo ? await storeProfilePhoto(photo) : null;
  const passwordHash = await hashPassword(input.password);
  const [owner] = await db.select().from(users).where(byEmail(input.email)).limit(1);
  if (owner) return answerAsIfRegistered(owner, photoKey);
  let user: User;
  try {
    [user] = (await db
      .insert(users)
      .values({ username: input.username, email: input.email, passwordHash, dateOfBirth: input.dateOfBirth, profilePhotoKey: photoKey })
      .returning()) as [User];
  } catch (error) {
    const duplicate = duplicateOf(error);
    // Signed up with the same email a moment ago, between our lookup and this insert.
    const [racedOwner] = duplicate === 'email' ? await db.select().from(users).where(byEmail(input.email)).limit(1) : [];
    if (racedOwner) return answerAsIfRegistered(racedOwner, photoKey);
    if (photoKey) await removeProfilePhoto(photoKey);
    if (duplicate === 'username') throw conflict(USERNAME_TAKEN);
    throw error;
  }
  await sendVerificationLink(user, user.email, 'verify_email');
  return { message: REGISTERED_MESSAGE };
}

/** A sign-up with a registered email: nothing is kept, the owner gets a note, the caller a new account's answer. */
async function answerAsIfRegistered(owner: User, photoKey: string | null): Promise<{ message: string }> {
  if (photoKey) await removeProfilePhoto(photoKey);
  await tellOwnerOfSignUpAttempt(owner);
  return { message: REGISTERED_MESSAGE };
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
 */
export async function login({ email, password }: LoginInput, address: string): Promise<{ token: string; user: UserDto; sessionId: string } | TwoFactorChallenge> {
  const network = addressNetwork(address);
  const accountFromAddress = `${email}\n${network}`;
  await consume('loginFailuresPerAddress', network, TOO_MANY_FAILED_LOGINS);
  await consume('loginFailuresPerAccountAddress', accountFromAddress, TOO_MANY_FAILED_LOGINS);
  const db = await getDb();
  const [user] = await db.select().from(users).where(byEmail(email)).limit(1);
  // The hash check runs either way, so timing does not reveal which emails have accounts.
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !passwordOk) throw new ApiError(401, INVALID_LOGIN_MESSAGE);
  // The right password: this attempt was no failure, and this address's earlier failures on the account are forgiven.
  await Promise.all([giveBack('loginFailuresPerAddress', network), reset('loginFailuresPerAccountAddress', accountFromAddress)]);
  if (user.bannedAt) throw forbidden(BANNED_MESSAGE);
  if (!user.emailVerifiedAt) throw new ApiError(403, NEEDS_VERIFICATION_MESSAGE, { needsVerification: true });
  // Two-factor on: no session yet, a short-lived challenge for the code step (completeTwoFactorLogin).
  if (user.twoFactorEnabledAt) return twoFactorChallenge(user);
  const { token, sessionId } = await startSession(user);
  return { token, user: toUserDto(user), sessionId };
}

/** Ends the caller's session (a banned member's too); a visitor has none, so nothing happens. */
export async function logout(actor: Actor): Promise<void> {
  if (actor.kind === 'member') await revokeSession(actor.sessionId);
}

export async function updatePreferences(actor: Actor, { autoPlayVideos }: PreferencesInput): Promise<{ success: true; user: UserDto }> {
  const member = requireMember(actor);
  const db = await getDb();
  const [user] = await db.update(users).set({ autoPlayVideos, updatedAt: sql`now()` }).where(eq(users.id, member.user.id)).returning();
  return { success: true, user: toUserDto(user!) };
}

const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect.';
const TOO_MANY_WRONG_CURRENT_PASSWORDS = (wait: string) => `Too many wrong current passwords. Please wait ${wait} and try again.`;
const TOO_MANY_EMAIL_CHANGES = (wait: string) => `You can change your email address at most 5 times a day. Please try again in ${wait}.`;

/**
 * Settings changes ask for the current password. Wrong ones spend a budget per
 * member (counted up front, like login failures), so a session left open or
 * stolen is no way to guess it; the right one clears the count.
 */
export async function confirmCurrentPassword(auth: Authenticated, currentPassword: string): Promise<void> {
  await consume('currentPasswordFailuresPerMember', auth.user.id, TOO_MANY_WRONG_CURRENT_PASSWORDS);
  if (!(await verifyPassword(currentPassword, auth.user.passwordHash))) throw badRequest(WRONG_CURRENT_PASSWORD, { field: 'currentPassword' });
  await reset('currentPasswordFailuresPerMember', auth.user.id);
}

export async function changeEmail(actor: Actor, input: ChangeEmailInput): Promise<{ message: string; emailVerificationSent: boolean }> {
  const member = requireMember(actor);
  await confirmCurrentPassword(member, input.currentPassword);
  if (input.newEmail === member.user.email.toLowerCase()) throw badRequest('That is already your email address.', { field: 'newEmail' });
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
    await tx.update(users).set({ passwordHash: await hashPassword(input.newPassword), updatedAt: sql`now()` }).where(eq(users.id, member.user.id));
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
    await db.update(users).set({ isAdmin: true, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` }).where(eq(users.id, existing.id));
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
