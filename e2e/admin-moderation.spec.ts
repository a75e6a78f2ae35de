import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { ADMIN, adminToken, logInThroughForm, makeClip, PASSWORD, unique, uploadClip, verifiedMember } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, showInModerationQueue, test } from './fixtures';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-media-'));
  clip = makeClip(mediaDir);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const upload = (request: APIRequestContext, token: string, title: string, description: string) =>
  uploadClip(request, token, clip, { title, description, category: 'Beta', tags: 'e2e, review' });

async function logInAsAdmin(page: Page) {
  await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/moderation');
}

/** A video this spec approved: taken down again afterwards, since other specs (e2e/shell.spec.ts) expect a site without public videos. */
let takeDown: string | null = null;

test.describe('admin moderation', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'runs once, in the desktop project; it checks 375 px itself');

  test.afterEach(async ({ request }) => {
    if (!takeDown) return;
    const token = await adminToken(request);
    const undo = await request.patch(`/api/admin/videos/${takeDown}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { action: 'reject', reason: 'Taken down after the e2e check' },
    });
    expect([200, 409]).toContain(undo.status());
    takeDown = null;
  });

  test('an admin watches new uploads, rejects one with a template reason and approves another', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const member = await verifiedMember(request, 'uploader');
    const id = unique();
    const rejectTitle = `Review me ${id} (reject)`;
    const approveTitle = `Review me ${id} (approve)`;
    const rejectId = await upload(
      request,
      member.token,
      rejectTitle,
      'A test pattern.\nSecond line with <b>markup</b> that must stay text.',
    );
    const approveId = await upload(request, member.token, approveTitle, 'Another test pattern.');

    await logInAsAdmin(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
    const pendingTab = page.getByRole('tab', { name: /^Pending/ });
    await expect(pendingTab).toHaveAttribute('aria-selected', 'true');

    const queue = page.getByRole('list', { name: 'Pending videos' });
    const toReject = queue.getByRole('article', { name: rejectTitle });
    const toApprove = queue.getByRole('article', { name: approveTitle });
    // Processing runs in the server's own worker; the queue refreshes until each video has its player.
    for (const item of [toReject, toApprove]) {
      await showInModerationQueue(page, item);
      await expect(item.locator('video')).toBeVisible({ timeout: 60_000 });
      await expect(item.getByRole('link', { name: member.username })).toBeVisible();
      await expect(item.getByText('Beta', { exact: true })).toBeVisible();
      await expect(item.getByText('#review')).toBeVisible();
      // The uploader's identity is verified (verifiedMember), so approval can pass the gate; the badge says so before the click.
      await expect(item.getByTestId('uploader-verification')).toHaveText('Uploader verified');
      await expect(item.getByText(/^Uploaded .* ago$|^Uploaded just now$/)).toBeVisible();
    }
    await expect(toReject.getByText('Second line with <b>markup</b> that must stay text.', { exact: false })).toBeVisible();
    await expect(toReject.locator('b')).toHaveCount(0);
    // The admin may play the MP4 before approval.
    const mp4 = await toReject.locator('video').getAttribute('src');
    expect(mp4).toMatch(new RegExp(`^/media/videos/${rejectId}/`));
    expect((await page.request.get(mp4!)).status()).toBeLessThan(300);

    await reviewShot(page, 'admin', { fullPage: true });

    // Phones: no sideways scroll, with the reject form open too.
    await page.setViewportSize({ width: 375, height: 740 });
    await toReject.getByRole('button', { name: `Reject ${rejectTitle}` }).click();
    const reason = toReject.getByLabel(/Reason for rejection/);
    await expect(reason).toBeFocused();
    await expectNoSidewaysScroll(page, 'at 375 px');
    await page.evaluate(() => window.scrollTo(0, 0));
    await reviewShot(page, 'admin');
    await reviewShot(toReject, 'admin-item');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectNoSidewaysScroll(page, 'at 1280 px');

    // A reason is required; a template fills it in.
    await toReject.getByRole('button', { name: `Confirm rejection of ${rejectTitle}` }).click();
    await expect(toReject.getByText('Give a reason for the rejection')).toBeVisible();
    await reviewShot(toReject, 'admin-reject-form');
    await toReject.getByRole('button', { name: 'Copyrighted material' }).click();
    await expect(reason).toHaveValue('Copyrighted material');

    // A failed decision puts the video back with the server's message.
    await page.route('**/api/admin/videos/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ message: 'Another admin decided on this video just now.' }),
          })
        : route.fallback(),
    );
    await toReject.getByRole('button', { name: `Confirm rejection of ${rejectTitle}` }).click();
    await expect(toReject.getByText('Another admin decided on this video just now.').first()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: `Could not reject “${rejectTitle}”` })).toBeVisible();
    await page.unroute('**/api/admin/videos/*');

    // Reject for real, by keyboard.
    await toReject.getByRole('button', { name: `Reject ${rejectTitle}` }).click();
    await toReject.getByRole('button', { name: 'Copyrighted material' }).click();
    await toReject.getByRole('button', { name: `Confirm rejection of ${rejectTitle}` }).focus();
    await page.keyboard.press('Enter');
    await expect(toReject).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: `Rejected “${rejectTitle}”.` })).toBeVisible();

    takeDown = approveId;
    await toApprove.getByRole('button', { name: `Approve ${approveTitle}` }).click();
    await expect(toApprove).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: `Approved “${approveTitle}”.` })).toBeVisible();
    await reviewShot(page, 'admin-decided');

    // The uploader sees both decisions, with the reason.
    const mine = await request.get('/api/videos/mine?limit=50', { headers: { Authorization: `Bearer ${member.token}` } });
    const own = (
      (await mine.json()) as { videos: { streamVideoId: string; moderationStatus: string; rejectionReason: string | null }[] }
    ).videos;
    expect(own.find((video) => video.streamVideoId === rejectId)).toMatchObject({
      moderationStatus: 'rejected',
      rejectionReason: 'Copyrighted material',
    });
    expect(own.find((video) => video.streamVideoId === approveId)).toMatchObject({
      moderationStatus: 'approved',
      rejectionReason: null,
    });

    // The other lists, by keyboard: arrow keys move between the tabs.
    await pendingTab.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: /^Approved/ })).toBeFocused();
    await expect(page.getByRole('list', { name: 'Approved videos' }).getByRole('article', { name: approveTitle })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    const rejected = page.getByRole('list', { name: 'Rejected videos' }).getByRole('article', { name: rejectTitle });
    await expect(rejected).toBeVisible();
    await expect(rejected.getByText('Copyrighted material')).toBeVisible();
    await expect(rejected.getByRole('button', { name: `Approve ${rejectTitle}` })).toBeVisible();
    await reviewShot(page, 'admin-rejected');

    // The approved video is public (once processing is done); the rejected one is not.
    const publicIds = async () =>
      ((await (await request.get('/api/videos?limit=50')).json()) as { videos: { streamVideoId: string }[] }).videos.map(
        (video) => video.streamVideoId,
      );
    await expect.poll(publicIds, { timeout: 60_000 }).toContain(approveId);
    expect(await publicIds()).not.toContain(rejectId);
  });

  test('members are sent home from /admin and see no Admin Panel link', async ({ confirmedPage: page, request }) => {
    const member = await verifiedMember(request, 'nonadmin');
    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: member.username })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Community Standards' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);

    await page.goto('/admin');
    await expect(page).toHaveURL('/');
    // The API refuses members whatever the pages do.
    const denied = await request.get('/api/admin/videos', { headers: { Authorization: `Bearer ${member.token}` } });
    expect(denied.status()).toBe(403);
    expect(await denied.json()).toEqual({ message: 'Forbidden: Admin access required' });
  });
});
