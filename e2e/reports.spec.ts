import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { adminToken, approve, makeClip, unique, uploadClip, verifiedMember, visitor, waitUntilPublic } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-reports-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** A public video by a fresh member; returns its id and title. */
async function publicVideo(request: APIRequestContext, prefix: string) {
  const member = await verifiedMember(request, prefix);
  const title = `Reportable ${prefix} ${unique()}`;
  const id = await uploadClip(request, member.token, clip, { title, category: 'Beta' });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return { id, title };
}

async function openVideoPage(page: Page, id: string, title: string) {
  await page.goto(`/video/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

const reportButton = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Report', exact: true });

test.describe('reporting a video', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop journeys; the 375 px test is below');

  test('a visitor reports a video through the dialog and sees the thank-you message', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const { id, title } = await publicVideo(request, 'reported');
    await openVideoPage(page, id, title);
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    await reportButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Report this video' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('group', { name: 'What is wrong?' })).toBeVisible();
    await expect(dialog.getByRole('radio')).toHaveCount(7);

    // Nothing chosen: the form says so and sends nothing.
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog.getByText('Choose a reason for the report')).toBeVisible();
    // "Something else" needs details.
    await dialog.getByRole('radio', { name: /Something else/ }).check();
    await expect(dialog.getByLabel(/Details/)).toHaveAttribute('required', '');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog.getByText('Please describe the problem when you choose “Something else”.')).toBeVisible();
    await expect(dialog.getByLabel(/Details/)).toBeFocused();

    await dialog.getByRole('radio', { name: /Spam or scam/ }).check();
    const details = `Links to a scam shop ${unique()}`;
    await dialog.getByLabel(/Details/).fill(details);
    await expect(dialog.getByText(`${details.length} / 2000`)).toBeVisible();
    await reviewShot(page, 'report-dialog');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Thank you. Our moderators will review this report.');
    await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
    await reviewShot(page, 'report-thanks');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(reportButton(page)).toBeFocused();

    // The same visitor again: no second report, and they are told why.
    await reportButton(page).click();
    await page
      .getByRole('dialog')
      .getByRole('radio', { name: /Spam or scam/ })
      .check();
    await page.getByRole('dialog').getByRole('button', { name: 'Send report' }).click();
    await expect(page.getByRole('dialog').getByRole('status')).toHaveText('You have already reported this.');

    // It is in the moderators' queue, anonymous, with a due date.
    const queue = await request.get('/api/admin/reports?status=open&limit=100', {
      headers: { Authorization: `Bearer ${await adminToken(request)}`, ...visitor() },
    });
    expect(queue.status()).toBe(200);
    const { reports } = (await queue.json()) as {
      reports: { details: string; reporter: unknown; dueAt: string; target: { streamVideoId: string } }[];
    };
    const mine = reports.filter((report) => report.target?.streamVideoId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ details, reporter: null });
    expect(Date.parse(mine[0]!.dueAt)).toBeGreaterThan(Date.now() + 8 * 86_400_000);
  });

  test('the dialog works from the keyboard: focus inside, Tab stays inside, Escape closes', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const { id, title } = await publicVideo(request, 'keys');
    await openVideoPage(page, id, title);

    const dialog = page.getByRole('dialog', { name: 'Report this video' });
    // One press: the button is disabled (not focusable) until the page has hydrated, and opens the dialog from then on (issue 37).
    await expect(reportButton(page)).toBeEnabled();
    await reportButton(page).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio').first()).toBeFocused();

    // Arrow keys move through the reasons; Tab and Shift+Tab never leave the dialog.
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('radio').nth(1)).toBeChecked();
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }

    await dialog.getByLabel(/Details/).focus();
    await page.keyboard.type('typed, then abandoned');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(reportButton(page)).toBeFocused();

    // Reopened, it starts afresh.
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog').getByLabel(/Details/)).toHaveValue('');
    await expect(page.getByRole('dialog').getByRole('radio', { checked: true })).toHaveCount(0);
  });
});

test('@mobile-only the report dialog fits a 375 px screen', async ({ confirmedPage: page, request }) => {
  test.setTimeout(120_000);
  const { id, title } = await publicVideo(request, 'phone');
  await openVideoPage(page, id, title);
  await expectNoSidewaysScroll(page, 'video page with the Report button');
  await reviewShot(page, 'video-page', { fullPage: true });

  await reportButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Report this video' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /under 18/ }).check();
  await expect(dialog.getByText('If someone is in danger right now')).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoSidewaysScroll(page, 'with the report dialog open');
  await reviewShot(page, 'report-dialog');

  // The buttons at the bottom are reachable by scrolling inside the dialog.
  await dialog.getByRole('button', { name: 'Send report' }).scrollIntoViewIfNeeded();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Thank you. Our moderators will review this report.');
  await reviewShot(page, 'report-thanks');
});
