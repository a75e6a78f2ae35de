import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';

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
  visitor,
  waitUntilPublic,
} from './api';
import { expect, showInModerationQueue, test } from './fixtures';

/**
 * Stored and reflected XSS: a corpus of payloads goes into every text a member or an admin can write,
 * through the real API, then every page that shows those texts is opened in Chromium. Nothing may run
 * (the payloads set window.__xss or open a dialog), every JSON-LD block must still be whole JSON, and
 * the payloads must show as text.
 *
 * The payloads target the places text lands: a JSON-LD <script> block (closing tags with a space, a tab,
 * a newline or in capitals, which next-seo's `</script>` replacement missed), HTML attributes (quotes),
 * link schemes (linkified comments and bios), HTML comments, srcdoc frames and the two line separators
 * that JavaScript string literals once refused.
 */
const CLOSE_SPACE = '</script ><img src=x onerror=__xss=1>';
const CLOSE_CAPITALS = '</SCRIPT ><svg onload=__xss=1>';
const CLOSE_TAB = '</SCRIPT\t><svg onload=__xss=1>';
const CLOSE_NEWLINE = '</script\n><img src=x onerror=__xss=1>';
const ATTRIBUTE_BREAK = '"><img src=x onerror=__xss=1>';
const SINGLE_QUOTE_BREAK = "'><svg/onload=__xss=1>";
const JAVASCRIPT_URL = 'javascript:window.__xss=1';
const JAVASCRIPT_LINK = '<a href="javascript:__xss=1">click me</a>';
const SRCDOC = '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>';
const COMMENT_OPEN = '<!--<script>__xss=1</script>-->';
const LINE_SEPARATORS = '\u2028\u2029</script><script>__xss=1</script>';

/** Every payload, one per line: for the long texts (description, comment, report details). */
const CORPUS = [
  CLOSE_SPACE,
  CLOSE_CAPITALS,
  CLOSE_TAB,
  CLOSE_NEWLINE,
  ATTRIBUTE_BREAK,
  SINGLE_QUOTE_BREAK,
  JAVASCRIPT_URL,
  JAVASCRIPT_LINK,
  SRCDOC,
  COMMENT_OPEN,
  LINE_SEPARATORS,
  'https://example.org/ok',
].join('\n');

// Titles are at most 120 characters and kept on one line; U+2028 sits inside, where trimming cannot drop it.
const TITLE_A = `${CLOSE_SPACE}${CLOSE_CAPITALS}\u2028${ATTRIBUTE_BREAK}`;
const TITLE_B = `${SINGLE_QUOTE_BREAK}${COMMENT_OPEN}${SRCDOC}`.slice(0, 120);
// Tags are at most 30 characters each and separated by commas.
const TAGS = ['</script ><svg onload=__xss=1>', '"><img src=x onerror=__xss=1>', 'javascript:__xss=1'];
const BIO = [CLOSE_SPACE, ATTRIBUTE_BREAK, JAVASCRIPT_URL, JAVASCRIPT_LINK, `line\u2028separator`, 'https://example.org/ok'].join(
  '\n',
);
const REJECTION_REASON = [CLOSE_SPACE, CLOSE_TAB, ATTRIBUTE_BREAK, JAVASCRIPT_LINK, SRCDOC].join('\n');

let mediaDir: string;
let api: APIRequestContext;
/**
 * Filled by beforeAll: what the pages below must show as text. Titles and the bio as the API stored them:
 * the input schemas may normalise some characters (line separators, say), never markup.
 */
