import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { Secret, TOTP } from 'otpauth';
import lockfile from 'proper-lockfile';

import { expect, test } from './fixtures';
import { E2E_DATA_DIR, E2E_SECRETS_FILE, ORIGIN } from '../scripts/lib/e2e-env';

/** The bootstrap admin playwright.config.ts starts the e2e server with. */
export const ADMIN = { email: 'admin@e2e.example.org', password: 'moderate-orchid-velvet-2026' };
const OUTBOX = path.join(E2E_DATA_DIR, 'outbox');
export const PASSWORD = 'orchid-velvet-77';

export const unique = () => Math.random().toString(36).slice(2, 8);

/**
 * Notes secrets a test made or received (passwords, emails, tokens, two-factor secrets and codes):
 * e2e/global-teardown.ts fails the run if any of them shows in the server's log.
 */
export function recordSecrets(...secrets: (string | undefined)[]): void {
  const lines = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= 6);
  if (!lines.length) return;
  mkdirSync(E2E_DATA_DIR, { recursive: true });
  appendFileSync(E2E_SECRETS_FILE, `${lines.join('\n')}\n`);
}

/** Each API visitor gets its own address, as real members do, so per-address rate limits stay out of the way. */
export const visitor = () => ({
  'x-forwarded-for': `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`,
});

/**
 * The clips this worker process has made, by length and size. Spec files make theirs in beforeAll, which runs
 * again in every worker and after every worker restart: each was an ffmpeg encode on a busy runner for bytes
 * made before (decision 048).
 */
const madeClips = new Map<string, Buffer>();

/** A short real H.264/AAC clip made with ffmpeg (once per worker for each length and size), written into dir. */
export function makeClip(dir: string, name = 'clip.mp4', seconds = 2, size = '320x240'): Buffer {
  const file = path.join(dir, name);
  const made = madeClips.get(`${seconds}s ${size}`);
  if (made) {
    writeFileSync(file, made);
    return made;
  }
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=25`,
    '-f',
    'lavfi',
    '-i',
    `sine=duration=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ]);
  const clip = readFileSync(file);
  madeClips.set(`${seconds}s ${size}`, clip);
  return clip;
}

