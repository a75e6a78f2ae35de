import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';

import { GET as verifyEmail } from '@/app/api/auth/verify-email/route';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as logout } from '@/app/api/auth/logout/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as register } from '@/app/api/auth/register/route';
import { POST as resend } from '@/app/api/auth/resend-verification/route';
import { PUT as changeEmail } from '@/app/api/users/settings/email/route';
import { PUT as changePassword } from '@/app/api/users/settings/password/route';
import { PUT as preferences } from '@/app/api/users/settings/preferences/route';
import { installDatabase } from '@/lib/db';
import { emailTokens, signUpHolds, users } from '@/lib/db/schema';
import { SIGN_UP_HOLD_MS } from '@/lib/server/accounts';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN, outbox, registrationForm } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

// Configuration is read once per test file: one data dir (outbox, avatars) for both engines.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-accounts-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('accounts on %s', (engine) => {
  let database: TestDatabase;
  let ipCounter = 0;
  /** A fresh client address per test, so rate limits only bite where a test means them to. */
  const ip = () => `198.51.100.${(ipCounter += 1)}`;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
    installDatabase(database);
    resetLimiters();
  });
  afterAll(() => database.destroy());

  const mailsTo = (address: string) => outbox(dataDir).filter((m) => m.to.includes(address));

  async function registerAndVerify(username: string, email: string, password = 'velvet-chrysalis-42') {
    const created = await call(register, '/api/auth/register', {
      form: registrationForm({ username, email, password, confirmPassword: password }),
      ip: ip(),
    });
    expect(created.status).toBe(201);
    const link = mailsTo(email).at(-1)!.link!;
    const verified = await call(verifyEmail, link.replace(ORIGIN, ''));
    expect(verified.headers.get('location')).toBe(`${ORIGIN}/email-verified`);
    const loggedIn = await call(login, '/api/auth/login', { json: { email, password }, ip: ip() });
    expect(loggedIn.status).toBe(200);
    return { token: loggedIn.body.token as string, cookie: loggedIn.setCookie[0]!.split(';')[0]! };
  }

  describe('registration and verification', () => {
    it('registers, emails a single-use link, verifies, and then logs in', async () => {
      const response = await call(register, '/api/auth/register', { form: registrationForm(), ip: ip() });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ message: 'Registration successful! Please check your email to verify your account.' });

      const [mail] = mailsTo('new.member@example.org');
      expect(mail?.subject).toBe('Verify your email for Chrysalis');
      expect(mail?.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail?.raw).toMatch(/Content-Type: text\/html/);
      expect(mail?.link).toBeDefined();

      const [stored] = await database.db.select().from(users).where(eq(users.email, 'new.member@example.org'));
      expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(stored?.emailVerifiedAt).toBeNull();

      const beforeVerifying = await call(login, '/api/auth/login', {
        json: { email: 'new.member@example.org', password: 'velvet-chrysalis-42' },
        ip: ip(),
      });
      expect(beforeVerifying.status).toBe(403);
      expect(beforeVerifying.body).toMatchObject({
        needsVerification: true,
        message: expect.stringMatching(/verify your email/),
      });

      const verified = await call(verifyEmail, mail!.link!.replace(ORIGIN, ''));
      expect(verified.status).toBe(303);
      expect(verified.headers.get('location')).toBe(`${ORIGIN}/email-verified`);
      // A second open (a mail scanner, a double click) still lands on success for a verified address.
      expect((await call(verifyEmail, mail!.link!.replace(ORIGIN, ''))).headers.get('location')).toBe(`${ORIGIN}/email-verified`);

      const loggedIn = await call(login, '/api/auth/login', {
        json: { email: 'NEW.member@example.org', password: 'velvet-chrysalis-42' },
        ip: ip(),
      });
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body.user).toMatchObject({
        username: 'NewMember',
        email: 'new.member@example.org',
        isAdmin: false,
        isVIP: false,
        autoPlayVideos: true,
        tasks: 0,
        lastTaskCompleted: null,
      });
      expect(typeof loggedIn.body.token).toBe('string');
      expect(loggedIn.setCookie[0]).toMatch(/^chrysalis_session=.+; Path=\/; .*HttpOnly/i);
      expect(loggedIn.setCookie[0]).toMatch(/SameSite=lax/i);
    });

    it('sends bad, tampered and expired links to the failure page', async () => {
      expect((await call(verifyEmail, '/api/auth/verify-email?token=not-a-real-token')).headers.get('location')).toBe(
        `${ORIGIN}/email-verification-failed`,
      );
      expect((await call(verifyEmail, '/api/auth/verify-email')).headers.get('location')).toBe(
        `${ORIGIN}/email-verification-failed`,
      );

      await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'Expiring', email: 'expiring@example.org' }),
        ip: ip(),
      });
      const link = mailsTo('expiring@example.org')[0]!.link!;
      await database.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) });
      const expired = await call(verifyEmail, link.replace(ORIGIN, ''));
      expect(expired.headers.get('location')).toBe(`${ORIGIN}/email-verification-failed?email=expiring%40example.org`);
      const [user] = await database.db.select().from(users).where(eq(users.email, 'expiring@example.org'));
      expect(user?.emailVerifiedAt).toBeNull();
    });

    it.each([
      [{ username: '' }, 'Username is required'],
      [{ username: 'ab' }, 'Username must be at least 3 characters'],
      [{ username: 'x'.repeat(31) }, 'Username must be at most 30 characters'],
      [{ username: 'bad name!' }, 'Username can only contain letters, numbers, underscores (_), dots (.) and hyphens (-)'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Invalid email address'],
      [{ password: '', confirmPassword: '' }, 'Password is required'],
      [{ password: 'abc12', confirmPassword: 'abc12' }, 'Password must be at least 6 characters'],
      [{ confirmPassword: '' }, 'Please confirm your password'],
      [{ confirmPassword: 'something-else' }, 'Passwords must match'],
      [{ dateOfBirth: '' }, 'Date of birth is required'],
      [{ dateOfBirth: '2999-01-01' }, 'Date of birth cannot be in the future'],
      [{ dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01` }, 'You must be at least 18 years old'],
      [
        { password: 'password123', confirmPassword: 'password123' },
        'This password is too common and easy to guess. Please choose a different one.',
      ],
    ])('refuses %p with %p and stores nothing', async (change, message) => {
      const email = `refused-${Math.random().toString(36).slice(2)}@example.org`;
      const response = await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'Refused_1', email, ...change }),
        ip: ip(),
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
      expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
      expect(mailsTo(email)).toHaveLength(0);
    });

    it('answers 409 for a username taken in any letter case', async () => {
      await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'Taken.Name', email: 'taken@example.org' }),
        ip: ip(),
      });
      const sameName = await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'taken.name', email: 'other@example.org' }),
        ip: ip(),
      });
      expect(sameName.status).toBe(409);
      expect(sameName.body.message).toBe('That username is already taken. Please choose another.');
    });

    describe('a sign-up with an email that already has an account', () => {
      const signUp = (username: string, email: string, extra: Record<string, string | Blob> = {}) =>
        call(register, '/api/auth/register', { form: registrationForm({ username, email, ...extra }), ip: ip() });
      const avatars = () => {
        try {
          return readdirSync(path.join(dataDir, 'media', 'avatars'));
        } catch {
          return [];
        }
      };
      const photo = () =>
        sharp({ create: { width: 80, height: 80, channels: 3, background: '#6b4fff' } })
          .png()
          .toBuffer();

      it('gets the answer a new account gets, makes no account, and the owner is told instead', async () => {
        await registerAndVerify('Owner1', 'owner@example.org');
        const mailsBefore = mailsTo('owner@example.org').length;

        const fresh = await signUp('Newcomer1', 'newcomer@example.org');
        const existing = await signUp('Prober1', 'OWNER@example.org');
        expect(existing.status).toBe(fresh.status);
        expect(existing.status).toBe(201);
        expect(existing.body).toEqual(fresh.body);
        expect(existing.body).toEqual({ message: 'Registration successful! Please check your email to verify your account.' });
        expect([...existing.headers.keys()].sort()).toEqual([...fresh.headers.keys()].sort());
        expect(existing.headers.get('content-length')).toBe(fresh.headers.get('content-length'));

        expect(await database.db.select().from(users).where(eq(users.username, 'Prober1'))).toHaveLength(0);
        const notices = mailsTo('owner@example.org').slice(mailsBefore);
        expect(notices).toHaveLength(1);
        expect(notices[0]!.subject).toBe('Someone tried to sign up for Chrysalis with your email');
        expect(notices[0]!.raw.replace(/=\r?\n/g, '')).toContain(`${ORIGIN}/login`);
        expect(notices[0]!.link).toBeUndefined(); // no verification link: nothing to confirm
      });

      it('checks and then drops the photo as for a new account, and refuses a bad one alike', async () => {
        await registerAndVerify('Owner2', 'owner2@example.org');
        const before = avatars().length;
        const png = new File([await photo()], 'me.png', { type: 'image/png' });
        expect((await signUp('Prober2', 'owner2@example.org', { profilePhoto: png })).status).toBe(201);
        expect(avatars()).toHaveLength(before);

        const notAnImage = () => new File(['not an image'], 'me.png', { type: 'image/png' });
        const badForNew = await signUp('Prober3', 'nobody-yet@example.org', { profilePhoto: notAnImage() });
        const badForExisting = await signUp('Prober4', 'owner2@example.org', { profilePhoto: notAnImage() });
        expect(badForExisting.status).toBe(400);
        expect(badForExisting.body).toEqual(badForNew.body);
      });

      it('tells the owner at most once an hour, answering the same every time', async () => {
        await registerAndVerify('Owner3', 'owner3@example.org');
        const mailsBefore = mailsTo('owner3@example.org').length;
        for (let i = 0; i < 3; i += 1) expect((await signUp(`Repeat${i}`, 'owner3@example.org')).status).toBe(201);
        expect(mailsTo('owner3@example.org').length - mailsBefore).toBe(1);
      });

      it('still says a username is taken first, whatever the email', async () => {
        await registerAndVerify('Owner4', 'owner4@example.org');
        expect((await signUp('owner4', 'owner4@example.org')).status).toBe(409);
        expect((await signUp('owner4', 'someone-else@example.org')).status).toBe(409);
      });
    });

    describe('the two-request probe: a name, then the same name with a fresh email', () => {
      const signUp = (username: string, email: string) =>
        call(register, '/api/auth/register', { form: registrationForm({ username, email }), ip: ip() });
      /** What a prober sees: each answer's status and body, and which header names came back. */
      const seen = async (username: string, email: string) => {
        const answers = [await signUp(username, email), await signUp(username, `fresh.${username.toLowerCase()}@example.net`)];
        return answers.map((answer) => ({
          status: answer.status,
          body: answer.body,
          headers: [...answer.headers.keys()].sort(),
        }));
      };
      /** Time passes for a name: its sign-up hold runs out (what SIGN_UP_HOLD_MS after the sign-up brings). */
      const holdRunsOut = (username: string) =>
        database.db
          .update(signUpHolds)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(signUpHolds.usernameKey, username.toLowerCase()));

      it('sees the same answers whether the email is registered (any case), unverified or unknown', async () => {
        await registerAndVerify('ProbeOwner', 'probe.owner@example.org');
        await signUp('ProbeUnverified', 'probe.unverified@example.org');
        const unknown = await seen('ProbeA', 'nobody.here@example.org');
        expect(unknown).toEqual([
          expect.objectContaining({
            status: 201,
            body: { message: 'Registration successful! Please check your email to verify your account.' },
          }),
          expect.objectContaining({ status: 409, body: { message: 'That username is already taken. Please choose another.' } }),
        ]);
        expect(await seen('ProbeB', 'probe.owner@example.org')).toEqual(unknown);
        expect(await seen('ProbeC', 'PROBE.Owner@Example.ORG')).toEqual(unknown);
        expect(await seen('ProbeD', 'probe.unverified@example.org')).toEqual(unknown);
        // From another network, or with the name in other letters, the second request is refused alike.
        for (const [name, email] of [
          ['ProbeE', 'probe.owner@example.org'],
          ['ProbeF', 'someone.new@example.org'],
        ] as const) {
          expect((await signUp(name, email)).status).toBe(201);
          expect(
            (
              await call(register, '/api/auth/register', {
                form: registrationForm({ username: name.toUpperCase(), email: 'third@example.net' }),
                ip: '203.0.113.77',
              })
            ).status,
          ).toBe(409);
        }
        // A taken email made no account; a fresh one did (only the owner of the address can tell, from their mail).
        expect(await database.db.select().from(users).where(eq(users.username, 'ProbeB'))).toHaveLength(0);
        expect(await database.db.select().from(users).where(eq(users.username, 'ProbeA'))).toHaveLength(1);
      });

      it('holds the name for the same time either way, then gives it to the next sign-up', async () => {
        await registerAndVerify('HoldOwner', 'hold.owner@example.org');
        expect((await signUp('HeldTaken', 'hold.owner@example.org')).status).toBe(201);
        expect((await signUp('HeldFresh', 'hold.fresh@example.org')).status).toBe(201);
        const holds = await database.db.select().from(signUpHolds);
        const until = (name: string) => holds.find((hold) => hold.usernameKey === name)!.expiresAt.getTime();
        // Both a week from now (within the few seconds between the two requests).
        for (const name of ['heldtaken', 'heldfresh'])
          expect(Math.abs(until(name) - (Date.now() + SIGN_UP_HOLD_MS))).toBeLessThan(60_000);

        for (const name of ['HeldTaken', 'HeldFresh']) {
          await holdRunsOut(name);
          expect((await signUp(name, `next.${name.toLowerCase()}@example.net`)).status).toBe(201);
          expect((await signUp(name, `third.${name.toLowerCase()}@example.net`)).status).toBe(409);
        }
      });

      it('then logging in with the email and the password the sign-up chose: the same answers whether or not it made an account', async () => {
        await registerAndVerify('LoginOwner', 'login.owner@example.org', 'the-owners-own-password-1');
        const chosen = 'velvet-chrysalis-42';
        const logIn = (email: string, password: string) =>
          call(login, '/api/auth/login', { json: { email, password }, ip: ip() });
        const probe = async (username: string, email: string) => {
          expect((await signUp(username, email)).status).toBe(201);
          const answers = [
            await logIn(email, chosen),
            await logIn(email.toUpperCase(), chosen),
            await logIn(email, 'some-other-guess-7'),
          ];
          await holdRunsOut(username);
          answers.push(await logIn(email, chosen));
          return answers.map((answer) => ({ status: answer.status, body: answer.body }));
        };
        const fresh = await probe('LoginFresh', 'login.fresh@example.org');
        expect(fresh.map((answer) => answer.status)).toEqual([403, 403, 401, 401]);
        expect(fresh[0]!.body).toMatchObject({ needsVerification: true });
        expect(await probe('LoginTaken', 'login.owner@example.org')).toEqual(fresh);
        // The owner still logs in with their own password.
        expect((await logIn('login.owner@example.org', 'the-owners-own-password-1')).status).toBe(200);
      });

      it('never lets an unverified squatter keep a name from a real member, nor a hold take a verified name', async () => {
        expect((await signUp('Squatted', 'squatter@example.net')).status).toBe(201);
        const squatterLink = mailsTo('squatter@example.net').at(-1)!.link!;
        await holdRunsOut('Squatted');
        const member = await registerAndVerify('squatted', 'real.member@example.org');
        expect(member.token).toEqual(expect.any(String));
        // The squatter's never-verified account went with its name: its link no longer verifies anything.
        expect((await call(verifyEmail, squatterLink.replace(ORIGIN, ''))).headers.get('location')).toBe(
          `${ORIGIN}/email-verification-failed`,
        );
        expect(await database.db.select().from(users).where(eq(users.email, 'squatter@example.net'))).toHaveLength(0);
        // A verified member keeps the name after any hold has run out.
        await holdRunsOut('Squatted');
        expect((await signUp('SQUATTED', 'squatter@example.net')).status).toBe(409);
      });
    });

    it('checks the profile photo by content, re-encodes it without metadata, and refuses what is not an image', async () => {
      const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ff4fa3' } })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'secret-location-data' } })
        .toBuffer();
      const ok = await call(register, '/api/auth/register', {
        form: registrationForm({
          username: 'WithPhoto',
          email: 'photo@example.org',
          profilePhoto: new File([jpeg], 'me.jpg', { type: 'image/jpeg' }),
        }),
        ip: ip(),
      });
      expect(ok.status).toBe(201);
      const [user] = await database.db.select().from(users).where(eq(users.email, 'photo@example.org'));
      const files = readdirSync(path.join(dataDir, 'media', 'avatars')).filter((f) => f.startsWith(user!.profilePhotoKey!));
      expect(files.sort()).toEqual([`${user!.profilePhotoKey}-256.webp`, `${user!.profilePhotoKey}-64.webp`]);
      const avatar = sharp(path.join(dataDir, 'media', 'avatars', `${user!.profilePhotoKey}-256.webp`));
      const meta = await avatar.metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();

      const text = new File(['#!/bin/sh\necho not an image'], 'photo.png', { type: 'image/png' });
      const bad = await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'FakePhoto', email: 'fake@example.org', profilePhoto: text }),
        ip: ip(),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/Profile photo must be an image file/);
      expect(await database.db.select().from(users).where(eq(users.email, 'fake@example.org'))).toHaveLength(0);

      const huge = new File([new Uint8Array(7 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
      const tooBig = await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'HugePhoto', email: 'huge@example.org', profilePhoto: huge }),
        ip: ip(),
      });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.message).toMatch(/too large/);
    });

    it('answers malformed bodies with 400 or 415 and a message, never 500', async () => {
      const garbage = await call(register, '/api/auth/register', {
        body: '--xyz\r\nbroken',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        ip: ip(),
      });
      expect(garbage.status).toBe(400);
      expect(garbage.body.message).toBe('The form data could not be read.');
      const wrongType = await call(register, '/api/auth/register', { json: { username: 'x' }, ip: ip() });
      expect(wrongType.status).toBe(415);
      const badJson = await call(login, '/api/auth/login', {
        body: '{"email":',
        headers: { 'content-type': 'application/json' },
        ip: ip(),
      });
      expect(badJson.status).toBe(400);
      expect(badJson.body.message).toBe('The request body is not valid JSON.');
      const notObject = await call(login, '/api/auth/login', {
        body: '[1,2]',
        headers: { 'content-type': 'application/json' },
        ip: ip(),
      });
      expect(notObject.status).toBe(400);
    });
  });

  describe('resend verification', () => {
    it('gives the same answer for unknown, verified and unverified addresses, and sends only to the unverified one', async () => {
      await call(register, '/api/auth/register', {
        form: registrationForm({ username: 'Resender', email: 'resend@example.org' }),
        ip: ip(),
      });
      const before = mailsTo('resend@example.org').length;
      const answers = await Promise.all(
        ['resend@example.org', 'nobody-here@example.org'].map((email) =>
          call(resend, '/api/auth/resend-verification', { json: { email }, ip: ip() }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers[0]!.body).toEqual(answers[1]!.body);
      expect(mailsTo('resend@example.org').length).toBe(before + 1);
      expect(mailsTo('nobody-here@example.org')).toHaveLength(0);

      // The previous link is replaced by the new one.
      const [oldLink, newLink] = mailsTo('resend@example.org').map((m) => m.link!);
      expect((await call(verifyEmail, oldLink!.replace(ORIGIN, ''))).headers.get('location')).toMatch(
        /email-verification-failed/,
      );
      expect((await call(verifyEmail, newLink!.replace(ORIGIN, ''))).headers.get('location')).toBe(`${ORIGIN}/email-verified`);
    });

    it('enforces a 60-second cooldown per address, for unknown addresses too', async () => {
      for (const email of ['cooldown@example.org', 'unknown-cooldown@example.org']) {
        expect((await call(resend, '/api/auth/resend-verification', { json: { email }, ip: ip() })).status).toBe(200);
        const again = await call(resend, '/api/auth/resend-verification', { json: { email }, ip: ip() });
        expect(again.status).toBe(429);
        expect(again.body.message).toBe('Please wait 60 seconds before asking for another verification email.');
        expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
      }
    });

    it('validates the email', async () => {
      const response = await call(resend, '/api/auth/resend-verification', { json: { email: 'nope' }, ip: ip() });
      expect(response).toMatchObject({ status: 400, body: { message: 'Invalid email address' } });
    });
  });

  describe('login', () => {
    it('gives unknown emails and wrong passwords the same status and message', async () => {
      await registerAndVerify('Sameness', 'same@example.org');
      const unknown = await call(login, '/api/auth/login', {
        json: { email: 'ghost@example.org', password: 'whatever-123' },
        ip: ip(),
      });
      const wrong = await call(login, '/api/auth/login', {
        json: { email: 'same@example.org', password: 'wrong-password-1' },
        ip: ip(),
      });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.body).toEqual({ message: 'Invalid email or password' });
      expect(wrong.body).toEqual(unknown.body);
    });

    it.each([
      [{ email: '', password: 'x' }, 'Email is required'],
      [{ email: 'bad', password: 'x' }, 'Invalid email address'],
      [{ email: 'a@example.org', password: '' }, 'Password is required'],
      [{ password: 'x' }, 'Email is required'],
    ])('validates %p', async (json, message) => {
      expect(await call(login, '/api/auth/login', { json, ip: ip() })).toMatchObject({ status: 400, body: { message } });
    });

    describe('login limits count failures, by account and address', () => {
      const attempt = (email: string, password: string, from: string) =>
        call(login, '/api/auth/login', { json: { email, password }, ip: from });
      const statusesOf = async (count: number, email: string, password: string, from: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < count; i += 1) statuses.push((await attempt(email, password, from)).status);
        return statuses;
      };

      it('lets the member in from a clean address however often others failed, and limits the failing address', async () => {
        await registerAndVerify('Targeted', 'targeted@example.org');
        const attacker = '192.0.2.10';
        expect(await statusesOf(12, 'targeted@example.org', 'guess-guess-1', attacker)).toEqual([
          ...Array(10).fill(401),
          429,
          429,
        ]);
        // The member, from home: not refused because someone else failed.
        expect((await attempt('targeted@example.org', 'velvet-chrysalis-42', '198.18.50.1')).status).toBe(200);
        // From the failing address even the right password waits, and is told how long.
        const limited = await attempt('targeted@example.org', 'velvet-chrysalis-42', attacker);
        expect(limited.status).toBe(429);
        expect(limited.body.message).toMatch(/^Too many failed login attempts\. Please wait \d+ minutes? and try again\.$/);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(limited.body.retryAfter).toBe(Number(limited.headers.get('retry-after')));
      });

      it('forgives an address its failures on an account once it gives the right password', async () => {
        await registerAndVerify('Forgetful', 'forgetful@example.org');
        const home = '198.18.51.1';
        expect(await statusesOf(9, 'forgetful@example.org', 'wrong-again-1', home)).toEqual(Array(9).fill(401));
        expect((await attempt('forgetful@example.org', 'velvet-chrysalis-42', home)).status).toBe(200);
        // The account's budget from this address starts again: unforgiven, the second of these would be the eleventh failure and refused.
        // (Five, because the address's own budget across accounts, 15, still holds its 9 + 5 failures.)
        expect(await statusesOf(5, 'forgetful@example.org', 'wrong-again-1', home)).toEqual(Array(5).fill(401));
      });

      it('keeps a budget per address across accounts (credential stuffing), which successes do not spend', async () => {
        await registerAndVerify('Stuffed', 'stuffed@example.org');
        const sprayer = '192.0.2.77';
        const spray = [];
        for (let i = 0; i < 16; i += 1) spray.push((await attempt(`spray${i}@example.org`, 'nope-nope', sprayer)).status);
        expect(spray).toEqual([...Array(15).fill(401), 429]);
        expect((await attempt('stuffed@example.org', 'velvet-chrysalis-42', sprayer)).status).toBe(429);
        // An IPv6 sprayer gains nothing by moving around its /64.
        const v6 = [];
        for (let i = 0; i < 16; i += 1)
          v6.push((await attempt(`spray${i}@example.org`, 'nope-nope', `2001:db8:77:1::${(i + 1).toString(16)}`)).status);
        expect(v6.at(-1)).toBe(429);
        // Twenty good logins from one office address in a few minutes are all fine.
        expect(await statusesOf(20, 'stuffed@example.org', 'velvet-chrysalis-42', '198.18.52.1')).toEqual(Array(20).fill(200));
      });

      it('counts parallel guesses before their passwords are checked, so a burst cannot overshoot the budget', async () => {
        await registerAndVerify('Burst', 'burst@example.org');
        const burst = await Promise.all(
          Array.from({ length: 25 }, () => attempt('burst@example.org', 'parallel-guess', '192.0.2.88')),
        );
        expect(burst.filter((response) => response.status === 401)).toHaveLength(10);
        expect(burst.filter((response) => response.status === 429)).toHaveLength(15);
      });
    });

    it('refuses a banned account with 403 Account is banned, at login and on every call', async () => {
      const { token } = await registerAndVerify('Banned', 'banned@example.org');
      await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.email, 'banned@example.org'));
      expect(await call(me, '/api/auth/me', { bearer: token })).toMatchObject({
        status: 403,
        body: { message: 'Account is banned' },
      });
      expect(
        await call(login, '/api/auth/login', {
          json: { email: 'banned@example.org', password: 'velvet-chrysalis-42' },
          ip: ip(),
        }),
      ).toMatchObject({
        status: 403,
        body: { message: 'Account is banned' },
      });
    });
  });

  describe('the session', () => {
    it('works by bearer token and by cookie, and logout ends it for both', async () => {
      const { token, cookie } = await registerAndVerify('Sessioned', 'session@example.org');
      expect((await call(me, '/api/auth/me', { bearer: token })).body.user).toMatchObject({
        username: 'Sessioned',
        email: 'session@example.org',
      });
      expect((await call(me, '/api/auth/me', { cookie })).status).toBe(200);

      const out = await call(logout, '/api/auth/logout', { bearer: token });
      expect(out.status).toBe(200);
      expect(out.setCookie[0]).toMatch(/chrysalis_session=;.*Max-Age=0/i);
      expect((await call(me, '/api/auth/me', { bearer: token })).status).toBe(401);
      expect((await call(me, '/api/auth/me', { cookie })).status).toBe(401);
    });

    it.each([
      ['no credentials', {}],
      ['a forged token', { bearer: 'Fe26.2**forged**token' }],
      ['a malformed header', { headers: { authorization: 'Basic abc' } }],
      ['a forged cookie', { cookie: 'chrysalis_session=garbage' }],
    ])('answers %s with 401', async (_label, options) => {
      expect(await call(me, '/api/auth/me', options)).toMatchObject({ status: 401, body: { message: expect.any(String) } });
    });

    it('refuses cookie-authenticated changes from another site (CSRF) but allows them from ours', async () => {
      const { cookie } = await registerAndVerify('Csrf', 'csrf@example.org');
      const crossSite = await call(preferences, '/api/users/settings/preferences', {
        method: 'PUT',
        json: { autoPlayVideos: false },
        cookie,
        headers: { origin: 'https://evil.example' },
      });
      expect(crossSite.status).toBe(403);
      const sameSite = await call(preferences, '/api/users/settings/preferences', {
        method: 'PUT',
        json: { autoPlayVideos: false },
        cookie,
        headers: { origin: ORIGIN },
      });
      expect(sameSite).toMatchObject({ status: 200, body: { success: true } });
    });
  });

  describe('settings', () => {
    it('saves the autoplay preference', async () => {
      const { token } = await registerAndVerify('Prefs', 'prefs@example.org');
      expect(
        await call(preferences, '/api/users/settings/preferences', {
          method: 'PUT',
          json: { autoPlayVideos: false },
          bearer: token,
        }),
      ).toMatchObject({
        status: 200,
        body: { success: true },
      });
      expect((await call(me, '/api/auth/me', { bearer: token })).body.user).toMatchObject({ autoPlayVideos: false });
      expect(
        (
          await call(preferences, '/api/users/settings/preferences', {
            method: 'PUT',
            json: { autoPlayVideos: 'yes' },
            bearer: token,
          })
        ).status,
      ).toBe(400);
    });

    it('changes the email only after the new address is verified', async () => {
      const { token } = await registerAndVerify('Mover', 'mover-old@example.org');
      const wrongPassword = await call(changeEmail, '/api/users/settings/email', {
        method: 'PUT',
        json: { currentPassword: 'not-it-at-all', newEmail: 'mover-new@example.org', confirmNewEmail: 'mover-new@example.org' },
        bearer: token,
      });
      expect(wrongPassword).toMatchObject({ status: 400, body: { message: 'Your current password is incorrect.' } });
      const mismatch = await call(changeEmail, '/api/users/settings/email', {
        method: 'PUT',
        json: { currentPassword: 'velvet-chrysalis-42', newEmail: 'mover-new@example.org', confirmNewEmail: 'other@example.org' },
        bearer: token,
      });
      expect(mismatch).toMatchObject({ status: 400, body: { message: 'New emails do not match.' } });

      const changed = await call(changeEmail, '/api/users/settings/email', {
        method: 'PUT',
        json: {
          currentPassword: 'velvet-chrysalis-42',
          newEmail: 'mover-new@example.org',
          confirmNewEmail: 'mover-new@example.org',
        },
        bearer: token,
      });
      expect(changed).toMatchObject({
        status: 200,
        body: {
          message: 'Email updated successfully! Please check your new email for verification.',
          emailVerificationSent: true,
        },
      });
      expect((await call(me, '/api/auth/me', { bearer: token })).body.user).toMatchObject({ email: 'mover-old@example.org' });

      const link = mailsTo('mover-new@example.org')[0]!.link!;
      expect((await call(verifyEmail, link.replace(ORIGIN, ''))).headers.get('location')).toBe(`${ORIGIN}/email-verified`);
      expect((await call(me, '/api/auth/me', { bearer: token })).body.user).toMatchObject({ email: 'mover-new@example.org' });
    });

    it('changes the password, ending other sessions but not this one', async () => {
      const first = await registerAndVerify('Rotator', 'rotator@example.org');
      const second = await call(login, '/api/auth/login', {
        json: { email: 'rotator@example.org', password: 'velvet-chrysalis-42' },
        ip: ip(),
      });
      const otherToken = second.body.token as string;

      const bad = await call(changePassword, '/api/users/settings/password', {
        method: 'PUT',
        json: { currentPassword: 'velvet-chrysalis-42', newPassword: 'brand-new-secret', confirmNewPassword: 'different' },
        bearer: first.token,
      });
      expect(bad).toMatchObject({ status: 400, body: { message: 'New passwords do not match.' } });
      const wrong = await call(changePassword, '/api/users/settings/password', {
        method: 'PUT',
        json: { currentPassword: 'wrong-current', newPassword: 'brand-new-secret', confirmNewPassword: 'brand-new-secret' },
        bearer: first.token,
      });
      expect(wrong).toMatchObject({ status: 400, body: { message: 'Your current password is incorrect.' } });
      expect((await call(me, '/api/auth/me', { bearer: otherToken })).status).toBe(200);

      const ok = await call(changePassword, '/api/users/settings/password', {
        method: 'PUT',
        json: { currentPassword: 'velvet-chrysalis-42', newPassword: 'brand-new-secret', confirmNewPassword: 'brand-new-secret' },
        bearer: first.token,
      });
      expect(ok).toMatchObject({ status: 200, body: { message: 'Password updated successfully!' } });
      expect((await call(me, '/api/auth/me', { bearer: first.token })).status).toBe(200);
      expect((await call(me, '/api/auth/me', { bearer: otherToken })).status).toBe(401);
      expect(
        (
          await call(login, '/api/auth/login', {
            json: { email: 'rotator@example.org', password: 'velvet-chrysalis-42' },
            ip: ip(),
          })
        ).status,
      ).toBe(401);
      expect(
        (await call(login, '/api/auth/login', { json: { email: 'rotator@example.org', password: 'brand-new-secret' }, ip: ip() }))
          .status,
      ).toBe(200);
    });

    describe('limits on changes that need the current password', () => {
      const newPassword = (token: string, currentPassword: string, next = 'brand-new-secret-9') =>
        call(changePassword, '/api/users/settings/password', {
          method: 'PUT',
          json: { currentPassword, newPassword: next, confirmNewPassword: next },
          bearer: token,
        });
      const newEmail = (token: string, currentPassword: string, address: string) =>
        call(changeEmail, '/api/users/settings/email', {
          method: 'PUT',
          json: { currentPassword, newEmail: address, confirmNewEmail: address },
          bearer: token,
        });

      it('counts wrong current passwords per member, for password and email changes alike, then answers 429 with Retry-After', async () => {
        const { token } = await registerAndVerify('Guessed', 'guessed@example.org');
        const guesses = [
          await newPassword(token, 'guess-1'),
          await newEmail(token, 'guess-2', 'thief-1@example.org'),
          await newPassword(token, 'guess-3'),
          await newEmail(token, 'guess-4', 'thief-2@example.org'),
          await newPassword(token, 'guess-5'),
        ];
        expect(guesses.map((answer) => answer.status)).toEqual(Array(5).fill(400));
        const limited = await newEmail(token, 'guess-6', 'thief-3@example.org');
        expect(limited.status).toBe(429);
        expect(limited.body.message).toMatch(
          /^Too many wrong current passwords\. Please wait (\d+ minutes?|\d+ seconds?) and try again\.$/,
        );
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
        // While the budget is spent even the right password waits: the guesser cannot tell it was right.
        expect((await newPassword(token, 'velvet-chrysalis-42')).status).toBe(429);
        expect(mailsTo('thief-')).toHaveLength(0);
        // Another member is not affected.
        const other = await registerAndVerify('Unguessed', 'unguessed@example.org');
        expect((await newPassword(other.token, 'velvet-chrysalis-42')).status).toBe(200);
      });

      it('clears the count when the right current password is given', async () => {
        const { token } = await registerAndVerify('Fumbler', 'fumbler@example.org');
        for (let i = 0; i < 4; i += 1) expect((await newPassword(token, `fumble-${i}`)).status).toBe(400);
        expect((await newPassword(token, 'velvet-chrysalis-42', 'fumbler-second-secret')).status).toBe(200);
        // Not cleared, the second of these would be the sixth wrong password and refused.
        for (let i = 0; i < 4; i += 1)
          expect((await newPassword(token, `fumble-again-${i}`, 'whatever-secret-1')).status).toBe(400);
      });

      it('allows five email changes a day, since each one sends mail', async () => {
        const { token } = await registerAndVerify('Restless', 'restless@example.org');
        for (let i = 1; i <= 5; i += 1)
          expect((await newEmail(token, 'velvet-chrysalis-42', `restless-${i}@example.org`)).status).toBe(200);
        const sixth = await newEmail(token, 'velvet-chrysalis-42', 'restless-6@example.org');
        expect(sixth).toMatchObject({
          status: 429,
          body: { message: 'You can change your email address at most 5 times a day. Please try again in 24 hours.' },
        });
        expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(23 * 60 * 60);
        expect(mailsTo('restless-')).toHaveLength(5);
        // The password is checked before the day's count: a wrong one is still told so.
        expect((await newEmail(token, 'not-my-password', 'restless-7@example.org')).status).toBe(400);
      });
    });

    it('needs a login for every settings call', async () => {
      for (const handler of [preferences, changeEmail, changePassword]) {
        expect((await call(handler, '/api/users/settings/x', { method: 'PUT', json: {} })).status).toBe(401);
      }
    });
  });
});
