import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from '@playwright/test';

import { ADMIN, BASE_URL, logInThroughForm, makeClip, unique, verifiedMember, visitor, wholeSitemap } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, showInModerationQueue, test } from './fixtures';

/**
 * Performer records and withdrawal of consent (decision 015), end to end at
 * 1280 and 375 px: an uploader declares a co-performer with the in-app
 * release, an admin sees the records beside the video, a visitor withdraws
 * consent and the video is gone at once; the admin confirms the withdrawal.
 */

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

let mediaDir = '';
let clipFile = '';
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-performers-e2e-'));
  makeClip(mediaDir, 'performers.mp4');
  clipFile = path.join(mediaDir, 'performers.mp4');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

async function adminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: visitor() });
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  const page = await context.newPage();
  await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/moderation');
  return page;
}

test('an uploader declares a co-performer, the admin sees the records, a visitor withdraws consent and the video is gone @mobile', async ({
  confirmedPage: page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const width = testInfo.project.name === 'mobile' ? 375 : 1280;
  const member = await verifiedMember(request, 'performer');
  await logInThroughForm(page, member.email, member.password, '/upload');

  const title = `Duet ${unique()}`;
  await page.getByLabel('Video file').setInputFiles(clipFile);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption('Beta');
  await page.getByLabel('Recording date').fill(yesterday());
  await page.getByLabel('I appear in this video').check();
  await page.getByRole('button', { name: 'Add a co-performer' }).click();
  const card = page.getByRole('region', { name: 'Co-performer 1' });
  await card.getByLabel('Legal name', { exact: true }).fill('Samantha Doe');
  await card.getByLabel('Stage name', { exact: true }).fill('Sam Star');
  // Under 18 on the recording date: the browser says so before anything is sent, with the server's sentence.
  await card
    .getByLabel('Date of birth', { exact: true })
    .fill(new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10));
  await card.getByLabel('ID document (photo or PDF)').setInputFiles({ name: 'id.png', mimeType: 'image/png', buffer: PNG });
  for (const statement of ['I am 18 or older.', 'I agreed to be filmed.', 'I agree to this video being published on Chrysalis.'])
    await card.getByLabel(statement).check();
  await card.getByLabel(/I know I can withdraw my consent/).check();
  await card.getByLabel('Signature (their full legal name)').fill('Samantha Doe');
  await card.getByLabel('Date signed').fill(yesterday());
  await page.getByRole('button', { name: 'Upload video' }).click();
  await expect(page.getByText(/^Sam Star was under 18 on the recording date/)).toBeVisible();
  await expect(card.getByLabel('Date of birth', { exact: true })).toBeFocused();
  await card.getByLabel('Date of birth', { exact: true }).fill('1995-06-15');
  await expectNoSidewaysScroll(page, 'with a co-performer');
  await reviewShot(page.locator('.upload-form'), 'upload-form');

  await page.getByRole('button', { name: 'Upload video' }).click();
  await expect(page.getByRole('heading', { name: 'Upload complete' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/performer records were not saved/)).toHaveCount(0);
  const href = (await page.getByRole('link', { name: 'Open the video page' }).getAttribute('href'))!;
  const streamVideoId = href.split('/').pop()!;

  const records = await request.get(`/api/videos/${streamVideoId}/performers`, {
    headers: { Authorization: `Bearer ${member.token}` },
  });
  expect(
    ((await records.json()) as { records: { complete: boolean; coPerformers: { stageName: string }[] } }).records,
  ).toMatchObject({ complete: true, coPerformers: [{ stageName: 'Sam Star' }] });

  // The admin sees who appears beside the video, with links to the documents, and approves it.
  const admin = await adminPage(browser);
  await admin.setViewportSize({ width, height: 900 });
  const item = admin.getByRole('article', { name: title });
  await showInModerationQueue(admin, item);
  const panel = item.getByRole('region', { name: `Performer records of ${title}` });
  await expect(panel.getByText('Sam Star')).toBeVisible();
  await expect(panel.getByText('legal name Samantha Doe', { exact: false })).toBeVisible();
  await expect(panel.getByText(/aged \d+ when recorded/)).toBeVisible();
  await expect(panel.getByRole('link', { name: 'ID document' })).toHaveAttribute(
    'href',
    /^\/api\/admin\/documents\/[0-9a-f-]{36}$/,
  );
  await expect(panel.getByText(/The uploader/)).toBeVisible();
  await expect(item.locator('video')).toBeVisible({ timeout: 60_000 });
  await item.scrollIntoViewIfNeeded();
  await reviewShot(item, 'moderation-records');
  await item.getByRole('button', { name: `Approve ${title}` }).click();
  await expect.poll(async () => (await fetch(`${BASE_URL}/api/videos/${streamVideoId}`)).status, { timeout: 60_000 }).toBe(200);

  // A visitor (no account) withdraws consent from the video page's link; the video is gone at once.
  const context = await browser.newContext({ viewport: { width, height: 800 }, extraHTTPHeaders: visitor() });
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  const visitorPage = await context.newPage();
  await visitorPage.goto(`/video/${streamVideoId}`);
  const withdrawLink = visitorPage.getByRole('link', { name: 'Withdraw your consent' });
  await expect(withdrawLink).toHaveAttribute('href', `/withdraw-consent?video=${streamVideoId}`);
  await visitorPage.goto(`/withdraw-consent?video=${streamVideoId}`);
  await expect(visitorPage.getByLabel('Link to the video')).toHaveValue(`/video/${streamVideoId}`);
  await visitorPage.getByLabel('Your legal name').fill('Samantha Doe');
  await visitorPage.getByLabel('Your date of birth').fill('1995-06-15');
  await visitorPage.getByLabel('Email to reach you').fill('sam@example.org');
  await visitorPage.getByRole('button', { name: 'Withdraw my consent' }).click();
  await expect(
    visitorPage.getByText('Tell us in a sentence or two that you appear in this video and withdraw your consent.'),
  ).toBeVisible();
  await visitorPage.getByLabel('Your statement').fill('I am Sam Star in this video and I withdraw my consent to it.');
  await visitorPage.getByRole('button', { name: 'Withdraw my consent' }).click();
  await expect(visitorPage.getByText(/^Thank you\. If that video is on Chrysalis, it is now hidden/)).toBeVisible();
  await expectNoSidewaysScroll(visitorPage, 'on the withdrawal form');
  await reviewShot(visitorPage, 'withdraw-consent', { fullPage: true });
  expect((await fetch(`${BASE_URL}/api/videos/${streamVideoId}`)).status).toBe(404);
  expect((await visitorPage.goto(`/video/${streamVideoId}`))!.status()).toBe(404);
  expect(await (await fetch(`${BASE_URL}/feed.xml`)).text()).not.toContain(streamVideoId);
  expect(await wholeSitemap()).not.toContain(streamVideoId);
  await context.close();

  // The admin sees the withdrawal beside the video and confirms it: removed for good.
  await admin.goto('/admin/moderation');
  const held = admin.getByRole('article', { name: title });
  await showInModerationQueue(admin, held);
  await expect(held.getByText('Consent withdrawn', { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(held.getByText(/A performer has withdrawn consent for this video/)).toBeVisible();
  await reviewShot(held, 'moderation-withdrawal');
  await held.getByRole('button', { name: 'Confirm: remove the video' }).click();
  await expect(admin.getByRole('article', { name: title })).toHaveCount(0, { timeout: 15_000 });
  await admin.context().close();
});

test('a visitor’s withdrawal for a link that is no video gets the same answer @mobile', async ({ confirmedPage: page }) => {
  await page.goto('/withdraw-consent');
  await expect(page.getByRole('heading', { level: 1, name: 'Withdraw your consent to a video' })).toBeVisible();
  await page.getByRole('button', { name: 'Withdraw my consent' }).click();
  await expect(page.getByText('Paste the link of the video', { exact: false })).toBeVisible();
  await reviewShot(page, 'withdraw-consent-errors', { fullPage: true });
  await page.getByLabel('Link to the video').fill(`${BASE_URL}/video/nosuchvideo42`);
  await page.getByLabel('Your legal name').fill('Alex Doe');
  await page.getByLabel('Your date of birth').fill('1990-01-01');
  await page.getByLabel('Email to reach you').fill('alex@example.org');
  await page.getByLabel('Your statement').fill('I appear in this video and withdraw my consent.');
  await page.getByRole('button', { name: 'Withdraw my consent' }).click();
  await expect(page.getByText(/^Thank you\. If that video is on Chrysalis/)).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Withdraw consent' })).toHaveAttribute(
    'href',
    '/withdraw-consent',
  );
});
