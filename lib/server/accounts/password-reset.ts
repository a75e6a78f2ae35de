import 'server-only';

import { randomBytes } from 'node:crypto';

import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';

import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { getConfig } from '@/lib/config/server';
import { getDb, type Executor } from '@/lib/db';
import { emailTokens, sessions, users, type User } from '@/lib/db/schema';
import { wakeWorkers } from '@/lib/events';
import { addressNetwork } from '@/lib/front/resolve-client-address';
import {
  PASSWORD_RESET_MESSAGE,
  RESET_TOKEN_MAX,
  type forgotPasswordSchema,
  type resetPasswordSchema,
} from '@/lib/validation/auth';

import { COMMON_PASSWORD_MESSAGE, hashPassword, isCommonPassword } from '../auth/passwords';
import { ApiError, BANNED_MESSAGE, badRequest, forbidden } from '../errors';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { linkEmail, sendMail } from '../mail';
import { consume } from '../rate-limit';

import { hashToken } from './verification';
import { logger } from '@/lib/server/log';

const log = logger('mail');

/**
 * Forgotten passwords (decision 012). A request always answers the same and
 * queues the same job, whether or not the address has an account; the job
 * mails a single-use link valid for an hour (only its SHA-256 is stored, in
 * email_tokens, purpose reset_password). Using the link sets the new
 * password, verifies the address it was mailed to, ends every session and
 * tells the member by email; they then log in with the new password.
 */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const PASSWORD_RESET_EMAIL_JOB = 'password-reset-email';

export const FORGOT_PASSWORD_MESSAGE =
  'If that address belongs to an account, we have sent it a link to reset your password. The link works for 1 hour.';

/** Why a link cannot be used; the page and the API say so in these words and offer a new link. */
export const RESET_LINK_MESSAGES = {
  invalid: 'This password reset link is not valid. Check that you opened the whole link from the email, or ask for a new one.',
  expired:
    'This password reset link has expired. Links work for 1 hour, and only the newest one you asked for works. Ask for a new one.',
  used: 'This password reset link has already been used. If that was not you, ask for a new link and choose a new password.',
  banned: 'This account is banned, so its password cannot be reset.',
} as const;
export type ResetLinkState = 'valid' | keyof typeof RESET_LINK_MESSAGES;

type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;
type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

const TOO_MANY_FROM_ADDRESS = (wait: string) =>
  `Too many password reset requests from your network. Please wait ${wait} and try again.`;
const TOO_MANY_FOR_EMAIL = (wait: string) =>
  `Too many password reset emails were asked for this address. Please wait ${wait} and try again.`;

/**
 * Asks for a reset link. The limits count every address alike, and the job
 * is queued either way (with nobody to mail for an unknown address), so the
 * answer, its status and the work behind it are the same whether or not the
 * address has an account; the mail itself goes out from the worker, so its
 * time never shows in the answer.
 */
export async function requestPasswordReset({ email }: ForgotPasswordInput, address: string): Promise<{ message: string }> {
  await consume('forgotPasswordPerIp', addressNetwork(address), TOO_MANY_FROM_ADDRESS);
  await consume('forgotPasswordPerEmail', email, TOO_MANY_FOR_EMAIL);
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  await enqueue(db, PASSWORD_RESET_EMAIL_JOB, { userId: user?.id ?? null });
  wakeWorkers();
  return { message: FORGOT_PASSWORD_MESSAGE };
}

