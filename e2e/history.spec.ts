import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page, Request } from '@playwright/test';

import {
  adminToken,
  approve,
  logInThroughForm,
  makeClip,
  unique,
  uploadClip,
  verifiedMember,
  visitor,
  waitUntilPublic,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { STORAGE_KEYS } from '../lib/storage-keys';

/**
 * Resume and history (decision 053): a visitor's place stays in the browser (never sent) and the player resumes there;
 * a member's is saved to the server, the player resumes there after they leave and come back (with Start over),
 * home shows it under Continue watching, and /history lists it with remove, clear all and pause. At 1280 and 375 px.
 */

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-history-'));
  // 24 s: a place at 8 s is worth resuming (past 5 s) and not in the last 10 s.
  clip = makeClip(mediaDir, 'clip.mp4', 24, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const video = (page: Page, title: string) => page.getByLabel(`Video: ${title}`);
const currentTime = (page: Page, title: string) =>
  video(page, title).evaluate((element: HTMLVideoElement) => element.currentTime);
const isProgressWrite = (request: Request) => request.method() === 'PUT' && /\/api\/videos\/[^/]+\/progress$/.test(request.url());

/** Opens the video page and starts playback (muted: headless Chromium's autoplay rules) with the start button. */
async function startPlaying(page: Page, streamVideoId: string, title: string): Promise<void> {
  await page.goto(`/video/${streamVideoId}`);
  await video(page, title).evaluate((element: HTMLVideoElement) => {
    element.muted = true;
  });
  await page.getByRole('link', { name: `Play: ${title}` }).click();
  await expect.poll(() => currentTime(page, title)).toBeGreaterThan(0.3);
}

/** Moves playback to `at` seconds and pauses there, as a viewer who stops watching. */
const stopAt = (page: Page, title: string, at: number) =>
  video(page, title).evaluate(async (element: HTMLVideoElement, seconds) => {
    element.currentTime = seconds;
    await new Promise((resolve) => element.addEventListener('seeked', resolve, { once: true }));
    element.pause();
  }, at);

test('@mobile resumes where a viewer stopped; a member finds it under Continue watching and in History, and removes, clears and pauses it', async ({
  confirmedPage: page,
  request,
}) => {
  test.setTimeout(240_000);
  const word = `hy${unique()}`;
  const owner = await verifiedMember(request, 'hist_owner');
  const admin = await adminToken(request);
  const title = `${word} resume me`;
  const other = `${word} second video`;
  const streamVideoId = await uploadClip(request, owner.token, clip, { title, category: 'Beta' });
  const otherId = await uploadClip(request, owner.token, clip, { title: other, category: 'Beta' });
  for (const id of [streamVideoId, otherId]) await approve(request, admin, id);
  for (const id of [streamVideoId, otherId]) await waitUntilPublic(id);

  // A visitor: the place stays in this browser, nothing is sent.
  const writes: string[] = [];
  page.on('request', (sent) => {
    if (isProgressWrite(sent)) writes.push(sent.url());
  });
  await startPlaying(page, streamVideoId, title);
  await stopAt(page, title, 8);
  await expect
    .poll(() => page.evaluate((key) => JSON.parse(window.localStorage.getItem(key) ?? '{}'), STORAGE_KEYS.watchProgress))
    .toMatchObject({ [streamVideoId]: [8, 0, expect.any(Number)] });
  await startPlaying(page, streamVideoId, title);
  await expect(page.locator('.player-resume')).toContainText('Resumed from 0:08');
  expect(await currentTime(page, title)).toBeGreaterThanOrEqual(8);
  expect(writes).toEqual([]);

  // A member: plays, stops at 0:08 and leaves; the place is on the server.
  const member = await verifiedMember(request, 'watcher');
  // Autoplay off, so the member presses play as the visitor did (the start button is the same path either way).
  const preference = await request.put('/api/users/settings/preferences', {
    headers: { Authorization: `Bearer ${member.token}`, ...visitor() },
    data: { autoPlayVideos: false },
  });
  expect(preference.ok()).toBe(true);
  await logInThroughForm(page, member.email, member.password, '/history');
  await expect(page.getByText('Your history is empty.')).toBeVisible();
  // The second video watched before (through the API, as the player saves it).
  const put = await request.put(`/api/videos/${otherId}/progress`, {
    headers: { Authorization: `Bearer ${member.token}`, ...visitor() },
    data: { positionSeconds: 6 },
  });
  expect(await put.json()).toEqual({ saved: true, paused: false });
  await startPlaying(page, streamVideoId, title);
  const saved = page.waitForRequest(isProgressWrite);
  await stopAt(page, title, 8);
  // Where it stopped, to a tenth (playback may run on a moment between the seek and the pause).
  const sent = (await saved).postDataJSON() as { positionSeconds: number };
  expect(sent.positionSeconds).toBeGreaterThanOrEqual(8);
  expect(sent.positionSeconds).toBeLessThan(8.6);
  await page.goto('/');

  // Home: Continue watching, with the bar.
  const row = page.getByRole('region', { name: 'Continue watching' });
  await expect(row.locator('.video-card-title')).toHaveText([title, other]);
  await expect(row.locator('.watched-bar > span')).toHaveCount(2);
  await expectNoSidewaysScroll(page, 'home with Continue watching');
  await row.scrollIntoViewIfNeeded();
  await reviewShot(page, 'home-continue-watching');

  // Coming back: the player resumes at the saved point and offers to start over.
  await row.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/video/${streamVideoId}$`), { timeout: 20_000 });
  await video(page, title).evaluate((element: HTMLVideoElement) => {
    element.muted = true;
  });
  await page.getByRole('link', { name: `Play: ${title}` }).click();
  const resumed = page.locator('.player-resume');
  await expect(resumed).toContainText('Resumed from 0:08');
  await expect.poll(() => currentTime(page, title)).toBeGreaterThanOrEqual(8);
  await reviewShot(page, 'player-resumed');
  await resumed.getByRole('button', { name: 'Start over' }).click();
  await expect(resumed).toHaveCount(0);
  expect(await currentTime(page, title)).toBeLessThan(5);

  // History: newest first, with where they stopped.
  await page.goto('/history');
  const list = page.getByRole('list', { name: 'Your history' });
  await expect(list.locator('.video-card-title')).toHaveText([title, other]);
  await expect(list.getByText('Stopped at 0:06')).toBeVisible();
  await expectNoSidewaysScroll(page, 'history');
  await reviewShot(page, 'history-list', { fullPage: true });

  // Remove one.
  await list.getByRole('button', { name: `Remove ${title} from your history` }).click();
  await expect(list.locator('.video-card-title')).toHaveText([other]);

  // Pause: the state is explained, and the player's writes keep nothing.
  const pause = page.getByRole('switch', { name: /Pause history/ });
  await pause.check();
  await expect(page.getByText('History paused.')).toBeVisible();
  await expect(page.getByText(/Paused: the videos you watch are not added/)).toBeVisible();
  await reviewShot(page, 'history-paused', { fullPage: true });
  const whilePaused = await request.put(`/api/videos/${streamVideoId}/progress`, {
    headers: { Authorization: `Bearer ${member.token}`, ...visitor() },
    data: { positionSeconds: 9 },
  });
  expect(await whilePaused.json()).toEqual({ saved: false, paused: true });
  await page.reload();
  await expect(list.locator('.video-card-title')).toHaveText([other]);
  await page.getByRole('switch', { name: /Pause history/ }).uncheck();
  await expect(page.getByText('History is on again.')).toBeVisible();

  // Clear all, asked twice.
  await page.getByRole('button', { name: 'Clear all history' }).click();
  const confirm = page.getByRole('group', { name: 'Clear all history' });
  await expect(confirm).toContainText('This cannot be undone.');
  await reviewShot(page, 'history-clear-confirm');
  await confirm.getByRole('button', { name: 'Clear history' }).click();
  await expect(page.getByText('Your history is empty.')).toBeVisible();

  // The account menu leads here (in the mobile menu at 375 px).
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.locator('a[href="/history"]:visible').first().click();
  await expect(page).toHaveURL(/\/history$/, { timeout: 20_000 });
  if (page.viewportSize()?.width === 1280) {
    // The member navbar is tightest at the narrow ends of its desktop steps: the new link must still fit.
    for (const width of [1024, 1200, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoSidewaysScroll(page, `history at ${width} px`);
    }
    await page.setViewportSize({ width: 1024, height: 800 });
    await reviewShot(page, 'history-1024');
  }
});

test('visitors are sent to log in for /history', async ({ confirmedPage: page }) => {
  await page.goto('/history');
  await expect(page).toHaveURL(/\/login\?next=%2Fhistory$/, { timeout: 20_000 });
});
