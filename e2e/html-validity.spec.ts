import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { adminToken, approve, makeClip, unique, uploadClip, verifiedMember, visitor, waitUntilPublic } from './api';
import { expect, reviewShot, test } from './fixtures';

/**
 * What machines see (issue 36): the server's HTML, as a crawler or a browser without JavaScript gets it, checked by
 * the W3C Nu HTML Checker (vnu-jar, run on the machine's Java), and the 404 and 410 pages rendered on the server.
 */
const VNU_JAR = path.join(process.cwd(), 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

interface VnuMessage {
  type: string;
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** One Java start for every page (the checker takes seconds to start): its errors, by page. */
function checkHtml(pages: Record<string, string>): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-vnu-'));
  try {
    const files = Object.entries(pages).map(([name, html]) => {
      const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '_') || 'home'}.html`);
      writeFileSync(file, html);
      return file;
    });
    const run = spawnSync('java', ['-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.error, 'java is needed to run the Nu HTML Checker').toBeUndefined();
    const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    return messages
      .filter((message) => message.type === 'error' || message.subType === 'fatal')
      .map(
        (message) =>
          `${path.basename(message.url ?? '')}:${message.lastLine ?? '?'} ${message.message} [${message.extract ?? ''}]`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.describe('the server HTML', () => {
  let videoId: string;

  test.beforeAll(async ({ request }, testInfo) => {
    testInfo.setTimeout(180_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-vnu-'));
    try {
      const member = await verifiedMember(request, 'validator');
      // User-written text with the characters that have broken pages before.
      videoId = await uploadClip(request, member.token, makeClip(dir), {
        title: `Valid </script > “markup” ${unique()} 🦋`,
        description: 'A description with <b>tags</b> & ampersands.',
        category: 'Sissy',
        tags: 'valid, markup',
      });
      await approve(request, await adminToken(request), videoId);
      await waitUntilPublic(videoId);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('has no Nu HTML Checker errors on home, a video, a category, search, a policy, login and the 404', async ({ request }) => {
    test.slow();
    const paths = ['/', `/video/${videoId}`, '/category/Sissy', '/search?q=valid', '/privacy-policy', '/login', '/no-such-page'];
    const pages: Record<string, string> = {};
    for (const where of paths) pages[where] = await (await request.get(where, { headers: visitor() })).text();
    expect(checkHtml(pages)).toEqual([]);
  });
});

test.describe('missing pages, without JavaScript', () => {
  for (const where of [
    '/no-such-page',
    '/video/nosuchvideo1',
    '/playlist/nosuchlist12',
    '/category/Nope',
    '/tag/no-video-carries-this-tag',
  ]) {
    test(`${where} is a 404 rendered on the server`, async ({ request }) => {
      const response = await request.get(where, { headers: visitor() });
      expect(response.status()).toBe(404);
      const html = await response.text();
      expect(html).toMatch(/<html lang="en"/);
      expect(html).toContain('<h1 id="not-found-title">This page doesn’t exist</h1>');
      expect(html).toMatch(/<a class="btn btn-primary" href="\/">Go to home<\/a>/);
      expect(html).toMatch(/<a class="btn btn-ghost" href="\/search">Search videos<\/a>/);
      expect(html.match(/<meta name="robots"/g)).toEqual(['<meta name="robots"']);
      expect(html).toContain('<meta name="robots" content="noindex, follow"/>');
    });
  }

  test('a video its owner deleted is 410 Gone, with the same page', async ({ request, confirmedPage: page }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-gone-'));
    try {
      const member = await verifiedMember(request, 'goner');
      const id = await uploadClip(request, member.token, makeClip(dir), { title: `Soon gone ${unique()}` });
      // Never published: a 404, as it may still come.
      expect((await request.get(`/video/${id}`, { headers: visitor() })).status()).toBe(404);
      const deleted = await request.delete(`/api/videos/${id}`, { headers: { Authorization: `Bearer ${member.token}` } });
      expect(deleted.status(), await deleted.text()).toBe(200);
      const response = await request.get(`/video/${id}`, { headers: visitor() });
      expect(response.status()).toBe(410);
      const html = await response.text();
      expect(html).toMatch(/<html lang="en"/);
      expect(html).toContain('<h1 id="not-found-title">This video was removed</h1>');
      expect(html).toContain('<title>Video removed | Chrysalis</title>');
      expect(html.match(/<meta name="robots"/g)).toHaveLength(1);
      await page.goto(`/video/${id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'This video was removed' })).toBeVisible();
      await reviewShot(page, 'video-removed-410', { widths: [1280, 375] });
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeVisible();
      await reviewShot(page, 'missing-404', { widths: [1280, 375] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
