import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { BASE_URL, linkMailedTo, logInThroughForm, makeClip, openSettings, uploadClip, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/** Screenshots of every state of the settings section, looked at by hand (issue 11). */

let work = '';
test.beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-export-e2e-'));
});
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The settings modal and its "Download my data" section. */
async function openExportSection(page: Page) {
  const settings = await openSettings(page);
  const section = settings.getByRole('region', { name: 'Download my data' });
  await section.scrollIntoViewIfNeeded();
  return { settings, section };
}

test.describe('download my data', () => {
  test('a member asks for their data, is emailed when it is ready, and downloads a ZIP with their profile and original upload @mobile', async ({
    confirmedPage: page,
    playwright,
  }, testInfo) => {
    test.slow();
    const project = testInfo.project.name;
    const api = await playwright.request.newContext({ baseURL: BASE_URL });
    const member = await verifiedMember(api, 'exporter');
    const clip = makeClip(work, `clip-${project}.mp4`);
    const streamVideoId = await uploadClip(api, member.token, clip, { title: 'My clip for the export' });

    await logInThroughForm(page, member.email, member.password, '/');
    const { settings, section } = await openExportSection(page);
    const request = section.getByRole('button', { name: 'Request my data' });
    await expect(request).toBeVisible();
    await expectNoSidewaysScroll(page, 'with settings open');
    await reviewShot(section, 'none');

    await request.click();
    await expect(section.getByText('Your export is being prepared. We will email you when it is ready.')).toBeVisible();
    await reviewShot(section, 'pending');

    // The worker runs in the e2e server's process: the email comes when the ZIP is in storage.
    const link = await linkMailedTo(member.email, /(https?:\/\/[^/\s]+\/data-export\/[0-9a-f-]{36})/, 60_000);
    const downloadLink = section.getByRole('link', { name: 'Download my data' });
    await expect(downloadLink).toBeVisible({ timeout: 15_000 });
    await expect(section.getByText(/The link works until \d{1,2} \w+ \d{4}/)).toBeVisible();
    expect(new URL(link).pathname).toBe(await downloadLink.getAttribute('href'));
    await reviewShot(section, 'ready');
    await reviewShot(settings, 'dialog');

    const [download] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^chrysalis-data-${member.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const zip = path.join(work, `${project}.zip`);
    await download.saveAs(zip);
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    for (const name of [
      'README.txt',
      'profile.json',
      'videos.json',
      'comments.json',
      'likes.json',
      'playlists.json',
      'follows.json',
      'notifications.json',
      'daily-tasks.json',
      'payments.json',
      'blocks.json',
      'verification.json',
      'decisions.json',
    ]) {
      expect(entries).toContain(name);
    }
    expect(entries).toContain(`videos/${streamVideoId}/original.mp4`);
    expect(execFileSync('unzip', ['-p', zip, `videos/${streamVideoId}/original.mp4`]).equals(clip)).toBe(true);
    const profile = JSON.parse(execFileSync('unzip', ['-p', zip, 'profile.json'], { encoding: 'utf8' })) as {
      username: string;
      email: string;
    };
    expect(profile).toMatchObject({ username: member.username, email: member.email });

    // Asking again while it is ready is refused with a clear message.
    const again = await api.post('/api/users/me/export', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(/^Your data export is ready to download\./);

    // The link is the member's alone: another member (and a visitor, sent to log in) gets nothing.
    const snoop = await playwright.request.newContext({ baseURL: BASE_URL });
    await verifiedMember(snoop, 'snoop');
    const refused = await snoop.get(new URL(link).pathname);
    expect(refused.status()).toBe(404);
    expect(refused.headers()['content-type']).toContain('application/json');
    const visitor = await playwright.request.newContext({ baseURL: BASE_URL });
    const redirected = await visitor.get(new URL(link).pathname, { maxRedirects: 0 });
    expect(redirected.status()).toBe(307);
    expect(redirected.headers().location).toContain(`/login?next=${encodeURIComponent(new URL(link).pathname)}`);
    await Promise.all([api.dispose(), snoop.dispose(), visitor.dispose()]);
  });

  test('a failed export says so and offers to try again @mobile', async ({ confirmedPage: page, playwright }) => {
    const api = await playwright.request.newContext({ baseURL: BASE_URL });
    const member = await verifiedMember(api, 'exportfail');
    await api.dispose();
    // The job's last attempt failing is covered by the integration tests; here the page is shown that answer.
    await page.route('**/api/users/me/export', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            json: {
              export: {
                _id: crypto.randomUUID(),
                status: 'failed',
                requestedAt: new Date().toISOString(),
                readyAt: null,
                expiresAt: null,
                sizeBytes: null,
                downloadUrl: null,
                error: 'We could not prepare your data export. Please try again.',
              },
            },
          })
        : route.continue(),
    );
    await logInThroughForm(page, member.email, member.password, '/');
    const { section } = await openExportSection(page);
    await expect(section.getByText('We could not prepare your data export. Please try again.')).toBeVisible();
    const retry = section.getByRole('button', { name: 'Try again' });
    await expect(retry).toBeVisible();
    await reviewShot(section, 'failed');
    await retry.click();
    await expect(section.getByText('Your export is being prepared. We will email you when it is ready.')).toBeVisible();
  });

  test('a visitor who opens the emailed link logs in first, then the download starts', async ({
    confirmedPage: page,
    playwright,
  }) => {
    const api = await playwright.request.newContext({ baseURL: BASE_URL });
    const member = await verifiedMember(api, 'exportlink');
    const asked = await api.post('/api/users/me/export', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(asked.status(), await asked.text()).toBe(202);
    await api.dispose();
    const link = await linkMailedTo(member.email, /(https?:\/\/[^/\s]+\/data-export\/[0-9a-f-]{36})/, 60_000);
    await page.goto(link);
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(new URL(link).pathname)}`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('main').getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^chrysalis-data-${member.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  });
});
