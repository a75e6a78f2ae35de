import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { request as playwrightRequest, type APIRequestContext, type Locator, type Page, type Response } from '@playwright/test';

import {
  ADMIN,
  adminToken,
  approve,
  BASE_URL,
  logInThroughForm,
  makeClip,
  PASSWORD,
  unique,
  uploadClip,
  verifiedMember,
  waitUntilPublic,
} from './api';
import { expect, test } from './fixtures';

/**
 * Every kind of page has a Content-Security-Policy whose script-src has no 'unsafe-inline', and still
 * works under it: React hydrates (the account area fills in from the session), the age-gate boot script
 * runs, and the browser reports no violation. Public pages are checked on a cache miss and on a hit
 * (their scripts are allowed by hash), pages rendered per request with a fresh nonce each time.
 */

let mediaDir: string;
let api: APIRequestContext;
const site = { video: '', title: '', throwaway: '', member: { email: '', username: '' } };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-csp-'));
  const clip = makeClip(mediaDir);
  // One context for every member and the admin: its cookie jar keeps the latest login, so writes carry
  // the site's Origin as a browser's would (cookie-authenticated writes must).
  api = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const member = await verifiedMember(api, 'csp');
  site.member = member;
  site.title = `CSP check ${unique()}`;
  site.video = await uploadClip(api, member.token, clip, { title: site.title, category: 'Beta' });
  site.throwaway = await uploadClip(api, member.token, clip, { title: `CSP purge ${unique()}`, category: 'Beta' });
  await approve(api, await adminToken(api), site.video);
  await waitUntilPublic(site.video);
});

