import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { unique } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { declareOnlyMe, signInNewMember } from './upload-steps';

// Small real media, made by ffmpeg for this file and removed after it.
let mediaDir = '';
let clip = '';
let fakeVideo = '';
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-upload-e2e-'));
  clip = path.join(mediaDir, 'a-short-test-clip-with-a-rather-long-file-name-for-small-screens.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    clip,
  ]);
  fakeVideo = path.join(mediaDir, 'notes.mp4');
  writeFileSync(fakeVideo, 'These are my notes, not a video.\n'.repeat(40));
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

test.describe('upload', () => {
  test('a member uploads a real video, follows it to review, and finds it under Your videos @mobile', async ({
    confirmedPage: page,
  }) => {
    test.setTimeout(150_000);
    await signInNewMember(page);
    await expect(page).toHaveTitle(/^Upload \|/);
    const yourVideos = page.locator('#your-videos');
    await expect(yourVideos.getByText('You have not uploaded any videos yet.')).toBeVisible();
    await expectNoSidewaysScroll(page, 'on the empty upload page');
    await reviewShot(page, 'empty', { fullPage: true });

    // The file: its name and size show in the drop zone.
    await page.getByLabel('Video file').setInputFiles(clip);
    await expect(page.getByText(path.basename(clip))).toBeVisible();
    await expect(page.locator('.upload-chosen-size')).toHaveText(/^\d+(\.\d)? KB$/);

    const title = `Morning routine ${unique()}`;
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('Two seconds of test pattern, for the upload test.');
    await page.getByLabel('Category').selectOption('Sissy');
    await page.getByLabel('Tags').fill('First Time, #heels, first time');
    const chips = page.getByRole('list', { name: 'Your tags' }).getByRole('listitem');
    await expect(chips).toHaveText(['#first time', '#heels']);
    await declareOnlyMe(page);
    await expectNoSidewaysScroll(page, 'with a long file name and tags');
    await reviewShot(page, 'filled', { fullPage: true });

    await page.getByRole('button', { name: 'Upload video' }).click();
    // The bar reaches 100 % and says how many bytes went.
    const bar = page.getByRole('progressbar', { name: 'Upload progress' });
    await expect(bar).toHaveJSProperty('value', 100);
    await expect(page.locator('.upload-progress-text')).toHaveText(/^[\d.]+ KB of [\d.]+ KB · 100%$/);
    await expect(page.getByRole('heading', { name: 'Upload complete' })).toBeFocused();
    await expect(page.getByText(title, { exact: true }).first()).toBeVisible();

    // The worker really processes it: Processing… → Ready — waiting for review.
    const state = page.getByTestId('upload-state');
    await expect(state).toHaveText(/Processing…|Ready — waiting for review/);
    await expect(state).toHaveText('Ready — waiting for review', { timeout: 90_000 });
    const videoLink = page.getByRole('link', { name: 'Open the video page' });
    await expect(videoLink).toHaveAttribute('href', /^\/video\/[A-Za-z0-9_-]+$/);

    // Your videos lists it as waiting for review.
    const row = yourVideos.getByRole('listitem').filter({ hasText: title });
    await expect(row).toBeVisible({ timeout: 20_000 });
    await expect(row.getByText('Waiting for review')).toBeVisible({ timeout: 20_000 });
    await expect(row.getByRole('link', { name: title })).toHaveAttribute('href', (await videoLink.getAttribute('href'))!);
    await expectNoSidewaysScroll(page, 'after the upload');
    await reviewShot(page, 'done', { fullPage: true });

    // Upload another: an empty form again, focus on the title.
    await page.getByRole('button', { name: 'Upload another' }).click();
    await expect(page.getByLabel('Title')).toBeFocused();
    await expect(page.getByLabel('Title')).toHaveValue('');
    await expect(page.locator('.upload-chosen')).toBeHidden();

    // The rejection notification's link lands on the list, though the list renders after the session loads.
    await page.goto('/');
    await page.goto('/upload#your-videos');
    await expect(yourVideos.getByRole('listitem').filter({ hasText: title })).toBeInViewport();
  });

  test('the form’s own checks stop an upload before it starts', async ({ confirmedPage: page }) => {
    await signInNewMember(page);
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/videos/upload')) uploads.push(request.url());
    });

    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText('Choose a video file to upload.')).toBeVisible();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.locator('#upload-category-error')).toHaveText('Choose a category');

    await page.getByLabel('Video file').setInputFiles(clip);
    await page.getByLabel('Category').selectOption('Beta');
    await expect(page.getByText('Choose a video file to upload.')).toBeHidden();
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByLabel('Title')).toBeFocused();

    // An empty file is refused in the browser too.
    await page.getByLabel('Video file').setInputFiles({ name: 'empty.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(0) });
    await expect(page.getByText('The video file is empty.')).toBeVisible();
    // Too many tags and an over-long title use the shared rules' messages.
    await page.getByLabel('Title').fill('x'.repeat(121));
    await page.getByLabel('Tags').fill(Array.from({ length: 16 }, (_, i) => `tag${i}`).join(','));
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText('Title must be at most 120 characters')).toBeVisible();
    await expect(page.getByText('Use at most 15 tags')).toBeVisible();
    // Who appears in it is asked before any byte is sent.
    await page.getByLabel('Video file').setInputFiles(clip);
    await page.getByLabel('Title').fill('Nobody declared');
    await page.locator('#upload-tags').fill('');
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText('Enter the date the video was recorded.')).toBeVisible();
    await expect(page.getByLabel('Recording date')).toBeFocused();
    expect(uploads).toEqual([]);
  });

  test('a text file named .mp4 gets the server’s “not a video” message beside the picker', async ({ confirmedPage: page }) => {
    await signInNewMember(page);
    await page.getByLabel('Video file').setInputFiles(fakeVideo);
    await page.getByLabel('Title').fill('Not really a video');
    await page.getByLabel('Category').selectOption('Censor');
    await declareOnlyMe(page);
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/videos/upload'));
    await page.getByRole('button', { name: 'Upload video' }).click();
    expect((await answer).status()).toBe(415);
    const error = page.locator('#upload-video-error');
    await expect(error).toHaveText(/not a video we can read/);
    await expect(page.getByLabel('Video file')).toHaveAttribute('aria-invalid', 'true');
    // The form keeps what was typed, ready for another file.
    await expect(page.getByLabel('Title')).toHaveValue('Not really a video');
    await expect(page.getByRole('button', { name: 'Upload video' })).toBeEnabled();
  });

  test('a lost connection is retried with a countdown, and the second attempt goes through', async ({ confirmedPage: page }) => {
    await signInNewMember(page);
    let attempts = 0;
    await page.route('**/api/videos/upload', (route) => {
      attempts += 1;
      return attempts === 1 ? route.abort('connectionreset') : route.continue();
    });
    await page.getByLabel('Video file').setInputFiles(clip);
    await page.getByLabel('Title').fill('Retried upload');
    await page.getByLabel('Category').selectOption('Beta');
    await declareOnlyMe(page);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByText(/^Connection lost\. Retrying in [12] s… \(attempt 2 of 3\)$/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Upload complete' })).toBeVisible({ timeout: 15_000 });
    expect(attempts).toBe(2);
  });

  test('cancel stops the upload, says so, and is not retried @mobile', async ({ confirmedPage: page }) => {
    await signInNewMember(page);
    // Hold the request so there is time to look at it and cancel it.
    let attempts = 0;
    await page.route('**/api/videos/upload', () => {
      attempts += 1;
    });
    await page.getByLabel('Video file').setInputFiles(clip);
    await page.getByLabel('Title').fill('Cancelled upload');
    await page.getByLabel('Category').selectOption('Sissy');
    await declareOnlyMe(page);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    await expect(page.locator('.upload-progress-text')).toHaveText(/^[\d.]+ K?B of [\d.]+ KB · \d+%$/);
    const cancel = page.getByRole('button', { name: 'Cancel' });
    await expect(cancel).toBeFocused();
    await expectNoSidewaysScroll(page, 'while uploading');
    await reviewShot(page.locator('.upload-form'), 'sending');
    await cancel.click();
    await expect(page.getByText('Upload cancelled.')).toBeVisible();
    await expect(page.getByRole('progressbar')).toBeHidden();
    await expect(page.getByLabel('Title')).toHaveValue('Cancelled upload');
    await page.waitForTimeout(2_500); // past the first retry delay: nothing more is sent
    expect(attempts).toBe(1);
  });

  test('visitors are sent to log in first', async ({ confirmedPage: page }) => {
    await page.goto('/upload');
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent('/upload')}`);
  });
});