const site = {
  uploader: { username: '', email: '', token: '' },
  publicA: '',
  publicB: '',
  pending: '',
  rejected: '',
  titles: new Map<string, string>(),
  bio: '',
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-xss-'));
  const clip = makeClip(mediaDir);
  // One context for every member and the admin: its cookie jar keeps the latest login, so writes carry
  // the site's Origin as a browser's would (cookie-authenticated writes must).
  api = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const uploader = await verifiedMember(api, 'xss');
  site.uploader = uploader;
  const upload = (title: string) =>
    uploadClip(api, uploader.token, clip, { title, description: CORPUS, category: 'Beta', tags: TAGS.join(',') });
  site.publicA = await upload(TITLE_A);
  site.publicB = await upload(TITLE_B);
  site.pending = await upload(TITLE_A);
  site.rejected = await upload(TITLE_B);

  const token = await adminToken(api);
  await approve(api, token, site.publicA);
  await approve(api, token, site.publicB);
  const rejection = await api.patch(`/api/admin/videos/${site.rejected}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { action: 'reject', reason: REJECTION_REASON },
  });
  expect(rejection.status(), await rejection.text()).toBe(200);
  await waitUntilPublic(site.publicA);
  await waitUntilPublic(site.publicB);
  for (const id of [site.publicA, site.publicB]) {
    const { video } = (await (await api.get(`/api/videos/${id}`)).json()) as { video: { title: string } };
    expect(video.title).toContain(id === site.publicA ? CLOSE_SPACE : COMMENT_OPEN);
    site.titles.set(id, video.title);
  }

  const bearer = { Authorization: `Bearer ${uploader.token}` };
  const bio = await api.put('/api/users/settings/profile', { headers: bearer, data: { bio: BIO } });
  expect(bio.status(), await bio.text()).toBe(200);
  site.bio = ((await bio.json()) as { bio: string }).bio;
  expect(site.bio).toContain(CLOSE_SPACE);

  // Another member comments, likes (the uploader's notification carries the title) and reports.
  const fan = await verifiedMember(api, 'xssfan');
  const fanAuth = { Authorization: `Bearer ${fan.token}`, ...visitor() };
  const comment = await api.post(`/api/videos/${site.publicA}/comments`, { headers: fanAuth, data: { body: CORPUS } });
  expect(comment.status(), await comment.text()).toBe(201);
  expect((await api.post(`/api/videos/${site.publicA}/like`, { headers: fanAuth })).status()).toBe(200);
  const report = await api.post('/api/reports', {
    headers: fanAuth,
    data: { targetType: 'video', target: site.publicB, reason: 'other', details: CORPUS },
  });
  expect(report.status(), await report.text()).toBe(201);
});

test.afterAll(async () => {
  // Other specs expect a site without lingering public videos.
  if (api) {
    const headers = { Authorization: `Bearer ${await adminToken(api)}` };
    for (const id of [site.publicA, site.publicB].filter(Boolean)) {
      const undo = await api.patch(`/api/admin/videos/${id}`, {
        headers,
        data: { action: 'reject', reason: 'Taken down after the XSS check' },
      });
      expect([200, 409]).toContain(undo.status());
    }
    await api.dispose();
  }
  rmSync(mediaDir, { recursive: true, force: true });
});

/** Records what would show that a payload ran: a dialog, or window.__xss set by any handler. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

/** Nothing ran, no frame or script-URL link was made from text, and every JSON-LD block is whole JSON. */
async function expectInert(page: Page, dialogs: string[], where: string) {
  await page.waitForLoadState('load');
  // Image error handlers fire after a failed load; give them the same moment a visitor would.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => Reflect.get(window, '__xss')), `a payload ran on ${where}`).toBeUndefined();
  expect(dialogs, `a dialog opened on ${where}`).toEqual([]);
  expect(await page.locator('iframe, img[src="x"], svg[onload], img[onerror]').count(), `markup from text on ${where}`).toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count(), `a javascript: link on ${where}`).toBe(0);
  for (const block of await page.locator('script[type="application/ld+json"]').allTextContents()) {
    expect(() => JSON.parse(block), `JSON-LD on ${where}: ${block.slice(0, 200)}`).not.toThrow();
  }
}

async function open(page: Page, dialogs: string[], url: string, text?: string) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBeLessThan(400);
  if (text) await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
  await expectInert(page, dialogs, url);
}

test.describe('stored and reflected XSS', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project');

  test('public pages show the payloads as text and run none of them', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    const dialogs = watch(page);
    for (const id of [site.publicA, site.publicB]) {
      // Twice: the first answer is rendered for this request, the second may come from the page cache.
      for (let round = 0; round < 2; round += 1) await open(page, dialogs, `/video/${id}`, 'onerror=__xss=1');
      const title = site.titles.get(id);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      const [jsonLd] = await page.locator('script[type="application/ld+json"]').allTextContents();
      expect((JSON.parse(jsonLd!) as { name: string }).name).toBe(title);
    }
    await expect(page.locator('.tag-list')).toContainText('#</script ><svg onload=__xss=1>');
    await expect(page.getByText('javascript:window.__xss=1').first()).toBeVisible();
    await open(page, dialogs, '/', 'onerror=__xss=1');
    await open(page, dialogs, '/category/Beta', 'onerror=__xss=1');
    await open(page, dialogs, '/search?q=onerror', 'onerror=__xss=1');
    // Reflected: the query itself is shown on the page and sits in its metadata.
    for (const payload of [CLOSE_SPACE, ATTRIBUTE_BREAK, LINE_SEPARATORS])
      await open(page, dialogs, `/search?q=${encodeURIComponent(payload)}`);
    const embed = await page.goto(`/embed/${site.publicA}`);
    expect(embed?.status()).toBe(200);
    await expect(page.locator('.title')).toContainText('onerror=__xss=1');
    await expectInert(page, dialogs, 'the embed page');
  });

  test('comments, profiles, notifications and the upload list show the payloads as text', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    const dialogs = watch(page);
    await logInThroughForm(page, site.uploader.email, PASSWORD, `/video/${site.publicA}`);
    const comment = page.locator('[id^="comment-"]').first();
    await expect(comment).toContainText('javascript:window.__xss=1');
    await expect(comment.getByRole('link', { name: 'https://example.org/ok' })).toHaveAttribute('href', 'https://example.org/ok');
    await expectInert(page, dialogs, 'the video page as a member');

    await open(page, dialogs, `/profile/${site.uploader.username}`, 'javascript:window.__xss=1');
    // A bio is plain text: no link at all, javascript: or not.
    const bio = page.getByTestId('profile-bio');
    expect(await bio.textContent()).toBe(site.bio);
    expect(await bio.locator('a').count()).toBe(0);

    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    const notifications = page.getByRole('region', { name: 'Notifications' });
    await expect(notifications).toContainText('onerror=__xss=1');
    await expectInert(page, dialogs, 'the notifications panel');

    await open(page, dialogs, '/upload', 'onerror=__xss=1');
  });

  test('admin pages show the payloads as text and run none of them', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    const dialogs = watch(page);
    await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/moderation');
    await showInModerationQueue(page, page.getByText('onerror=__xss=1'));
    await expectInert(page, dialogs, 'the moderation queue');
    await page.getByRole('tab', { name: /^Rejected/ }).click();
    await expect(page.getByText('click me').first()).toBeVisible();
    await expectInert(page, dialogs, 'rejected videos');
    await open(page, dialogs, '/admin/reports', 'onerror=__xss=1');
    await open(page, dialogs, '/admin/audit');
    await open(page, dialogs, '/admin');
  });

  test('a username cannot carry markup: registration refuses it', async () => {
    for (const username of [CLOSE_SPACE, ATTRIBUTE_BREAK, `x${unique()}<b>`, 'a\u2028b']) {
      const response = await api.post('/api/auth/register', {
        headers: visitor(),
        multipart: {
          username,
          email: `xss-${unique()}@example.org`,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          dateOfBirth: '1990-01-01',
        },
      });
      expect(response.status(), username).toBe(400);
    }
  });
});
