/**
 * Two-factor authentication (decision 018): setup and confirmation, the
 * login's code step (wrong, reused and expired codes and challenges),
 * recovery codes (each once), new recovery codes, turning it off, and admin
 * tools refused without it — through the real routes on both engines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as stats } from '@/app/api/admin/stats/route';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as loginTwoFactor } from '@/app/api/auth/login/two-factor/route';
import { GET as me } from '@/app/api/auth/me/route';
import { DELETE as endSessions } from '@/app/api/users/settings/sessions/route';
import { PUT as changePassword } from '@/app/api/users/settings/password/route';
import { POST as confirm } from '@/app/api/users/settings/two-factor/confirm/route';
import { POST as regenerate } from '@/app/api/users/settings/two-factor/recovery-codes/route';
import { DELETE as turnOff, GET as status } from '@/app/api/users/settings/two-factor/route';
import { POST as setup } from '@/app/api/users/settings/two-factor/setup/route';
import { installDatabase } from '@/lib/db';
import { sessions, twoFactorRecoveryCodes, users } from '@/lib/db/schema';
import { END_SESSIONS_MESSAGES } from '@/lib/server/accounts';
import { WRONG_CURRENT_PASSWORD } from '@/lib/server/accounts/current-password';
import { TWO_FACTOR_MESSAGES } from '@/lib/server/accounts/two-factor';
import { TWO_FACTOR_ENROL_MESSAGE, TWO_FACTOR_LOGIN_MESSAGE } from '@/lib/server/auth/actor';
import { resolveToken } from '@/lib/server/auth/session';
import { CHALLENGE_TTL_SECONDS, sealChallenge, TOTP_PERIOD_SECONDS } from '@/lib/server/auth/two-factor-codes';
import { resetLimiters } from '@/lib/server/rate-limit';
import { getAdminStats } from '@/lib/server/admin/stats';
import { forPage } from '@/lib/server/page-access';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { totpNow, verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-2fa-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const step = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);

describe.each(ENGINES)('two-factor authentication on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
  });
  // Each test from its own address, so one test's wrong codes do not spend another's per-address budget.
  let address = 0;
  beforeEach(() => {
    resetLimiters();
    address += 1;
  });
  afterAll(() => database.destroy());

  /** A member with two-factor turned on through the API; returns their secret, recovery codes and the token they enrolled with. */
  async function enrolled(username: string) {
    const token = await verifiedMemberToken(database.db, username);
    const password = `${username}-password-1`;
    const started = await call(setup, '/api/users/settings/two-factor/setup', {
      json: { currentPassword: password },
      bearer: token,
    });
    expect(started.status).toBe(200);
    const secret = started.body.secret as string;
    const confirmed = await call(confirm, '/api/users/settings/two-factor/confirm', {
      json: { currentPassword: password, code: totpNow(secret) },
      bearer: token,
    });
    expect(confirmed.status).toBe(200);
    return { token, secret, recoveryCodes: confirmed.body.recoveryCodes as string[], email: `${username}@example.org`, password };
  }

  const passwordStep = (email: string, password: string) =>
    call(login, '/api/auth/login', { json: { email, password }, ip: `198.18.7.${address}` });
  const codeStep = (challenge: unknown, code: string) =>
    call(loginTwoFactor, '/api/auth/login/two-factor', { json: { challenge, code }, ip: `198.18.7.${address}` });
  /** Forgets the last accepted time step (so a test can log in twice within one 30-second step). */
  const forgetLastStep = (email: string) =>
    database.db.update(users).set({ twoFactorLastStep: null }).where(eq(users.email, email));

  it('sets up: a secret as text, URI and QR; a wrong code is refused; the right one turns it on with 10 recovery codes, shown once', async () => {
    const token = await verifiedMemberToken(database.db, 'tf_setup');
    const currentPassword = 'tf_setup-password-1';
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
      enabled: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    // Confirming before setup: nothing is waiting.
    expect(
      await call(confirm, '/api/users/settings/two-factor/confirm', { json: { currentPassword, code: '123456' }, bearer: token }),
    ).toMatchObject({ status: 400, body: { message: TWO_FACTOR_MESSAGES.noSetup } });
    const started = await call(setup, '/api/users/settings/two-factor/setup', { json: { currentPassword }, bearer: token });
    expect(started.status).toBe(200);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect((started.body.qr as { size: number; path: string }).path).toMatch(/^M\d+ \d+h1v1h-1z/);
    // Stored sealed, never as the secret itself.
    const [row] = await database.db
      .select()
      .from(users)
      .where(eq(users.id, await userId(database.db, 'tf_setup')));
    expect(row!.twoFactorPendingSecret).not.toContain(started.body.secret as string);
    expect(row!.twoFactorEnabledAt).toBeNull();

    const secret = started.body.secret as string;
    const wrong = String((Number(totpNow(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(
      await call(confirm, '/api/users/settings/two-factor/confirm', { json: { currentPassword, code: wrong }, bearer: token }),
    ).toMatchObject({ status: 400, body: { message: TWO_FACTOR_MESSAGES.wrongCode } });
    expect(
      await call(confirm, '/api/users/settings/two-factor/confirm', { json: { currentPassword, code: 'abc' }, bearer: token }),
    ).toMatchObject({ status: 400 });
    expect(
      await call(confirm, '/api/users/settings/two-factor/confirm', {
        json: { currentPassword, code: '12\u00003456' },
        bearer: token,
      }),
    ).toMatchObject({ status: 400 });
    const confirmed = await call(confirm, '/api/users/settings/two-factor/confirm', {
      json: { currentPassword, code: totpNow(secret) },
      bearer: token,
    });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await database.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, row!.id));
    expect(stored).toHaveLength(10);
    for (const { codeHash } of stored) expect(codes.some((code) => codeHash.includes(code.replace('-', '')))).toBe(false);
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // On is on: no second setup, no second confirmation.
    expect(await call(setup, '/api/users/settings/two-factor/setup', { json: { currentPassword }, bearer: token })).toMatchObject(
      { status: 409, body: { message: TWO_FACTOR_MESSAGES.alreadyOn } },
    );
    expect(
      await call(confirm, '/api/users/settings/two-factor/confirm', {
        json: { currentPassword, code: totpNow(secret) },
        bearer: token,
      }),
    ).toMatchObject({ status: 409 });
  });

  it('logs in with a code after the password: no session before it; wrong and reused codes are refused', async () => {
    const { secret, email, password } = await enrolled('tf_login');
    const first = await passwordStep(email, password);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRequired: true, message: TWO_FACTOR_MESSAGES.loginNeedsCode });
    expect(first.body.token).toBeUndefined();
    expect(first.headers.get('set-cookie')).toBeNull();
    // The challenge is no session token.
    expect(await resolveToken(first.body.challenge as string, 'bearer', false)).toMatchObject({ kind: 'visitor' });
    expect((await call(me, '/api/auth/me', { bearer: first.body.challenge as string })).status).toBe(401);

    const wrong = String((Number(totpNow(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    expect(await codeStep(first.body.challenge, wrong)).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongCode },
    });
    // The code of the step last accepted (as confirming setup just did) cannot log in; the next step's can (within the window).
    const now = step();
    await database.db.update(users).set({ twoFactorLastStep: now }).where(eq(users.email, email));
    expect(await codeStep(first.body.challenge, totpNow(secret, now))).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.reusedCode },
    });
    const done = await codeStep(first.body.challenge, totpNow(secret, now + 1));
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ username: 'tf_login' });
    expect(done.headers.get('set-cookie')).toContain('chrysalis_session=');
    const actor = await resolveToken(done.body.token as string, 'bearer', false);
    expect(actor).toMatchObject({ kind: 'member', secondFactor: true });
    // The same code again, with a fresh password step: refused as reused, and so is an older one.
    const again = await passwordStep(email, password);
    expect(await codeStep(again.body.challenge, totpNow(secret, now + 1))).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.reusedCode },
    });
    expect(await codeStep(again.body.challenge, totpNow(secret, now))).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.reusedCode },
    });
    // Further ahead than one step is outside the window.
    expect(await codeStep(again.body.challenge, totpNow(secret, step() + 3))).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongCode },
    });
  });

  it('refuses expired, forged and voided challenges with a sentence that says to log in again', async () => {
    const { secret, email, password } = await enrolled('tf_challenge');
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    const expired = await sealChallenge(user!, Date.now() - (CHALLENGE_TTL_SECONDS + 1) * 1000);
    expect(await codeStep(expired, totpNow(secret, step() + 1))).toMatchObject({
      status: 401,
      body: { message: TWO_FACTOR_MESSAGES.expiredChallenge, restartLogin: true },
    });
    expect(await codeStep('Fe26.2**forged', totpNow(secret, step() + 1))).toMatchObject({
      status: 401,
      body: { message: TWO_FACTOR_MESSAGES.invalidChallenge },
    });
    // A session token is not a challenge.
    const session = await verifiedMemberToken(database.db, 'tf_other');
    expect(await codeStep(session, totpNow(secret, step() + 1))).toMatchObject({
      status: 401,
      body: { message: TWO_FACTOR_MESSAGES.invalidChallenge },
    });
    // Missing fields.
    expect(await call(loginTwoFactor, '/api/auth/login/two-factor', { json: { code: '123456' } })).toMatchObject({ status: 400 });
    expect(await call(loginTwoFactor, '/api/auth/login/two-factor', { json: { challenge: 'x' } })).toMatchObject({ status: 400 });
    // A password change between the steps voids the challenge.
    const first = await passwordStep(email, password);
    await database.db
      .update(users)
      .set({ passwordHash: `${user!.passwordHash}x` })
      .where(eq(users.id, user!.id));
    expect(await codeStep(first.body.challenge, totpNow(secret, step() + 1))).toMatchObject({
      status: 401,
      body: { message: TWO_FACTOR_MESSAGES.invalidChallenge },
    });
    await database.db.update(users).set({ passwordHash: user!.passwordHash }).where(eq(users.id, user!.id));
    // Nothing was spent by the refusals: a good code still works.
    const again = await passwordStep(email, password);
    expect((await codeStep(again.body.challenge, totpNow(secret, step() + 1))).status).toBe(200);
  });

  it('takes each recovery code once, and tells a used one from a wrong one', async () => {
    const { recoveryCodes, email, password, token } = await enrolled('tf_recovery');
    const first = await passwordStep(email, password);
    // Typed in capitals with spaces instead of the hyphen: still the code.
    const done = await codeStep(first.body.challenge, recoveryCodes[0]!.toUpperCase().replace('-', ' '));
    expect(done.status).toBe(200);
    expect(await resolveToken(done.body.token as string, 'bearer', false)).toMatchObject({ secondFactor: true });
    const second = await passwordStep(email, password);
    expect(await codeStep(second.body.challenge, recoveryCodes[0]!)).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.usedRecoveryCode },
    });
    expect(await codeStep(second.body.challenge, 'zzzzz-zzzzz')).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongRecoveryCode },
    });
    // Another member's code is not this member's.
    const other = await enrolled('tf_recovery_other');
    expect(await codeStep(second.body.challenge, other.recoveryCodes[0]!)).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongRecoveryCode },
    });
    // Two logins racing with one code: one wins.
    const [a, b] = await Promise.all([
      codeStep(second.body.challenge, recoveryCodes[1]!),
      codeStep(second.body.challenge, recoveryCodes[1]!),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
      recoveryCodesLeft: 8,
    });
  });

  it('limits wrong codes per member like logins', async () => {
    const { secret, email, password } = await enrolled('tf_limit');
    const first = await passwordStep(email, password);
    const wrong = String((Number(totpNow(secret)) + 250_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 10; i++) expect((await codeStep(first.body.challenge, wrong)).status).toBe(400);
    const limited = await codeStep(first.body.challenge, totpNow(secret, step() + 1));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many wrong codes\. Please wait \d+ minutes? and try again\.$/);
  });

  it('gives new recovery codes for an authenticator code (the old ones stop working), and turns off with the password and a code', async () => {
    const { secret, recoveryCodes, email, password, token } = await enrolled('tf_manage');
    // A recovery code is no proof of the app for new codes.
    expect(
      await call(regenerate, '/api/users/settings/two-factor/recovery-codes', {
        json: { currentPassword: password, code: recoveryCodes[0] },
        bearer: token,
      }),
    ).toMatchObject({ status: 400 });
    const fresh = await call(regenerate, '/api/users/settings/two-factor/recovery-codes', {
      json: { currentPassword: password, code: totpNow(secret, step() + 1) },
      bearer: token,
    });
    expect(fresh.status).toBe(200);
    const newCodes = fresh.body.recoveryCodes as string[];
    expect(newCodes).toHaveLength(10);
    const first = await passwordStep(email, password);
    expect(await codeStep(first.body.challenge, recoveryCodes[2]!)).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongRecoveryCode },
    });

    expect(
      await call(turnOff, '/api/users/settings/two-factor', {
        method: 'DELETE',
        json: { currentPassword: 'wrong-password', code: newCodes[0] },
        bearer: token,
      }),
    ).toMatchObject({
      status: 400,
      body: { message: WRONG_CURRENT_PASSWORD, field: 'currentPassword' },
    });
    expect(
      await call(turnOff, '/api/users/settings/two-factor', {
        method: 'DELETE',
        json: { currentPassword: password, code: 'zzzzz-zzzzz' },
        bearer: token,
      }),
    ).toMatchObject({
      status: 400,
      body: { message: TWO_FACTOR_MESSAGES.wrongRecoveryCode },
    });
    expect(
      await call(turnOff, '/api/users/settings/two-factor', {
        method: 'DELETE',
        json: { currentPassword: password },
        bearer: token,
      }),
    ).toMatchObject({ status: 400 });
    // Still on after the refusals.
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({ enabled: true });
    // A lost authenticator: a recovery code turns it off.
    expect(
      await call(turnOff, '/api/users/settings/two-factor', {
        method: 'DELETE',
        json: { currentPassword: password, code: newCodes[0] },
        bearer: token,
      }),
    ).toMatchObject({
      status: 200,
      body: { message: TWO_FACTOR_MESSAGES.disabled },
    });
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    expect(
      await database.db
        .select()
        .from(twoFactorRecoveryCodes)
        .where(eq(twoFactorRecoveryCodes.userId, await userId(database.db, 'tf_manage'))),
    ).toHaveLength(0);
    // Logging in is the password alone again.
    expect((await passwordStep(email, password)).body.token).toEqual(expect.any(String));
  });

  it('refuses admin tools to an admin without two-factor, to a token from before enrolment and to a password-only login; admin pages send them to enrol', async () => {
    const token = await verifiedMemberToken(database.db, 'tf_admin');
    const id = await userId(database.db, 'tf_admin');
    await database.db.update(users).set({ isAdmin: true }).where(eq(users.id, id));
    expect(await call(stats, '/api/admin/stats', { bearer: token })).toMatchObject({
      status: 403,
      body: { message: TWO_FACTOR_ENROL_MESSAGE, twoFactorRequired: true, twoFactor: 'enrol' },
    });
    expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
      required: true,
      adminGap: 'enrol',
    });
    const notEnrolled = await resolveToken(token, 'bearer', false);
    await expect(forPage(getAdminStats(notEnrolled, 14), '/admin')).rejects.toMatchObject({
      digest: expect.stringContaining('/settings/security?next=%2Fadmin'),
    });

    // Enrols with the token it has: that token's login had no code, so it stays a member's token.
    const started = await call(setup, '/api/users/settings/two-factor/setup', {
      json: { currentPassword: 'tf_admin-password-1' },
      bearer: token,
    });
    const secret = started.body.secret as string;
    const confirmed = await call(confirm, '/api/users/settings/two-factor/confirm', {
      json: { currentPassword: 'tf_admin-password-1', code: totpNow(secret) },
      bearer: token,
    });
    expect(confirmed.body.message).toBe(TWO_FACTOR_MESSAGES.enabledAdmin);
    expect(await call(stats, '/api/admin/stats', { bearer: token })).toMatchObject({
      status: 403,
      body: { message: TWO_FACTOR_LOGIN_MESSAGE, twoFactorRequired: true, twoFactor: 'login' },
    });
    await expect(forPage(getAdminStats(await resolveToken(token, 'bearer', false), 14), '/admin')).rejects.toMatchObject({
      digest: expect.stringContaining('/settings/security'),
    });
    // The session cookie of that login is refused too.
    expect((await call(stats, '/api/admin/stats', { cookie: `chrysalis_session=${token}` })).status).toBe(403);

    // Logging in with the code makes an admin token; admins cannot turn two-factor off.
    const first = await passwordStep('tf_admin@example.org', 'tf_admin-password-1');
    const done = await codeStep(first.body.challenge, totpNow(secret, step() + 1));
    expect(done.status).toBe(200);
    expect((await call(stats, '/api/admin/stats', { bearer: done.body.token as string })).status).toBe(200);
    expect(
      await call(turnOff, '/api/users/settings/two-factor', {
        method: 'DELETE',
        json: { currentPassword: 'tf_admin-password-1', code: 'abcde-23456' },
        bearer: done.body.token as string,
      }),
    ).toMatchObject({
      status: 409,
      body: { message: TWO_FACTOR_MESSAGES.adminCannotTurnOff },
    });
    // A password change keeps this session (and its second factor) and ends the others.
    expect(
      (
        await call(changePassword, '/api/users/settings/password', {
          method: 'PUT',
          json: {
            currentPassword: 'tf_admin-password-1',
            newPassword: 'tf_admin-password-2',
            confirmNewPassword: 'tf_admin-password-2',
          },
          bearer: done.body.token as string,
        })
      ).status,
    ).toBe(200);
    expect((await call(stats, '/api/admin/stats', { bearer: done.body.token as string })).status).toBe(200);
    const [live] = await database.db.select().from(sessions).where(eq(sessions.userId, id));
    expect(live).toBeDefined();
    await forgetLastStep('tf_admin@example.org');
  });

  describe('a stolen session without the password', () => {
    const wrongPassword = 'not-my-password-9';
    /** Each change as a thief with the token sends it: no password, and a guessed one. */
    const withoutPassword = (code: string) => [{ code }, { currentPassword: wrongPassword, code }];

    it('cannot start or confirm a setup: nothing is stored, the owner is not locked out, an admin is not enrolled for the thief', async () => {
      const token = await verifiedMemberToken(database.db, 'tf_thief_setup');
      const id = await userId(database.db, 'tf_thief_setup');
      await database.db.update(users).set({ isAdmin: true }).where(eq(users.id, id));
      expect(await call(setup, '/api/users/settings/two-factor/setup', { json: {}, bearer: token })).toMatchObject({
        status: 400,
        body: { message: 'Current password is required' },
      });
      expect(
        await call(setup, '/api/users/settings/two-factor/setup', { json: { currentPassword: wrongPassword }, bearer: token }),
      ).toMatchObject({
        status: 400,
        body: { message: WRONG_CURRENT_PASSWORD, field: 'currentPassword' },
      });
      const [untouched] = await database.db.select().from(users).where(eq(users.id, id));
      expect(untouched!.twoFactorPendingSecret).toBeNull();
      // A setup the owner started: the thief who sees the key still cannot confirm it.
      const started = await call(setup, '/api/users/settings/two-factor/setup', {
        json: { currentPassword: 'tf_thief_setup-password-1' },
        bearer: token,
      });
      const secret = started.body.secret as string;
      for (const json of withoutPassword(totpNow(secret))) {
        expect(await call(confirm, '/api/users/settings/two-factor/confirm', { json, bearer: token })).toMatchObject({
          status: 400,
          body: { message: json.currentPassword ? WRONG_CURRENT_PASSWORD : 'Current password is required' },
        });
      }
      expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({ enabled: false });
      // The owner logs in with the password alone.
      expect((await passwordStep('tf_thief_setup@example.org', 'tf_thief_setup-password-1')).body.token).toEqual(
        expect.any(String),
      );
    });

    it('cannot get new recovery codes or turn two-factor off: the old codes still work', async () => {
      const { token, secret, recoveryCodes, email, password } = await enrolled('tf_thief_manage');
      for (const json of withoutPassword(totpNow(secret, step() + 1))) {
        const refused = await call(regenerate, '/api/users/settings/two-factor/recovery-codes', { json, bearer: token });
        expect(refused).toMatchObject({
          status: 400,
          body: { message: json.currentPassword ? WRONG_CURRENT_PASSWORD : 'Current password is required' },
        });
        expect(refused.body.recoveryCodes).toBeUndefined();
      }
      for (const json of withoutPassword(recoveryCodes[0]!)) {
        expect(await call(turnOff, '/api/users/settings/two-factor', { method: 'DELETE', json, bearer: token })).toMatchObject({
          status: 400,
          body: { message: json.currentPassword ? WRONG_CURRENT_PASSWORD : 'Current password is required' },
        });
      }
      expect((await call(status, '/api/users/settings/two-factor', { bearer: token })).body).toMatchObject({
        enabled: true,
        recoveryCodesLeft: 10,
      });
      const first = await passwordStep(email, password);
      expect((await codeStep(first.body.challenge, recoveryCodes[0]!)).status).toBe(200);
    });

    it('spends the per-member budget for wrong passwords across every change: then 429 with Retry-After, even for the right one', async () => {
      const { token, password } = await enrolled('tf_thief_budget');
      for (let i = 0; i < 5; i += 1) {
        const path = i % 2 ? '/api/users/settings/two-factor/recovery-codes' : '/api/users/settings/two-factor';
        const route = i % 2 ? regenerate : turnOff;
        expect(
          (
            await call(route, path, {
              method: i % 2 ? 'POST' : 'DELETE',
              json: { currentPassword: `guess-${i}`, code: '123456' },
              bearer: token,
            })
          ).status,
        ).toBe(400);
      }
      const limited = await call(regenerate, '/api/users/settings/two-factor/recovery-codes', {
        json: { currentPassword: password, code: '123456' },
        bearer: token,
      });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.message).toMatch(/^Too many wrong current passwords\. Please wait \d+ minutes? and try again\.$/);
    });
  });

  it('mails the member on every change: turned on, recovery codes replaced, turned off', async () => {
    // One outbox for both engines: a name of this engine's own.
    const name = `tf_mail_${engine}`;
    const mails = () => outbox(dataDir).filter((mail) => mail.to.includes(`${name}@example.org`));
    const { token, secret, password } = await enrolled(name);
    expect(mails().map((mail) => mail.subject)).toEqual(['Chrysalis: two-factor authentication was turned on']);
    expect(
      (
        await call(regenerate, '/api/users/settings/two-factor/recovery-codes', {
          json: { currentPassword: password, code: totpNow(secret, step() + 1) },
          bearer: token,
        })
      ).status,
    ).toBe(200);
    expect(mails().at(-1)!.subject).toBe('Chrysalis: your recovery codes were replaced');
    await forgetLastStep(`${name}@example.org`);
    expect(
      (
        await call(turnOff, '/api/users/settings/two-factor', {
          method: 'DELETE',
          json: { currentPassword: password, code: totpNow(secret) },
          bearer: token,
        })
      ).status,
    ).toBe(200);
    const off = mails().at(-1)!;
    expect(off.subject).toBe('Chrysalis: two-factor authentication was turned off');
    const text = off.raw.replace(/=\r?\n/g, '');
    expect(text).toContain("If this wasn't you");
    expect(text).toContain(`${ORIGIN}/forgot-password`);
    // Refused changes send nothing.
    expect(mails()).toHaveLength(3);
  });

  it('ends every other session, or all of them, from Security settings', async () => {
    const kept = await verifiedMemberToken(database.db, 'tf_sessions');
    const login = () =>
      passwordStep('tf_sessions@example.org', 'tf_sessions-password-1').then((answer) => answer.body.token as string);
    const [phone, laptop] = [await login(), await login()];
    const ended = await call(endSessions, '/api/users/settings/sessions', {
      method: 'DELETE',
      json: { which: 'others' },
      bearer: kept,
    });
    expect(ended).toMatchObject({ status: 200, body: { message: END_SESSIONS_MESSAGES.others, loggedOut: false } });
    expect(ended.headers.get('set-cookie')).toBeNull();
    for (const token of [phone, laptop]) expect((await call(me, '/api/auth/me', { bearer: token })).status).toBe(401);
    expect((await call(me, '/api/auth/me', { bearer: kept })).status).toBe(200);

    const another = await login();
    const all = await call(endSessions, '/api/users/settings/sessions', {
      method: 'DELETE',
      json: { which: 'all' },
      cookie: `chrysalis_session=${kept}`,
      headers: { origin: ORIGIN },
    });
    expect(all).toMatchObject({ status: 200, body: { message: END_SESSIONS_MESSAGES.all, loggedOut: true } });
    expect(all.headers.get('set-cookie')).toMatch(/chrysalis_session=;.*Max-Age=0/i);
    for (const token of [kept, another]) expect((await call(me, '/api/auth/me', { bearer: token })).status).toBe(401);
    expect(
      await call(endSessions, '/api/users/settings/sessions', {
        method: 'DELETE',
        json: { which: 'some' },
        bearer: await login(),
      }),
    ).toMatchObject({ status: 400 });
  });
});
