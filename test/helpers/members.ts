import { eq } from 'drizzle-orm';

import { POST as login } from '@/app/api/auth/login/route';
import type { Database } from '@/lib/db';
import { identityVerifications, users } from '@/lib/db/schema';
import { hashPassword } from '@/lib/server/auth/passwords';

import { call } from './api';

/** A verified member inserted directly, logged in through the real login route; returns the bearer token. */
export async function verifiedMemberToken(db: Database, username: string): Promise<string> {
  const email = `${username}@example.org`;
  const password = `${username}-password-1`;
  await db.insert(users).values({ username, email, passwordHash: await hashPassword(password), dateOfBirth: '1990-01-01', emailVerifiedAt: new Date() });
  const response = await call(login, '/api/auth/login', { json: { email, password }, ip: '198.18.9.9' });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.token as string;
}

/**
 * Makes a member an admin, ready to use admin endpoints. Every test that
 * needs an admin goes through here, so what an admin needs besides the flag
 * (two-factor enrolment) is set up in one place.
 */
export async function promoteToAdmin(db: Database, userId: string): Promise<void> {
  await db.update(users).set({ isAdmin: true }).where(eq(users.id, userId));
}

/**
 * Marks a member a verified uploader (an approved identity verification,
 * inserted directly), so their videos pass the approval gate. Tests of the
 * verification flow itself go through the routes instead.
 */
export async function verifiedUploader(db: Database, userId: string): Promise<void> {
  await db.insert(identityVerifications).values({ userId, legalName: 'Test Uploader', dateOfBirth: '1990-01-01', status: 'approved', reviewedAt: new Date() });
}
