import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { CDPSession, Page } from '@playwright/test';

import { unique } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { declareOnlyMe, signInNewMember } from './upload-steps';

/**
 * Resumable uploads (tus, decision 026): the e2e server sends files from
 * 1 MiB on through tus (RESUMABLE_UPLOAD_THRESHOLD_BYTES in
 * playwright.config.ts). The browser's upload is slowed (DevTools network
 * throttling) so the test can cut the connection, or reload the page,
 * half-way. With E2E_SCREENSHOTS set, the form is kept at each step (e2e/fixtures.ts, reviewShot).
 */
/** Bytes a second the browser may send: a 4 MB clip takes about 8 s. */
const UPLOAD_BYTES_PER_SECOND = 512 * 1024;

let mediaDir = '';
let clip = '';
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-resumable-e2e-'));
  clip = path.join(mediaDir, 'a-longer-clip-sent-in-resumable-pieces.mp4');
  // About 4 MB of real video: over the e2e threshold, small enough to make in a second.
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=duration=4:size=640x360:rate=25',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '8M',
    '-maxrate',
    '8M',
    '-bufsize',
    '8M',
    '-pix_fmt',
    'yuv420p',
    clip,
  ]);
  expect(statSync(clip).size).toBeGreaterThan(2 * 1024 * 1024);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

async function throttle(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await setNetwork(cdp, false);
  return cdp;
}

const setNetwork = (cdp: CDPSession, offline: boolean) =>
  cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: UPLOAD_BYTES_PER_SECOND,
  });

async function fillForm(page: Page, title: string) {
  await page.getByLabel('Video file').setInputFiles(clip);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption('Sissy');
  await page.getByLabel('Tags').fill('resumable');
  await declareOnlyMe(page);
}

/** Waits until the progress bar passes `percent`. */
async function progressPast(page: Page, percent: number) {
  await expect
    .poll(
      async () =>
        Number(
          await page.getByRole('progressbar', { name: 'Upload progress' }).evaluate((bar: HTMLProgressElement) => bar.value),
        ),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(percent);
}

test.describe('resumable upload', () => {
  test('a dropped connection is retried and continues from where the server stands @mobile', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    await signInNewMember(page);
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/videos/upload')) requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    // The first PATCH dies as a dropped connection does (a reset); the ones after it go through.
    let dropped = false;
    await page.route(/\/api\/videos\/uploads\/[0-9a-f]+$/, async (route) => {
      if (route.request().method() === 'PATCH' && !dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.fallback();
    });
    const title = `Resumed after a drop ${unique()}`;
    await fillForm(page, title);
    await page.getByRole('button', { name: 'Upload video' }).click();
    // The form says so and waits to try again.
    await expect(page.getByRole('status').filter({ hasText: /Connection lost\. Retrying/ })).toBeVisible({ timeout: 15_000 });
    await expectNoSidewaysScroll(page, 'while waiting to retry');
    await reviewShot(page, 'dropped', { fullPage: true });
    // Then it asks where the upload stands (HEAD) and continues from that offset with the same upload, not a new one.
    await expect(page.getByRole('heading', { name: 'Upload complete' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();
    expect(requests.filter((line) => line === 'POST /api/videos/uploads')).toHaveLength(1);
    expect(requests.some((line) => line.startsWith('HEAD /api/videos/uploads/'))).toBe(true);
    expect(requests.filter((line) => line.startsWith('PATCH /api/videos/uploads/'))).toHaveLength(2);
    expect(requests).not.toContain('POST /api/videos/upload');
    await reviewShot(page, 'done', { fullPage: true });
  });

  test('after a reload, picking the same file again continues the upload @mobile', async ({ confirmedPage: page }) => {
    test.setTimeout(120_000);
    await signInNewMember(page);
    const cdp = await throttle(page);
    const title = `Resumed after a reload ${unique()}`;
    await fillForm(page, title);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await progressPast(page, 25);
    // The page asks before leaving an upload; the member leaves anyway.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByRole('button', { name: 'Upload video' })).toBeVisible();

    await setNetwork(cdp, false);
    await fillForm(page, title);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText(/^Resuming from \d+ %/)).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(page, 'while resuming');
    await reviewShot(page, 'resuming', { fullPage: true });
    const resumedAt = Number(/Resuming from (\d+) %/.exec((await page.getByText(/^Resuming from/).textContent()) ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Upload complete' })).toBeVisible({ timeout: 60_000 });
  });

  test('cancel ends the upload on the server too', async ({ confirmedPage: page }) => {
    await signInNewMember(page);
    await throttle(page);
    const ended = page.waitForRequest(
      (request) => request.method() === 'DELETE' && request.url().includes('/api/videos/uploads/'),
    );
    await fillForm(page, `Cancelled ${unique()}`);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await progressPast(page, 5);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('Upload cancelled.')).toBeVisible();
    expect((await (await ended).response())?.status()).toBe(204);
  });
});
