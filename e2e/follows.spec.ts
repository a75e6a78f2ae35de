import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { adminToken, approve, logInThroughForm, makeClip, unique, uploadClip, verifiedMember, waitUntilPublic } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

let mediaDir = '';
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-follows-e2e-'));
  clip = makeClip(mediaDir);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const followersCount = (page: Page) => page.getByTestId('count-followers');

test.describe('follows and profiles', () => {
  test('a member follows a creator from their profile, finds the video on /following, and unfollows @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const creator = await verifiedMember(request, 'creator');
    const title = `Followed clip ${unique()}`;
    const streamVideoId = await uploadClip(request, creator.token, clip, { title, category: 'Sissy' });
    await approve(request, await adminToken(request), streamVideoId);
    await waitUntilPublic(streamVideoId);

    const fan = await verifiedMember(request, 'fan');
    await logInThroughForm(page, fan.email, fan.password, '/following');
    await expect(page.getByText('You are not following anyone yet.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse recent videos' })).toBeVisible();
    await expectNoSidewaysScroll(page, 'on the empty following page');
    await reviewShot(page, 'following-empty', { fullPage: true });

    await page.goto(`/profile/${creator.username}`);
    await expect(page.getByRole('heading', { level: 1, name: creator.username })).toBeVisible();
    await expect(page.getByTestId('avatar-placeholder')).toBeVisible();
    await expect(page.getByText(/^Joined /)).toBeVisible();
    await expect(page.getByTestId('count-videos')).toHaveText('1');
    await expect(followersCount(page)).toHaveText('0');
    await expect(page.getByRole('list', { name: `Videos by ${creator.username}` }).getByText(title)).toBeVisible();

    // The count moves at once, before the server has answered.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const followUrl = `**/api/users/${creator.username}/follow`;
    await page.route(
      followUrl,
      async (route) => {
        await held;
        await route.fallback();
      },
      { times: 1 },
    );
    const follow = page.getByRole('button', { name: 'Follow', exact: true });
    await expect(follow).toHaveAttribute('aria-pressed', 'false');
    const saved = page.waitForResponse(
      (response) => response.url().endsWith(`/api/users/${creator.username}/follow`) && response.request().method() === 'POST',
    );
    await follow.click();
    const following = page.getByRole('button', { name: 'Following' });
    await expect(following).toHaveAttribute('aria-pressed', 'true');
    await expect(followersCount(page)).toHaveText('1');
    release();
    expect((await saved).status()).toBe(200);
    await page.unroute(followUrl);
    await expect(following).not.toHaveAttribute('aria-busy', 'true');
    await expect(followersCount(page)).toHaveText('1');
    await expectNoSidewaysScroll(page, 'on the profile');
    await reviewShot(page, 'profile-following', { fullPage: true });

    // The server kept it.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    await expect(followersCount(page)).toHaveText('1');

    // The video page knows too, next to the uploader.
    await page.goto(`/video/${streamVideoId}`);
    await expect(page.locator('.watch-uploader').getByRole('button', { name: 'Following' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoSidewaysScroll(page, 'on the video page');
    await reviewShot(page, 'video-page', { fullPage: true });

    await page.goto('/following');
    const feed = page.getByRole('list', { name: 'Videos from creators you follow' });
    await expect(feed.getByText(title)).toBeVisible();
    await expectNoSidewaysScroll(page, 'on the following feed');
    await reviewShot(page, 'following-feed', { fullPage: true });

    await page.goto(`/profile/${creator.username}`);
    await page.getByRole('button', { name: 'Following' }).click();
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
    await expect(followersCount(page)).toHaveText('0');
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).not.toHaveAttribute('aria-busy', 'true');

    await page.goto('/following');
    await expect(page.getByText('You are not following anyone yet.')).toBeVisible();
    // The creator is suggested (their video is among the top ones on this small site) and can be followed from here.
    const suggestions = page.getByRole('region', { name: 'Creators to follow' });
    const suggested = suggestions.getByRole('listitem').filter({ hasText: creator.username });
    if (await suggested.count()) {
      // The suggestion's button is in the server HTML; it knows the member (aria-pressed) once the session has loaded.
      await expect(suggested.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
      await suggested.getByRole('button', { name: 'Follow', exact: true }).click();
      await expect(suggested.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    }
    await expectNoSidewaysScroll(page, 'on the following page with suggestions');
  });

  test('the own profile shows pending uploads with their status and edits the bio as plain text @mobile', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(90_000);
    const member = await verifiedMember(request, 'owner');
    const title = `Pending clip ${unique()}`;
    await uploadClip(request, member.token, clip, { title });

    await logInThroughForm(page, member.email, member.password, `/profile/${member.username}`);
    await expect(page.getByRole('heading', { level: 1, name: member.username })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Follow/ })).toHaveCount(0);
    await expect(page.getByText('You have no public videos yet.')).toBeVisible();
    const uploads = page.getByRole('list', { name: 'Your uploads' });
    const row = uploads.getByRole('listitem').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row.getByText(/^(Processing|Waiting for review)$/)).toBeVisible();
    await expect(row.getByText('Waiting for review')).toBeVisible({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Edit profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const bio = dialog.getByLabel('Bio');
    await expect(bio).toBeFocused();
    await bio.fill('x'.repeat(501));
    await expect(dialog.getByText('501 / 500')).toBeVisible();
    await expect(dialog.getByText('Your bio can be at most 500 characters.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save profile' })).toBeDisabled();
    const text = `Exploring <b>who I am</b> <script>alert("x")</script>\nSecond line`;
    await bio.fill(text);
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await expect(dialog.getByText('Profile saved.')).toBeVisible();
    await reviewShot(page, 'settings-bio', { fullPage: true });
    await dialog.getByRole('button', { name: 'Close' }).click();

    const shown = page.getByTestId('profile-bio');
    await expect(shown).toHaveText(text);
    await expect(shown.locator('b, script')).toHaveCount(0);
    await expectNoSidewaysScroll(page, 'on the own profile');
    await reviewShot(page, 'own-profile', { fullPage: true });
  });

  test('unknown profiles are a real 404; visitors are sent to log in', async ({ confirmedPage: page, request }) => {
    const visitorAnswer = await page.goto('/profile/somebody_else');
    expect(visitorAnswer?.url()).toContain(`/login?next=${encodeURIComponent('/profile/somebody_else')}`);

    const member = await verifiedMember(request, 'looker');
    await logInThroughForm(page, member.email, member.password, '/following');
    const answer = await page.goto(`/profile/no_such_member_${unique()}`);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This page doesn’t exist' })).toBeVisible();

    // A name in another case lands on the member's one address.
    await page.goto(`/profile/${member.username.toUpperCase()}`);
    await expect(page).toHaveURL(`/profile/${member.username}`);
  });

  test('visitors pressing Follow on a video page are sent to log in and come back', async ({ confirmedPage: page, request }) => {
    test.setTimeout(90_000);
    const creator = await verifiedMember(request, 'uploader');
    const streamVideoId = await uploadClip(request, creator.token, clip, { title: `Visitor follow ${unique()}` });
    await approve(request, await adminToken(request), streamVideoId);
    await waitUntilPublic(streamVideoId);
    await page.goto(`/video/${streamVideoId}`);
    await page.locator('.watch-uploader').getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/video/${streamVideoId}`)}`);

    // The uploader sees no follow button on their own video.
    await logInThroughForm(page, creator.email, creator.password, `/video/${streamVideoId}`);
    // Once the session is known (the navbar shows the member), the button would be there if it were going to be.
    await expect(page.locator('header .nav-username')).toHaveText(creator.username);
    await expect(page.locator('.watch-uploader .follow-placeholder')).toHaveCount(0);
    await expect(page.locator('.watch-uploader').getByRole('button')).toHaveCount(0);
  });
});
