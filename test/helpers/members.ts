import { and, eq, isNull } from 'drizzle-orm';

import { POST as login } from '@/app/api/auth/login/route';
import { POST as loginTwoFactor } from '@/app/api/auth/login/two-factor/route';
import type { Database } from '@/lib/db';
import { identityVerifications, sessions, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/server/auth/passwords';
import { codeForStep, sealSecret, TOTP_PERIOD_SECONDS } from '@/lib/server/auth/two-factor-codes';

import { call } from './api';

/** The TOTP secret every test admin is enrolled with (base32), so tests can compute its codes as an authenticator app would. */
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** The authenticator code for now (or a given time step) under a secret. */
export function totpNow(secret = TEST_TOTP_SECRET, step = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS)): string {
  return codeForStep(secret, step);
}

/** A verified member inserted directly, logged in through the real login route; returns the bearer token. */
export async function verifiedMemberToken(db: Database, username: string): Promise<string> {
  const email = `${username}@example.org`;
  const password = `${username}-password-1`;
  await db.insert(users).values({
    username,
    email,
    passwordHash: await hashPassword(password),
    dateOfBirth: '1990-01-01',
    emailVerifiedAt: new Date(),
  });
  const response = await call(login, '/api/auth/login', { json: { email, password }, ip: '198.18.9.9' });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.token as string;
}

/**
 * Makes a member an admin, ready to use admin endpoints. Every test that
 * needs an admin goes through here, so what an admin needs besides the flag
 * is set up in one place (decision 018):
 * - two-factor enrolled with TEST_TOTP_SECRET (written directly, as a
 *   confirmed setup leaves it);
 * - the member's live sessions marked as having passed the second factor.
 *   Test-only: it stands for "this admin logged in with a code", so tokens a
 *   test made before promoting keep working as admin tokens. Logins after
 *   promotion get a challenge and go through logInWithCode().
 */
export async function promoteToAdmin(db: Database, userId: string): Promise<void> {
  const [user] = await db.select({ enabledAt: users.twoFactorEnabledAt }).from(users).where(eq(users.id, userId));
  await db
    .update(users)
    .set({
      isAdmin: true,
      ...(user?.enabledAt
        ? {}
        : { twoFactorSecret: await sealSecret(TEST_TOTP_SECRET), twoFactorEnabledAt: new Date(), twoFactorLastStep: null }),
    })
    .where(eq(users.id, userId));
  await db
    .update(sessions)
    .set({ secondFactorAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.secondFactorAt), isNull(sessions.revokedAt)));
}

/**
 * Logs a member with two-factor on (a promoted admin) in through both real
 * routes: the password, then the current code. The last accepted time step is
 * forgotten first (test-only), so a test can log the same admin in several
 * times within one 30-second step without its codes counting as reused.
 */
export async function logInWithCode(
  db: Database,
  email: string,
  password: string,
  { ip = '198.18.9.9', secret = TEST_TOTP_SECRET } = {},
): Promise<string> {
  const first = await call(login, '/api/auth/login', { json: { email, password }, ip });
  if (first.status !== 200 || !first.body.challenge)
    throw new Error(`login did not ask for a code: ${first.status} ${JSON.stringify(first.body)}`);
  await db.update(users).set({ twoFactorLastStep: null }).where(eq(users.email, email.toLowerCase()));
  const second = await call(loginTwoFactor, '/api/auth/login/two-factor', {
    json: { challenge: first.body.challenge, code: totpNow(secret) },
    ip,
  });
  if (second.status !== 200) throw new Error(`two-factor login failed: ${second.status} ${JSON.stringify(second.body)}`);
  return second.body.token as string;
}

/**
 * Marks a member a verified uploader (an approved identity verification,
 * inserted directly), so their videos pass the approval gate. Tests of the
 * verification flow itself go through the routes instead.
 */
export async function verifiedUploader(db: Database, userId: string): Promise<void> {
  await db
    .insert(identityVerifications)
    .values({ userId, legalName: 'Test Uploader', dateOfBirth: '1990-01-01', status: 'approved', reviewedAt: new Date() });
}
