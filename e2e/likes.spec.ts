import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';

import {
  adminToken,
  approve,
  BASE_URL,
  logInThroughForm,
  makeClip,
  unique,
  uploadClip,
  verifiedMember,
  visitor,
  waitUntilPublic,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-likes-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** An approved, processed video by a new member; returns its id and its owner. */
async function publicVideo(request: APIRequestContext, title: string) {
  const owner = await verifiedMember(request, 'liked');
  const id = await uploadClip(request, owner.token, clip, { title, category: 'Sissy' });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return { id, owner };
}

const likeButton = (page: Page) => page.getByRole('main').locator('.watch-stats').getByRole('button');

/** No serious or critical WCAG problems inside the given part of the page. */
async function expectAccessible(page: Page, selector: string) {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The button once the session and the member's own state are known (the HTML is the same for everyone until then). */
async function readyLikeButton(page: Page, state: 'member' | 'visitor' = 'member') {
  await expect(likeButton(page)).toHaveAttribute('data-state', state);
  return likeButton(page);
}

test.describe('likes', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop journey; the 375 px test is below');

  test('a member likes a video on its page, sees it in Liked videos, and unlikes it; the owner is told once', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const title = `Heart me ${unique()}`;
    const { id, owner } = await publicVideo(request, title);
    const fan = await verifiedMember(request, 'fan');

    await logInThroughForm(page, fan.email, fan.password, `/video/${id}`);
    const button = await readyLikeButton(page);
    await expect(button).toHaveAccessibleName('Like, 0 likes');
    await expect(button).toHaveAttribute('aria-pressed', 'false');

    // The count goes up at once, before the server has answered (the answer is held back here).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/videos/${id}/like`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    const answered = page.waitForResponse(
      (response) => response.url().endsWith(`/api/videos/${id}/like`) && response.request().method() === 'POST',
    );
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true', { timeout: 1_000 });
    await expect(button).toHaveAccessibleName('Unlike, 1 like');
    release();
    expect((await answered).status()).toBe(200);
    await page.unroute(`**/api/videos/${id}/like`);
    await reviewShot(page, 'video-page-liked');
    await expectAccessible(page, '.watch-stats');

    // Still liked after a reload (the page's HTML is cached and the same for everyone; the state is the member's).
    await page.reload();
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(likeButton(page)).toHaveAccessibleName('Unlike, 1 like');

    // Liked videos lists it, with a pressed heart on its card.
    await page.goto('/liked-videos');
    const list = page.getByRole('list', { name: 'Your liked videos' });
    await expect(list.getByRole('link', { name: title })).toBeVisible();
    await expect(list.getByRole('button', { name: 'Unlike, 1 like' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page).toHaveTitle(/Liked videos/);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await reviewShot(page, 'liked-videos', { fullPage: true });
    await expectAccessible(page, 'main');

    // Unlike on the video page; the list is then empty.
    await page.goto(`/video/${id}`);
    await expect(await readyLikeButton(page)).toHaveAccessibleName('Unlike, 1 like');
    await likeButton(page).click();
    await expect(likeButton(page)).toHaveAccessibleName('Like, 0 likes');
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${BASE_URL}/api/videos/${id}`)).json()) as { video: { likedBy: string[] } }).video.likedBy.length,
      )
      .toBe(0);
    await page.goto('/liked-videos');
    await expect(page.getByText('You have not liked any videos yet.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Find videos on the home page' })).toHaveAttribute('href', '/');
    await reviewShot(page, 'liked-videos-empty');
    await expectAccessible(page, 'main');

    // Liking again after unliking does not tell the owner a second time.
    await page.goto(`/video/${id}`);
    await (await readyLikeButton(page)).click();
    await expect(likeButton(page)).toHaveAccessibleName('Unlike, 1 like');
    const notifications = await fetch(`${BASE_URL}/api/notifications`, {
      headers: { Authorization: `Bearer ${owner.token}`, ...visitor() },
    });
    if (notifications.status === 200) {
      const body = (await notifications.json()) as { notifications?: { type: string; link: string; message: string }[] };
      const likes = (body.notifications ?? []).filter((n) => n.type === 'like' && n.link === `/video/${id}`);
      expect(likes).toHaveLength(1);
      expect(likes[0]!.message).toContain(fan.username);
    }
  });

  test('a failed like rolls back and shows the server’s message; visitors are sent to log in; owners cannot like their own', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const title = `Roll back ${unique()}`;
    const { id, owner } = await publicVideo(request, title);
    const fan = await verifiedMember(request, 'fickle');

    // A visitor is sent to log in, and comes back to the video afterwards.
    await page.goto(`/video/${id}`);
    await expect(await readyLikeButton(page, 'visitor')).toHaveAccessibleName('Like, 0 likes');
    await likeButton(page).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/video/${id}`)}`);

    await page.getByLabel('Email').fill(fan.email);
    await page.getByLabel('Password').fill(fan.password);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(`/video/${id}`);

    await page.route(`**/api/videos/${id}/like`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, json: { message: 'Likes are taking a short break. Please try again.' } })
        : route.continue(),
    );
    await expect(await readyLikeButton(page)).toHaveAttribute('aria-pressed', 'false');
    await likeButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Likes are taking a short break. Please try again.' })).toBeVisible();
    await reviewShot(page, 'like-failed');
    await expectAccessible(page, '.watch-stats');
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(likeButton(page)).toHaveAccessibleName('Like, 0 likes');
    await page.unroute(`**/api/videos/${id}/like`);
    await likeButton(page).click();
    await expect(likeButton(page)).toHaveAccessibleName('Unlike, 1 like');
    await expect(page.getByRole('alert').filter({ hasText: 'Likes are taking a short break' })).toHaveCount(0);

    // The owner sees the count, and is told they cannot like their own video.
    await page.evaluate(() => window.localStorage.clear());
    await page.context().clearCookies();
    await logInThroughForm(page, owner.email, owner.password, `/video/${id}`);
    await expect(await readyLikeButton(page)).toHaveAccessibleName('1 like (your video)');
    await likeButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'You cannot like your own video.' })).toBeVisible();
    await reviewShot(page, 'own-video');
    // Plain fetch: the request context's kept-alive socket may have been closed by the server while the browser worked.
    const refused = await fetch(`${BASE_URL}/api/videos/${id}/like`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner.token}`, ...visitor() },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'You cannot like your own video.' });
  });
});

test('@mobile-only liking fits a 375 px screen, on the video page and in Liked videos', async ({
  confirmedPage: page,
  request,
}) => {
  test.setTimeout(120_000);
  const title = `A long title for a small screen that has to wrap somewhere ${unique()}`;
  const { id } = await publicVideo(request, title);
  const fan = await verifiedMember(request, 'thumb');
  await logInThroughForm(page, fan.email, fan.password, `/video/${id}`);
  await expect(await readyLikeButton(page)).toHaveAccessibleName('Like, 0 likes');
  await likeButton(page).click();
  await expect(likeButton(page)).toHaveAccessibleName('Unlike, 1 like');
  await expectNoSidewaysScroll(page, 'video page after liking');
  await reviewShot(page, 'video-page-liked');
  await page.goto('/liked-videos');
  await expect(page.getByRole('list', { name: 'Your liked videos' }).getByRole('link', { name: title })).toBeVisible();
  await expectNoSidewaysScroll(page, 'liked videos');
  await reviewShot(page, 'liked-videos', { fullPage: true });
});