/** The newest link matching `pattern` (its first group) mailed to an address (from the server's .eml outbox). */
export async function linkMailedTo(email: string, pattern: RegExp, timeout?: number): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(OUTBOX)
            .filter((f) => f.endsWith('.eml'))
            .sort()
            .reverse();
        } catch {
          return undefined;
        }
        for (const file of files) {
          const raw = readFileSync(path.join(OUTBOX, file), 'utf8');
          if (!raw.includes(`To: ${email}`)) continue;
          link = pattern.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
          if (link) return link;
        }
        return undefined;
      },
      { timeout },
    )
    .toBeTruthy();
  // The emailed token (verification, password reset) must not reach the log either: the request log drops query values.
  recordSecrets(email, /[?&]token=([^&#\s]+)/.exec(link!)?.[1]);
  return link!;
}

/** The newest verification link mailed to an address. */
export function verificationLinkFor(email: string): Promise<string> {
  return linkMailedTo(email, /(https?:\/\/[^/\s]+\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]+)/);
}

let documentPhoto: Promise<Buffer> | undefined;
/** A small real photo standing in for an ID and a selfie (the server reads the type from the bytes). */
export const identityPhoto = () =>
  (documentPhoto ??= sharp({ create: { width: 120, height: 80, channels: 3, background: '#6a4c93' } })
    .jpeg()
    .toBuffer());

/**
 * Makes a member a verified uploader the way a real one becomes one: they
 * send their documents through the API, an admin approves them through the
 * admin API. The admin logs in from a context of its own, so the caller's
 * cookie jar keeps the member's session.
 */
export async function verifyIdentity(token: string, legalName = 'E2E Uploader'): Promise<void> {
  const photo = await identityPhoto();
  const member = await playwrightRequest.newContext({ baseURL: ORIGIN });
  const admin = await playwrightRequest.newContext({ baseURL: ORIGIN });
  try {
    const sent = await member.post('/api/users/me/verification', {
      headers: { Authorization: `Bearer ${token}`, ...visitor() },
      multipart: {
        legalName,
        dateOfBirth: '1993-04-12',
        idDocument: { name: 'id.jpg', mimeType: 'image/jpeg', buffer: photo },
        selfie: { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: photo },
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const { verification } = (await sent.json()) as { verification: { _id: string } };
    const approved = await admin.patch(`/api/admin/verifications/${verification._id}`, {
      headers: { Authorization: `Bearer ${await adminToken(admin)}` },
      data: { action: 'approve' },
    });
    expect(approved.status(), await approved.text()).toBe(200);
  } finally {
    await member.dispose();
    await admin.dispose();
  }
}

/**
 * A verified member made through the API: register, open the emailed link,
 * log in, and (unless `identity: false`) get their identity verified, so
 * their videos can be approved (the approval gate).
 */
export async function verifiedMember(request: APIRequestContext, prefix: string, options: { identity?: boolean } = {}) {
  const id = unique();
  const username = `${prefix}_${id}`;
  const email = `${prefix}-${id}@example.org`;
  const headers = visitor();
  const registered = await request.post('/api/auth/register', {
    headers,
    multipart: { username, email, password: PASSWORD, confirmPassword: PASSWORD, dateOfBirth: '1993-04-12' },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  expect((await request.get(await verificationLinkFor(email), { headers })).ok()).toBe(true);
  const login = await request.post('/api/auth/login', { headers, data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const token = ((await login.json()) as { token: string }).token;
  recordSecrets(email, PASSWORD, token);
  if (options.identity !== false) await verifyIdentity(token);
  return { username, email, password: PASSWORD, token };
}

export interface UploadFields {
  title: string;
  description?: string;
  category?: 'Sissy' | 'Beta' | 'Censor';
  tags?: string;
}

/** Uploads a clip through the API; returns its public id. */
export async function uploadClip(request: APIRequestContext, token: string, clip: Buffer, fields: UploadFields): Promise<string> {
  const response = await request.post('/api/videos/upload', {
    headers: { Authorization: `Bearer ${token}`, ...visitor() },
    multipart: {
      video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip },
      title: fields.title,
      description: fields.description ?? '',
      category: fields.category ?? 'Beta',
      tags: fields.tags ?? 'e2e',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const streamVideoId = ((await response.json()) as { video: { streamVideoId: string } }).video.streamVideoId;
  await declarePerformers(request, token, streamVideoId);
  return streamVideoId;
}

/** Saves the video's performer records (decision 015): by default the uploader is the only one in it, recorded yesterday. */
export async function declarePerformers(
  request: APIRequestContext,
  token: string,
  streamVideoId: string,
  records: { recordedOn?: string; uploaderAppears?: boolean; coPerformers?: unknown[] } = {},
  files: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {},
): Promise<void> {
  const recordedOn = records.recordedOn ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const response = await request.put(`/api/videos/${streamVideoId}/performers`, {
    headers: { Authorization: `Bearer ${token}`, ...visitor() },
    multipart: { records: JSON.stringify({ uploaderAppears: true, coPerformers: [], ...records, recordedOn }), ...files },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/*
 * The bootstrap admin has two-factor on (decision 018), enrolled once per run
 * by the first worker that needs it; its secret, the last time step used,
 * unused recovery codes and a shared admin token live in a file under the
 * e2e data dir (wiped when the server starts). Every use happens under a
 * cross-process lock, so two workers never send the same code, nor codes out
 * of order: the server refuses a step that is not later than the last one.
 * A TOTP code is used when one is free now (two per 30 seconds); bursts use
 * recovery codes, refilled with a TOTP code when few are left, so no test
 * waits for the clock.
 */
const ADMIN_STATE = path.join(E2E_DATA_DIR, 'e2e-admin-two-factor.json');

interface AdminState {
  secret: string;
  lastStep: number;
  recoveryCodes: string[];
  /** From the password-only login that enrolled: a member's token, enough for Security settings. */
  settingsToken: string;
  /** A token from a login with a code, shared by every adminToken() call. */
  adminToken?: string;
}

const currentStep = () => Math.floor(Date.now() / 30_000);
export const totpCode = (secret: string, step = currentStep()) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: step * 30_000 });

/** The next unused TOTP step if one is valid now (the server takes one step either side), else null. */
function freeStep(state: AdminState): number | null {
  const step = Math.max(state.lastStep + 1, currentStep());
  return step <= currentStep() + 1 ? step : null;
}

/**
 * Runs `work` on the admin's two-factor state under the lock. Its own API
 * calls (enrolment, new recovery codes) go through a request context of their
 * own, so no admin cookie lands in a test's browser or request context.
 */
async function withAdminState<T>(work: (state: AdminState, api: () => Promise<APIRequestContext>) => Promise<T>): Promise<T> {
  mkdirSync(E2E_DATA_DIR, { recursive: true });
  const release = await lockfile.lock(E2E_DATA_DIR, {
    lockfilePath: `${ADMIN_STATE}.lock`,
    retries: { retries: 1200, minTimeout: 25, maxTimeout: 50 },
    stale: 20_000,
  });
  // Made only when needed (enrolment, new recovery codes).
  let context: APIRequestContext | undefined;
  const api = async () => (context ??= await playwrightRequest.newContext({ baseURL: ORIGIN }));
  try {
    const state = existsSync(ADMIN_STATE)
      ? (JSON.parse(readFileSync(ADMIN_STATE, 'utf8')) as AdminState)
      : await enrolAdmin(await api());
    try {
      return await work(state, api);
    } finally {
      writeFileSync(ADMIN_STATE, JSON.stringify(state));
    }
  } finally {
    await context?.dispose();
    await release();
  }
}

/**
 * Makes sure the bootstrap admin is enrolled before a login, so the form
 * always asks it for a code; and gives the calling test time for the extra
 * step (and for waiting its turn at the lock on a busy 2-core runner).
 */
export async function ensureAdminEnrolled(): Promise<void> {
  allowForCodeStep();
  await withAdminState(async () => undefined);
}

function allowForCodeStep() {
  try {
    test.info().setTimeout(test.info().timeout + 20_000);
  } catch {
    // Outside a test (global setup): nothing to extend.
  }
}

/** Turns two-factor on for the bootstrap admin through the API, as a person does in Security settings. */
async function enrolAdmin(request: APIRequestContext): Promise<AdminState> {
  const login = await request.post('/api/auth/login', { headers: visitor(), data: ADMIN });
  const body = (await login.json()) as { token?: string; twoFactorRequired?: boolean };
  if (!body.token) throw new Error(`the e2e admin is already enrolled but ${ADMIN_STATE} is missing: restart the e2e server`);
  const headers = { Authorization: `Bearer ${body.token}` };
  const setup = await request.post('/api/users/settings/two-factor/setup', {
    headers,
    data: { currentPassword: ADMIN.password },
  });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const step = currentStep();
  const confirm = await request.post('/api/users/settings/two-factor/confirm', {
    headers,
    data: { currentPassword: ADMIN.password, code: totpCode(secret, step) },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  recordSecrets(ADMIN.email, ADMIN.password, body.token, secret, ...recoveryCodes);
  return { secret, lastStep: step, recoveryCodes, settingsToken: body.token };
}

/** A second factor for the admin, spent by `use` while the lock is held: a free TOTP code, else a recovery code. */
async function withAdminCode<T>(use: (code: string, kind: 'totp' | 'recovery') => Promise<T>): Promise<T> {
  return withAdminState(async (state, api) => {
    if (state.recoveryCodes.length < 4) {
      const step = freeStep(state);
      if (step !== null) {
        const fresh = await (
          await api()
        ).post('/api/users/settings/two-factor/recovery-codes', {
          headers: { Authorization: `Bearer ${state.settingsToken}` },
          data: { currentPassword: ADMIN.password, code: totpCode(state.secret, step) },
        });
        expect(fresh.status(), await fresh.text()).toBe(200);
        state.lastStep = step;
        state.recoveryCodes = ((await fresh.json()) as { recoveryCodes: string[] }).recoveryCodes;
      }
    }
    const step = freeStep(state);
    if (step !== null) {
      state.lastStep = step;
      return use(totpCode(state.secret, step), 'totp');
    }
    const code = state.recoveryCodes.shift();
    if (!code) throw new Error('the e2e admin ran out of recovery codes');
    return use(code, 'recovery');
  });
}

/** Turns two-factor on for a member through Security settings' API (with their password, as every change needs); returns the secret and the step its confirmation used. */
export async function enrolTwoFactor(
  request: APIRequestContext,
  token: string,
  currentPassword = PASSWORD,
): Promise<{ secret: string; step: number; recoveryCodes: string[] }> {
  const headers = { Authorization: `Bearer ${token}` };
  const setup = await request.post('/api/users/settings/two-factor/setup', { headers, data: { currentPassword } });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const step = currentStep();
  const confirm = await request.post('/api/users/settings/two-factor/confirm', {
    headers,
    data: { currentPassword, code: totpCode(secret, step) },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const { recoveryCodes } = (await confirm.json()) as { recoveryCodes: string[] };
  recordSecrets(secret, ...recoveryCodes);
  return { secret, step, recoveryCodes };
}

/** Logs a member with two-factor on in through the API with the code of a step later than `afterStep` (the last one it used). */
export async function logInWithCode(
  request: APIRequestContext,
  email: string,
  password: string,
  secret: string,
  afterStep: number,
): Promise<string> {
  const headers = visitor();
  const login = await request.post('/api/auth/login', { headers, data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { challenge } = (await login.json()) as { challenge: string };
  const done = await request.post('/api/auth/login/two-factor', {
    headers,
    data: { challenge, code: totpCode(secret, Math.max(afterStep + 1, currentStep())) },
  });
  expect(done.status(), await done.text()).toBe(200);
  const token = ((await done.json()) as { token: string }).token;
  recordSecrets(email, password, challenge, token);
  return token;
}

/** A bearer token of the bootstrap admin from a login that passed the second factor, shared by all workers. */
export async function adminToken(request: APIRequestContext): Promise<string> {
  const cached = await withAdminState(async (state) => state.adminToken);
  if (cached && (await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${cached}` } })).ok()) return cached;
  allowForCodeStep();
  const login = await request.post('/api/auth/login', { headers: visitor(), data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  const { challenge } = (await login.json()) as { challenge: string };
  const token = await withAdminCode(async (code) => {
    const done = await request.post('/api/auth/login/two-factor', { headers: visitor(), data: { challenge, code } });
    expect(done.status(), await done.text()).toBe(200);
    return ((await done.json()) as { token: string }).token;
  });
  recordSecrets(challenge, token);
  await withAdminState(async (state) => {
    state.adminToken = token;
  });
  return token;
}

/** Approves through the admin API (approval before processing ends is allowed: it goes public when ready). */
export async function approve(request: APIRequestContext, token: string, streamVideoId: string): Promise<void> {
  const response = await request.patch(`/api/admin/videos/${streamVideoId}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'approve' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export const BASE_URL = ORIGIN;

/**
 * Waits until a video is public (processed and approved). Asks as a visitor:
 * Playwright's request context keeps the session cookies of its logins, and
 * owners and admins see unpublished videos too.
 */
export async function waitUntilPublic(streamVideoId: string): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${BASE_URL}/api/videos/${streamVideoId}`)).status, { timeout: 60_000, intervals: [250] })
    .toBe(200);
}

/** The settings modal, from the header at 1024 px and up or from the Menu panel below. */
export async function openSettings(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 1024) {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#mobile-menu').getByRole('button', { name: 'Settings' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  }
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  return settings;
}

/** Logs in through the form; the bootstrap admin then completes the code step as a person would (a TOTP code, or a recovery code in a burst). */
export async function logInThroughForm(page: Page, email: string, password: string, next = '/') {
  // The admin is enrolled before its first login (by whichever worker comes first), so the form always asks it for a code.
  if (email === ADMIN.email) await ensureAdminEnrolled();
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  if (email === ADMIN.email) await enterAdminCode(page);
  // Room for a slow password check (a deliberately slow hash) on a busy two-core runner.
  await expect(page).toHaveURL(next, { timeout: 30_000 });
}

/** The login form's code step for the bootstrap admin. */
export async function enterAdminCode(page: Page) {
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await withAdminCode(async (code, kind) => {
    if (kind === 'recovery') await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await page.getByLabel(kind === 'totp' ? 'Authentication code' : 'Recovery code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    // Held under the lock until the server has taken the code, so the next code is sent after it.
    await expect(page.getByLabel(kind === 'totp' ? 'Authentication code' : 'Recovery code')).toBeHidden({ timeout: 15_000 });
  });
}

/** A comment (or, with parentId, a reply) posted through the API; returns its id. */
export async function postComment(
  request: APIRequestContext,
  token: string,
  videoId: string,
  body: string,
  parentId?: string,
): Promise<string> {
  const response = await request.post(`/api/videos/${videoId}/comments`, {
    headers: { Authorization: `Bearer ${token}`, ...visitor() },
    data: parentId ? { body, parentId } : { body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { comment: { _id: string } }).comment._id;
}

/**
 * The whole sitemap as a crawler reads it: /sitemap.xml (the index) and every file it names, each checked against
 * the protocol's limits (50,000 URLs, 50 MiB), joined in one text.
 */
export async function wholeSitemap(): Promise<string> {
  const index = await fetch(`${ORIGIN}/sitemap.xml`);
  expect(index.status).toBe(200);
  const indexText = await index.text();
  expect(indexText).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const files = [...indexText.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  expect(files[0]).toBe(`${ORIGIN}/sitemap/pages.xml`);
  const texts = await Promise.all(
    files.map(async (url) => {
      expect(url).toMatch(new RegExp(`^${ORIGIN}/sitemap/[a-z0-9-]+\\.xml$`));
      const answer = await fetch(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/xml/);
      const text = await answer.text();
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024 * 1024);
      expect(text.match(/<url>/g)?.length ?? 0).toBeLessThanOrEqual(50_000);
      return text;
    }),
  );
  return [indexText, ...texts].join('\n');
}