export function resetPasswordUrl(token: string): string {
  return `${getConfig().siteUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * The job: a new link for a member who is not banned. Older unused links stop
 * working (only the newest one does). Running it twice sends a second link
 * that replaces the first, which is harmless.
 */
export const sendPasswordResetEmail: JobHandler = async (job) => {
  const userId = (job.payload as { userId?: unknown }).userId;
  if (typeof userId !== 'string') return;
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.bannedAt) return;
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx
      .update(emailTokens)
      .set({ expiresAt: sql`least(${emailTokens.expiresAt}, now())` })
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'reset_password'), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({
      userId: user.id,
      purpose: 'reset_password',
      email: user.email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
  });
  const { siteName } = getConfig();
  await sendMail(
    linkEmail({
      to: user.email,
      subject: `Reset your ${siteName} password`,
      greeting: `Hi ${user.username},`,
      lines: [
        `Someone (we hope you) asked to reset the password of your ${siteName} account. Choose a new password with the button below.`,
      ],
      action: 'Choose a new password',
      url: resetPasswordUrl(token),
      footer:
        'This link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
    }),
  );
};

export const PASSWORD_RESET_JOB_HANDLERS: Record<string, JobHandler> = { [PASSWORD_RESET_EMAIL_JOB]: sendPasswordResetEmail };

interface FoundLink {
  token: typeof emailTokens.$inferSelect;
  user: User;
}

async function findLink(db: Executor, token: string): Promise<FoundLink | null> {
  if (!token || token.length > RESET_TOKEN_MAX) return null;
  const [row] = await db
    .select({ token: emailTokens, user: users })
    .from(emailTokens)
    .innerJoin(users, eq(users.id, emailTokens.userId))
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), eq(emailTokens.purpose, 'reset_password')))
    .limit(1);
  return row ?? null;
}

function stateOf(link: FoundLink | null): ResetLinkState {
  if (!link) return 'invalid';
  if (link.token.usedAt) return 'used';
  if (link.token.expiresAt.getTime() <= Date.now()) return 'expired';
  // The member's address changed since: the link went to an address that is no longer theirs.
  if (link.user.email.toLowerCase() !== link.token.email.toLowerCase()) return 'invalid';
  if (link.user.bannedAt) return 'banned';
  return 'valid';
}

/** What the reset page shows for a link, without using it (mail scanners open links too). */
export async function resetLinkState(token: string): Promise<ResetLinkState> {
  return stateOf(await findLink(await getDb(), token));
}

function refusal(state: Exclude<ResetLinkState, 'valid'>): ApiError {
  if (state === 'banned') return forbidden(BANNED_MESSAGE);
  return badRequest(RESET_LINK_MESSAGES[state], { field: 'token', reason: state });
}

/**
 * Uses a link: the new password (the sign-up rules), the address verified
 * (the link proves it), every session ended (token version bumped and rows
 * revoked), every other reset link retired, and a note to the member. The
 * link is claimed in the same transaction, so it works once even when used
 * twice at the same moment. A banned account's link is refused.
 */
export async function resetPassword({ token, password }: ResetPasswordInput): Promise<{ message: string }> {
  const db = await getDb();
  const link = await findLink(db, token);
  const state = stateOf(link);
  if (state !== 'valid') throw refusal(state);
  if (isCommonPassword(password)) throw badRequest(COMMON_PASSWORD_MESSAGE, { field: 'password' });
  const passwordHash = await hashPassword(password);
  const { user, token: row } = link!;
  const updated = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.id, row.id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, sql`now()`)))
      .returning({ id: emailTokens.id });
    if (!claimed) return null;
    const [changed] = await tx
      .update(users)
      .set({
        passwordHash,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, user.id), isNull(users.bannedAt), sql`lower(${users.email}) = ${row.email.toLowerCase()}`))
      .returning();
    if (!changed) return null;
    await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'reset_password'), isNull(emailTokens.usedAt)));
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    return changed;
  });
  // Lost a race: another request used the link, or the account was banned or changed its address meanwhile.
  if (!updated) throw refusal(stateOf(await findLink(db, token)) === 'banned' ? 'banned' : 'used');
  await tellPasswordChanged(updated);
  return { message: PASSWORD_RESET_MESSAGE };
}

/** The member hears of every reset, so one they did not make does not go unnoticed. */
async function tellPasswordChanged(user: Pick<User, 'username' | 'email'>): Promise<void> {
  const { siteName, siteUrl } = getConfig();
  try {
    await sendMail(
      linkEmail({
        to: user.email,
        subject: `Your ${siteName} password was changed`,
        greeting: `Hi ${user.username},`,
        lines: [
          `The password of your ${siteName} account was just reset with a link sent to this address. Every device that was logged in has been logged out.`,
          'If that was you, there is nothing more to do. If it was not, ask for a new reset link right away to choose a password only you know, and check who can read your email.',
        ],
        action: 'Reset my password',
        url: `${siteUrl}/forgot-password`,
        footer: `We send this email whenever the password of your account changes. Your devices and two-factor authentication are in Settings, under Security: ${siteUrl}${ACCOUNT_PATHS.security}`,
      }),
    );
  } catch (error) {
    log.error({ err: error }, 'could not send a password-changed notice');
  }
}