test.afterAll(async () => {
  if (api) {
    const headers = { Authorization: `Bearer ${await adminToken(api)}` };
    for (const id of [site.video, site.throwaway]) {
      const undo = await api.patch(`/api/admin/videos/${id}`, {
        headers,
        data: { action: 'reject', reason: 'Taken down after the CSP check' },
      });
      expect([200, 409]).toContain(undo.status());
    }
    await api.dispose();
  }
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Any moderation decision purges the page cache (lib/server/videos/moderation.ts), so the next visit to each public page is a miss. */
let purges = 0;
async function purgePageCache() {
  purges += 1;
  const data = purges % 2 ? { action: 'reject', reason: 'Purging the page cache' } : { action: 'approve' };
  const response = await api.patch(`/api/admin/videos/${site.throwaway}`, {
    headers: { Authorization: `Bearer ${await adminToken(api)}` },
    data,
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Collects what the browser says about the policy: violation events and its console errors. */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Reflect.set(window, '__cspViolations', seen);
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(
        `${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
      ),
    );
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      consoleErrors.push(message.text());
  });
  return async () => [...((await page.evaluate(() => Reflect.get(window, '__cspViolations'))) as string[]), ...consoleErrors];
}

function scriptSrcOf(response: Response | null): string {
  const policy = response?.headers()['content-security-policy'];
  expect(policy, `no Content-Security-Policy on ${response?.url()}`).toBeTruthy();
  const scriptSrc = policy!
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src '));
  expect(scriptSrc).toBeDefined();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  return scriptSrc!;
}

interface Visit {
  /** What shows only once React has hydrated and the page's own scripts ran. */
  hydrated: (page: Page) => Locator;
  /** x-chrysalis-cache of the answer: MISS or HIT for public pages, undefined for pages Next renders now. */
  cache?: 'MISS' | 'HIT';
  status?: number;
}

const visitorHydrated = (page: Page) => page.getByRole('banner').getByRole('link', { name: 'Log in' });
const memberHydrated = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/** Opens a page and checks its policy and that everything on it ran under it; returns its script-src. */
async function visit(page: Page, violations: () => Promise<string[]>, url: string, expected: Visit): Promise<string> {
  return checkAnswer(page, violations, url, await page.goto(url), expected);
}

/**
 * Opens a public page until the cache answers as wanted: a miss (right after a purge) or a hit. Other
 * specs running at the same time purge and fill the cache too, so one try may find the other state.
 */
async function visitPublic(page: Page, violations: () => Promise<string[]>, url: string, cache: 'MISS' | 'HIT'): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    if (cache === 'MISS') await purgePageCache();
    const response = await page.goto(url);
    if (response?.headers()['x-chrysalis-cache'] === cache || attempt === 5)
      return checkAnswer(page, violations, url, response, { hydrated: visitorHydrated, cache });
  }
}

async function checkAnswer(
  page: Page,
  violations: () => Promise<string[]>,
  url: string,
  response: Response | null,
  { hydrated, cache, status = 200 }: Visit,
): Promise<string> {
  expect(response?.status(), url).toBe(status);
  expect(response?.headers()['x-chrysalis-cache'], `${url}: cache`).toBe(cache);
  const scriptSrc = scriptSrcOf(response);
  await expect(hydrated(page)).toBeVisible();
  // The root layout's inline boot script (allowed by hash under both kinds of policy) marked the confirmed visitor.
  expect(await page.evaluate(() => document.documentElement.dataset.ageConfirmed), `${url}: boot script`).toBe('true');
  await expect(page.getByRole('dialog', { name: 'This site is for adults only' })).toBeHidden();
  expect(await violations(), `${url}: CSP violations`).toEqual([]);
  return scriptSrc;
}

test.describe('Content-Security-Policy', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project');

  test('public pages allow their scripts by hash, on a cache miss and from the cache', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    const violations = await recordViolations(page);
    for (const url of ['/', `/video/${site.video}`, '/category/Beta', '/privacy-policy', '/subscribe']) {
      const onMiss = await visitPublic(page, violations, url, 'MISS');
      expect(onMiss).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
      expect(await visitPublic(page, violations, url, 'HIT')).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/);
    }
    // The video page hydrated: its like button sends a visitor to log in.
    await page.goto(`/video/${site.video}`);
    await page.getByRole('article', { name: site.title }).getByRole('button', { name: /^Like/ }).first().click();
    await expect(page).toHaveURL(/\/login\?next=/);
  });

  test('a public page with a query string is fetched for that request and allowed by hash too', async ({
    confirmedPage: page,
  }) => {
    const violations = await recordViolations(page);
    const scriptSrc = await visit(page, violations, '/subscribe?status=declined', { hydrated: visitorHydrated });
    expect(scriptSrc).toMatch(/'sha256-/);
    await expect(page.getByTestId('vip-join')).toBeVisible(); // the VIP panel, a client island
  });

  test('pages rendered per request carry a fresh nonce on every answer', async ({ confirmedPage: page }) => {
    test.setTimeout(90_000);
    const violations = await recordViolations(page);
    for (const [url, status] of [
      ['/search?q=csp', 200],
      ['/login', 200],
      ['/register', 200],
      ['/no-such-page', 404],
    ] as const) {
      const first = await visit(page, violations, url, { hydrated: visitorHydrated, status });
      const second = await visit(page, violations, url, { hydrated: visitorHydrated, status });
      expect(first).toMatch(/'nonce-[A-Za-z0-9+/]+=*'/);
      expect(second).not.toBe(first);
    }
    await expect(page.getByRole('heading', { name: 'This page doesn’t exist' })).toBeVisible();

    await logInThroughForm(page, site.member.email, PASSWORD, '/upload');
    await visit(page, violations, '/upload', { hydrated: memberHydrated });
    // The upload form's client-side checks run.
    await page
      .getByRole('main')
      .getByRole('button', { name: /^Upload/ })
      .first()
      .click();
    await expect(page.getByText('Title is required').first()).toBeVisible();
    await visit(page, violations, `/profile/${site.member.username}`, { hydrated: memberHydrated });
  });

  test('admin pages carry a nonce policy and their client-side lists load', async ({ confirmedPage: page }) => {
    const violations = await recordViolations(page);
    await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin');
    for (const url of ['/admin', '/admin/moderation', '/admin/reports']) {
      expect(await visit(page, violations, url, { hydrated: memberHydrated })).toMatch(/'nonce-/);
    }
    await expect(page.getByRole('heading', { level: 1, name: /Reports/ })).toBeVisible();
  });

  test('the embed player allows its one script by hash and plays after the age confirmation', async ({ page }) => {
    const violations = await recordViolations(page);
    const response = await page.goto(`/embed/${site.video}`);
    expect(scriptSrcOf(response)).toMatch(/^script-src 'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(response?.headers()['content-security-policy']).toContain('frame-ancestors *');
    const viewCounted = page.waitForResponse((answer) => answer.url().endsWith(`/api/videos/${site.video}/view`));
    await page.getByRole('button', { name: /I am 18 or older/ }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect((await viewCounted).status()).toBe(200);
    expect(await violations()).toEqual([]);
  });
});
