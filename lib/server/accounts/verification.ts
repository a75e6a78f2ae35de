import 'server-only';

import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { emailTokens, users, type User } from '@/lib/db/schema';

import { linkEmail, sendMail } from '../mail';
import { logger } from '@/lib/server/log';

const log = logger('mail');

/** Verification links work for a day, once. */
export const EMAIL_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function verificationUrl(token: string): string {
  return `${getConfig().siteUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`;
}

/** Creates a single-use link for an address and emails it. Returns whether the email went out. */
export async function sendVerificationLink(
  user: Pick<User, 'id' | 'username'>,
  email: string,
  purpose: 'verify_email' | 'change_email',
): Promise<boolean> {
  const db = await getDb();
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    // A new link replaces older unused ones for the same purpose.
    await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({
      userId: user.id,
      purpose,
      email,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_MS),
    });
  });
  const { siteName } = getConfig();
  // The address is not confirmed yet (anyone can type anyone's), so the mail says nothing they typed, not even the username.
  const message =
    purpose === 'verify_email'
      ? linkEmail({
          to: email,
          subject: `Verify your email for ${siteName}`,
          greeting: 'Hello,',
          lines: [`Welcome to ${siteName}! Please confirm that this is your email address to finish creating your account.`],
          action: 'Verify my email',
          url: verificationUrl(token),
          footer: 'This link works once and expires in 24 hours. If you did not sign up, you can ignore this email.',
        })
      : linkEmail({
          to: email,
          subject: `Confirm your new email for ${siteName}`,
          greeting: 'Hello,',
          lines: [
            `You asked to use this address for your ${siteName} account. Your account keeps its current address until you confirm.`,
          ],
          action: 'Confirm my new email',
          url: verificationUrl(token),
          footer:
            'This link works once and expires in 24 hours. If you did not ask for this, ignore this email; nothing changes.',
        });
  try {
    await sendMail(message);
    return true;
  } catch (error) {
    log.error({ err: error }, `could not send ${purpose} email`);
    return false;
  }
}

export type VerifyResult = { ok: true } | { ok: false; email?: string };

/**
 * Uses a link. A link that was already used still counts as success when its
 * address is verified: mail scanners often open links before people do.
 */
export async function verifyEmailToken(token: string): Promise<VerifyResult> {
  if (!token || token.length > 200) return { ok: false };
  const db = await getDb();
  return db.transaction(async (tx) => {
    // Only address links: a password reset link opened here is no verification link, and stays unused for its own page.
    const [row] = await tx
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, hashToken(token)), inArray(emailTokens.purpose, ['verify_email', 'change_email'])))
      .limit(1);
    if (!row) return { ok: false };
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId)).limit(1);
    if (!user) return { ok: false };
    const addressVerified = user.emailVerifiedAt !== null && user.email.toLowerCase() === row.email.toLowerCase();
    if (row.usedAt) return addressVerified ? { ok: true } : { ok: false, email: row.email };
    if (row.expiresAt.getTime() <= Date.now()) return { ok: false, email: row.email };

    const [claimed] = await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.id, row.id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, sql`now()`)))
      .returning({ id: emailTokens.id });
    if (!claimed) return { ok: false, email: row.email };

    if (row.purpose === 'change_email') {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${row.email.toLowerCase()}`, sql`${users.id} <> ${user.id}`))
        .limit(1);
      if (taken) return { ok: false };
      await tx
        .update(users)
        .set({ email: row.email, emailVerifiedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
    } else {
      await tx
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
    }
    return { ok: true };
  });
}
