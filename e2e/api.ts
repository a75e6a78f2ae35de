import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';

import { expect } from './fixtures';
import { E2E_DATA_DIR, ORIGIN } from '../scripts/lib/e2e-env';

/** The bootstrap admin playwright.config.ts starts the e2e server with. */
export const ADMIN = { email: 'admin@e2e.example.org', password: 'moderate-orchid-velvet-2026' };
const OUTBOX = path.join(E2E_DATA_DIR, 'outbox');
export const PASSWORD = 'orchid-velvet-77';

export const unique = () => Math.random().toString(36).slice(2, 8);

/** Each API visitor gets its own address, as real members do, so per-address rate limits stay out of the way. */
export const visitor = () => ({ 'x-forwarded-for': `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}` });

/** A short real H.264/AAC clip made with ffmpeg into dir. */
export function makeClip(dir: string, name = 'clip.mp4', seconds = 2, size = '320x240'): Buffer {
  const file = path.join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=25`, '-f', 'lavfi', '-i', `sine=duration=${seconds}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
  return readFileSync(file);
}

/** The newest link matching `pattern` (its first group) mailed to an address (from the server's .eml outbox). */
export async function linkMailedTo(email: string, pattern: RegExp, timeout?: number): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      let files: string[] = [];
      try {
        files = readdirSync(OUTBOX).filter((f) => f.endsWith('.eml')).sort().reverse();
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
    }, { timeout })
    .toBeTruthy();
  return link!;
}

/** The newest verification link mailed to an address. */
export function verificationLinkFor(email: string): Promise<string> {
  return linkMailedTo(email, /(https?:\/\/[^/\s]+\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]+)/);
}

let documentPhoto: Promise<Buffer> | undefined;
/** A small real photo standing in for an ID and a selfie (the server reads the type from the bytes). */
export const identityPhoto = () => (documentPhoto ??= sharp({ create: { width: 120, height: 80, channels: 3, background: '#6a4c93' } }).jpeg().toBuffer());

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

export async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/auth/login', { headers: visitor(), data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

/** Approves through the admin API (approval before processing ends is allowed: it goes public when ready). */
export async function approve(request: APIRequestContext, token: string, streamVideoId: string): Promise<void> {
  const response = await request.patch(`/api/admin/videos/${streamVideoId}`, { headers: { Authorization: `Bearer ${token}` }, data: { action: 'approve' } });
  expect(response.status(), await response.text()).toBe(200);
}

export const BASE_URL = ORIGIN;

/**
 * Waits until a video is public (processed and approved). Asks as a visitor:
 * Playwright's request context keeps the session cookies of its logins, and
 * owners and admins see unpublished videos too.
 */
export async function waitUntilPublic(streamVideoId: string): Promise<void> {
  await expect.poll(async () => (await fetch(`${BASE_URL}/api/videos/${streamVideoId}`)).status, { timeout: 60_000, intervals: [250] }).toBe(200);
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

export async function logInThroughForm(page: Page, email: string, password: string, next = '/') {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(next);
}
