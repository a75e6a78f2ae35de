import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import {
  ADMIN,
  adminToken,
  approve,
  logInThroughForm,
  makeClip,
  unique,
  uploadClip,
  verifiedMember,
  waitUntilPublic,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * Notices from anyone and DMCA takedowns (decision 016), in the browser: a
 * visitor's urgent notice from a video page hides the video at once; the
 * admin queue shows its clock; a DMCA notice takes a video down and its
 * uploader answers with a counter-notice.
 */
let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-notices-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

async function publicVideo(request: APIRequestContext, prefix: string) {
  const member = await verifiedMember(request, prefix);
  const title = `Noticed ${prefix} ${unique()}`;
  const id = await uploadClip(request, member.token, clip, { title, category: 'Beta' });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return { id, title, member };
}

const width = (page: Page) => page.viewportSize()?.width ?? 1280;

test('@mobile a visitor sends an urgent notice from a video page and the video is gone at once', async ({
  confirmedPage: page,
  request,
}) => {
  test.setTimeout(180_000);
  const { id, title } = await publicVideo(request, 'ncii');
  await page.goto(`/video/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.getByRole('link', { name: 'Legal notice' }).scrollIntoViewIfNeeded();
  await reviewShot(page, 'video-page-legal-notice');
  await page.getByRole('link', { name: 'Legal notice' }).click();
  await expect(page).toHaveURL(`/report-content?video=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Report content' })).toBeVisible();
  await expect(page.getByLabel('Address of the video', { exact: true })).toHaveValue(id);
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'report-content', { fullPage: true });

  // Every missing part is named before anything is sent.
  await page.getByRole('button', { name: 'Send the notice' }).click();
  await expect(page.getByText('Choose what is wrong with the video')).toBeVisible();
  await expect(page.getByText('Please confirm the declaration of good faith')).toBeVisible();

  // Copyright goes to the DMCA form.
  await page.getByLabel('What is wrong', { exact: true }).selectOption('copyright');
  await expect(page.getByRole('link', { name: 'copyright notice form' })).toBeVisible();

  await page.getByLabel('What is wrong', { exact: true }).selectOption('non_consensual');
  await page
    .getByLabel('Explain why it should come down', { exact: true })
    .fill('This is me. I never agreed to this being filmed or shared. </script >');
  await page.getByLabel('Your full name', { exact: true }).fill('Jo Example');
  await page.getByLabel('Email address (we reply here)', { exact: true }).fill('jo@example.org');
  await page.getByLabel('Signature (type your full name)', { exact: true }).fill('Jo Example');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Send the notice' }).click();
  await expect(page.getByText('Thank you. We have received your notice and emailed you a reference.')).toBeVisible();
  await expect(page.locator('.legal-reference')).toHaveText(/^[0-9a-f-]{36}$/);
  await reviewShot(page, 'report-content-sent', { fullPage: true });

  // Gone from the public site at once: the page, the API, the embed.
  expect((await fetch(new URL(`/api/videos/${id}`, page.url()))).status).toBe(404);
  const videoPage = await page.goto(`/video/${id}`);
  expect(videoPage?.status()).toBe(404);
  const embed = await page.goto(`/embed/${id}`);
  expect(embed?.status()).toBe(404);
});

test('the admin queue shows the urgent notice first with its clock and the sender’s details', async ({
  confirmedPage: page,
  request,
}) => {
  test.skip(width(page) < 1024, 'the 375 px screenshot is taken below');
  test.setTimeout(180_000);
  const { id } = await publicVideo(request, 'queue');
  const sent = await request.post('/api/notices', {
    headers: { 'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    data: {
      video: id,
      reason: 'underage',
      details: 'The person looks about 16.',
      name: 'Sam Sender',
      email: 'sam@example.org',
      signature: 'Sam Sender',
      goodFaith: true,
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/reports');
  const card = page.getByRole('article').filter({ hasText: 'Sam Sender' }).first();
  await expect(card).toBeVisible();
  await expect(card.getByText(/^(1 day 23 hours( \d+ minutes?)?|2 days) left$/)).toBeVisible();
  await expect(card.getByText('Video hidden')).toBeVisible();
  await expect(card.getByRole('link', { name: 'sam@example.org' })).toBeVisible();
  await reviewShot(page, 'admin-reports', { fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'admin-reports', { fullPage: true });
});

test('@mobile a DMCA notice takes a video down and its uploader sends a counter-notice', async ({
  confirmedPage: page,
  request,
}) => {
  test.setTimeout(180_000);
  const { id, member } = await publicVideo(request, 'dmca');
  await page.goto(`/copyright/notice?video=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Copyright notice (DMCA)' })).toBeVisible();
  await page.getByLabel('The copyrighted work', { exact: true }).fill('My film “Dawn” (2025), first published on my own site.');
  await page.getByLabel('Your full name', { exact: true }).fill('Rita Owner');
  await page.getByLabel('Email address (we reply here)', { exact: true }).fill('rita@example.org');
  await page.getByLabel('Postal address', { exact: true }).fill('1 Main St\nSpringfield');
  await page.getByLabel('Phone number', { exact: true }).fill('+1 555 010 0000');
  await page.getByLabel('Signature (type your full name)', { exact: true }).fill('Rita Owner');
  await page.getByRole('button', { name: 'Send the copyright notice' }).click();
  await expect(page.getByText('Please confirm the statement under penalty of perjury')).toBeVisible();
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'copyright-notice', { fullPage: true });
  await page.getByRole('button', { name: 'Send the copyright notice' }).click();
  await expect(page.getByText('Thank you. The video was taken down.')).toBeVisible();
  expect((await fetch(new URL(`/api/videos/${id}`, page.url()))).status).toBe(404);

  await logInThroughForm(page, member.email, member.password, `/copyright/counter-notice?video=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Counter-notice' })).toBeVisible();
  await expect(page.getByLabel('Your video’s id', { exact: true })).toHaveValue(id);
  await page
    .getByLabel('The material that was removed and where it appeared', { exact: true })
    .fill(`My own video, at /video/${id}`);
  await page.getByLabel('Your full legal name', { exact: true }).fill('Alex Uploader');
  await page.getByLabel('Postal address', { exact: true }).fill('2 Side St, London');
  await page.getByLabel('Phone number', { exact: true }).fill('+44 20 7946 0000');
  await page.getByLabel('Signature (type your full legal name)', { exact: true }).fill('Alex Uploader');
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'counter-notice', { fullPage: true });
  await page.getByRole('button', { name: 'Send the counter-notice' }).click();
  await expect(page.getByText('Thank you. We forwarded your counter-notice')).toBeVisible();

  // A second one is refused with a clear sentence.
  await page.reload();
  await page.getByLabel('The material that was removed and where it appeared', { exact: true }).fill('Again');
  await page.getByLabel('Your full legal name', { exact: true }).fill('Alex Uploader');
  await page.getByLabel('Postal address', { exact: true }).fill('2 Side St, London');
  await page.getByLabel('Phone number', { exact: true }).fill('+44 20 7946 0000');
  await page.getByLabel('Signature (type your full legal name)', { exact: true }).fill('Alex Uploader');
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: 'Send the counter-notice' }).click();
  await expect(page.getByText(/You have already sent a counter-notice for this video/)).toBeVisible();
});
