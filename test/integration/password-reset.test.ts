import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { POST as forgot } from '@/app/api/auth/forgot-password/route';
import { POST as login } from '@/app/api/auth/login/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as reset } from '@/app/api/auth/reset-password/route';
import { GET as verifyEmail } from '@/app/api/auth/verify-email/route';
import { installDatabase } from '@/lib/db';
import { emailTokens, jobs, sessions, signUpHolds, users } from '@/lib/db/schema';
import { SIGN_UP_HOLD_MS } from '@/lib/server/accounts';
import { PASSWORD_RESET_EMAIL_JOB, resetLinkState, sendPasswordResetEmail } from '@/lib/server/accounts/password-reset';
import { hashPassword } from '@/lib/server/auth/passwords';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-reset-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const OLD_PASSWORD = 'old-velvet-password-1';
const NEW_PASSWORD = 'new-orchid-password-2';
const SAME_ANSWER = {
  message: 'If that address belongs to an account, we have sent it a link to reset your password. The link works for 1 hour.',
};

describe.each(ENGINES)('password reset on %s', (engine) => {
  let database: TestDatabase;
  let ipCounter = 0;
  /** A fresh client address per request, so the per-address limit only bites where a test means it to. */
  const ip = () => `198.51.100.${(ipCounter += 1) % 250}`;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
    installDatabase(database);
    resetLimiters();
  });
  afterAll(() => database.destroy());

  const resetMailsTo = (address: string) =>
    outbox(dataDir)
      .filter((m) => m.to.includes(address.toLowerCase()) && m.subject.startsWith('Reset your'))
      .map((m) => /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1]!);
  const noticesTo = (address: string) =>
    outbox(dataDir).filter((m) => m.to.includes(address) && m.subject.endsWith('password was changed'));

  async function member(username: string, { verified = true } = {}) {
    const email = `${username.toLowerCase()}@example.org`;
    const [user] = await database.db
      .insert(users)
      .values({
        username,
        email,
        passwordHash: await hashPassword(OLD_PASSWORD),
        dateOfBirth: '1990-01-01',
        emailVerifiedAt: verified ? new Date() : null,
      })
      .returning();
    // An unverified account is a sign-up still waiting, as register() leaves it (decision 041).
    if (!verified)
      await database.db.insert(signUpHolds).values({
        usernameKey: username.toLowerCase(),
        expiresAt: new Date(Date.now() + SIGN_UP_HOLD_MS),
        emailKey: email,
        passwordHash: user!.passwordHash,
      });
    return user!;
  }

  const logIn = (email: string, password: string) => call(login, '/api/auth/login', { json: { email, password }, ip: ip() });

  /** Runs the queued reset-email jobs by hand, as a worker would; returns how many ran. */
  async function runResetJobs(): Promise<number> {
    const queued = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, PASSWORD_RESET_EMAIL_JOB), eq(jobs.status, 'queued')));
    for (const job of queued) {
      await sendPasswordResetEmail(job, heldJobContext());
      await database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));
    }
    return queued.length;
  }

  async function askForLink(email: string): Promise<string> {
    const answer = await call(forgot, '/api/auth/forgot-password', { json: { email }, ip: ip() });
    expect(answer.status).toBe(200);
    await runResetJobs();
    return resetMailsTo(email).at(-1)!;
  }

  const redeem = (token: string, password = NEW_PASSWORD, confirmPassword = password) =>
    call(reset, '/api/auth/reset-password', { json: { token, password, confirmPassword }, ip: ip() });

  it('mails a single-use link valid for an hour; the new password works, the old one not, every session ends and the member is told', async () => {
    const user = await member('Forgetful');
    const first = await logIn(user.email, OLD_PASSWORD);
    const second = await logIn(user.email, OLD_PASSWORD);
    expect((await call(me, '/api/auth/me', { bearer: first.body.token as string })).status).toBe(200);

    const token = await askForLink('FORGETFUL@example.org');
    const mail = outbox(dataDir)
      .filter((m) => m.to.includes(user.email))
      .at(-1)!;
    expect(mail.subject).toBe('Reset your Chrysalis password');
    expect(mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`${ORIGIN}/reset-password?token=${token}`);
    const [stored] = await database.db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'reset_password')));
    // Only the SHA-256 is stored, and the link lives an hour.
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeGreaterThan(59 * 60_000);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    // Opening the page uses nothing.
    expect(await resetLinkState(token)).toBe('valid');
    expect(await resetLinkState(token)).toBe('valid');

    const done = await redeem(token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Your password has been reset. Please log in with your new password.' });
    expect(done.setCookie[0]).toMatch(/^chrysalis_session=;.*Max-Age=0/i);

    for (const session of [first, second])
      expect((await call(me, '/api/auth/me', { bearer: session.body.token as string })).status).toBe(401);
    expect(
      (await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).every((s) => s.revokedAt !== null),
    ).toBe(true);
    expect((await logIn(user.email, OLD_PASSWORD)).status).toBe(401);
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);
    const notices = noticesTo(user.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toBe('Your Chrysalis password was changed');
    expect(notices[0]!.text).toContain('/settings/security');

    // Used: the same link again is refused, with its own message, and changes nothing.
    const again = await redeem(token, 'third-password-xyz');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ field: 'token', reason: 'used', message: expect.stringMatching(/already been used/) });
    expect(await resetLinkState(token)).toBe('used');
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers an unknown address exactly as a known one, sends nothing, and queues the same work', async () => {
    await member('Known');
    const jobsBefore = (await database.db.select().from(jobs)).length;
    const known = await call(forgot, '/api/auth/forgot-password', { json: { email: 'known@example.org' }, ip: ip() });
    const unknown = await call(forgot, '/api/auth/forgot-password', { json: { email: 'nobody-at-all@example.org' }, ip: ip() });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual(SAME_ANSWER);
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    expect((await database.db.select().from(jobs)).length).toBe(jobsBefore + 2);
    expect(await runResetJobs()).toBe(2);
    expect(resetMailsTo('known@example.org')).toHaveLength(1);
    expect(outbox(dataDir).filter((m) => m.to.includes('nobody-at-all@example.org'))).toHaveLength(0);
  });

  it('takes about as long for an unknown address as for a known one', async () => {
    await member('Timed');
    const time = async (email: string) => {
      const started = performance.now();
      await call(forgot, '/api/auth/forgot-password', { json: { email }, ip: ip() });
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternating, with a fresh unknown address each time (each address has its own budget of 3 an hour).
    for (let i = 0; i < 3; i += 1) {
      known.push(await time('timed@example.org'));
      unknown.push(await time(`timed-nobody-${i}@example.org`));
    }
    // No mail is sent while answering (the job does that): the answers do the same database work.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(50);
    await runResetJobs();
  });

  it('refuses forged, expired and superseded links with their own messages, and the page says the same', async () => {
    const user = await member('Careful');
    for (const forged of ['not-a-real-token', 'x'.repeat(43), '']) {
      const refused = await redeem(forged);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/not valid/);
      expect(await resetLinkState(forged)).toBe('invalid');
    }
    const tooLong = await redeem('y'.repeat(500));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('This password reset link is not valid.');

    const older = await askForLink(user.email);
    const newer = await askForLink(user.email);
    expect(older).not.toBe(newer);
    const superseded = await redeem(older);
    expect(superseded.status).toBe(400);
    expect(superseded.body).toMatchObject({
      reason: 'expired',
      message: expect.stringMatching(/only the newest one you asked for works/),
    });

    await database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, user.id));
    const expired = await redeem(newer);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ reason: 'expired', message: expect.stringMatching(/has expired/) });
    expect(await resetLinkState(newer)).toBe('expired');
    expect((await logIn(user.email, OLD_PASSWORD)).status).toBe(200);
  });

  it('checks the new password with the sign-up rules and messages, and keeps the link for a second try', async () => {
    const user = await member('Picky');
    const token = await askForLink(user.email);
    for (const [password, confirm, message] of [
      ['', '', 'Password is required'],
      ['abc12', 'abc12', 'Password must be at least 6 characters'],
      [NEW_PASSWORD, '', 'Please confirm your password'],
      [NEW_PASSWORD, 'something-else', 'Passwords must match'],
      ['password123', 'password123', 'This password is too common and easy to guess. Please choose a different one.'],
      ['p'.repeat(129), 'p'.repeat(129), 'Password must be at most 128 characters'],
    ] as const) {
      const refused = await redeem(token, password, confirm);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(message);
    }
    expect(await resetLinkState(token)).toBe('valid');
    expect((await redeem(token)).status).toBe(200);
  });

  it('verifies an unverified account: the link proves the address', async () => {
    const user = await member('NeverVerified', { verified: false });
    expect((await logIn(user.email, OLD_PASSWORD)).status).toBe(403);
    const token = await askForLink(user.email);
    expect((await redeem(token)).status).toBe(200);
    const [after] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.emailVerifiedAt).not.toBeNull();
    expect((await logIn(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('sends a banned account no link, and refuses a link it had before the ban', async () => {
    const user = await member('Banished');
    const token = await askForLink(user.email);
    await database.db.update(users).set({ bannedAt: new Date(), banReason: 'test' }).where(eq(users.id, user.id));
    const refused = await redeem(token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Account is banned');
    expect(await resetLinkState(token)).toBe('banned');
    const [after] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(user.passwordHash);

    const before = resetMailsTo(user.email).length;
    const answer = await call(forgot, '/api/auth/forgot-password', { json: { email: user.email }, ip: ip() });
    expect(answer.body).toEqual(SAME_ANSWER);
    await runResetJobs();
    expect(resetMailsTo(user.email)).toHaveLength(before);
  });

  it('keeps reset links and verification links apart', async () => {
    const user = await member('TwoLinks', { verified: false });
    const token = await askForLink(user.email);
    // A reset link opened as a verification link is refused there and still works for its own page.
    const asVerification = await call(verifyEmail, `/api/auth/verify-email?token=${token}`);
    expect(asVerification.headers.get('location')).toMatch(/email-verification-failed/);
    expect(await resetLinkState(token)).toBe('valid');
    const [unverified] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(unverified!.emailVerifiedAt).toBeNull();

    // A verification link is no reset link.
    await database.db.insert(emailTokens).values({
      userId: user.id,
      purpose: 'verify_email',
      email: user.email,
      tokenHash: (await import('@/lib/server/accounts/verification')).hashToken('a-verification-token'),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await redeem('a-verification-token')).body.reason).toBe('invalid');
  });

  it('works once when used twice at the same moment', async () => {
    const user = await member('DoubleClick');
    const token = await askForLink(user.email);
    const answers = await Promise.all([redeem(token, 'first-choice-pw-1'), redeem(token, 'second-choice-pw-2')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? 'first-choice-pw-1' : 'second-choice-pw-2';
    expect((await logIn(user.email, winner)).status).toBe(200);
    expect(noticesTo(user.email)).toHaveLength(1);
  });

  it('refuses a link mailed to an address the account no longer has', async () => {
    const user = await member('Moved');
    const token = await askForLink(user.email);
    await database.db.update(users).set({ email: 'moved-elsewhere@example.org' }).where(eq(users.id, user.id));
    expect((await redeem(token)).body.reason).toBe('invalid');
  });

  it('limits requests per email (3 an hour) for known and unknown addresses alike, with the same 429', async () => {
    await member('Flooded');
    const answers = async (email: string) => {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 4; i += 1) {
        last = await call(forgot, '/api/auth/forgot-password', { json: { email }, ip: ip() });
        statuses.push(last.status);
      }
      return { statuses, last: last! };
    };
    const known = await answers('flooded@example.org');
    const unknown = await answers('flooded-nobody@example.org');
    expect(known.statuses).toEqual([200, 200, 200, 429]);
    expect(unknown.statuses).toEqual(known.statuses);
    expect(known.last.body.message).toMatch(
      /^Too many password reset emails were asked for this address\. Please wait (59 minutes|60 minutes|1 hour) and try again\.$/,
    );
    expect(known.last.headers.get('retry-after')).toMatch(/^\d+$/);
    await runResetJobs();
    expect(resetMailsTo('flooded@example.org')).toHaveLength(3);
  });

  it('limits requests per client address (10 an hour), whatever the emails', async () => {
    const address = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push(
        (await call(forgot, '/api/auth/forgot-password', { json: { email: `probe-${i}@example.org` }, ip: address })).status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Another address is not affected.
    expect(
      (await call(forgot, '/api/auth/forgot-password', { json: { email: 'probe-x@example.org' }, ip: '203.0.113.78' })).status,
    ).toBe(200);
    await runResetJobs();
  });

  it('refuses bad bodies with messages, never 500', async () => {
    expect((await call(forgot, '/api/auth/forgot-password', { json: { email: 'not-an-email' }, ip: ip() })).body.message).toBe(
      'Invalid email address',
    );
    expect((await call(forgot, '/api/auth/forgot-password', { json: {}, ip: ip() })).body.message).toBe('Email is required');
    const nul = await call(reset, '/api/auth/reset-password', {
      json: { token: 'abc\u0000</script >', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      ip: ip(),
    });
    expect(nul.status).toBe(400);
    const wrongType = await call(reset, '/api/auth/reset-password', {
      json: { token: 5, password: [], confirmPassword: {} },
      ip: ip(),
    });
    expect(wrongType.status).toBe(400);
  });
});
