import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Page, TestInfo } from '@playwright/test';

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

/** Sort and filter on a category page and on search; Watch later from a card, the list and the video page; at 1280 and 375 px (both projects). */

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36';
let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-sort-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const shoot = (page: Page, testInfo: TestInfo, name: string) => reviewShot(page, name, { fullPage: true });

/** Two public Censor videos sharing a unique word; the older one gets three views, so the orders differ. */
async function twoVideos(request: APIRequestContext) {
  const word = `zq${unique()}`;
  const owner = await verifiedMember(request, 'sorter');
  const admin = await adminToken(request);
  const older = await uploadClip(request, owner.token, clip, { title: `${word} older viewed`, category: 'Censor' });
  await approve(request, admin, older);
  await waitUntilPublic(older);
  const newer = await uploadClip(request, owner.token, clip, { title: `${word} newer quiet`, category: 'Censor' });
  await approve(request, admin, newer);
  await waitUntilPublic(newer);
  for (let i = 0; i < 3; i += 1) {
    const viewed = await request.post(`/api/videos/${older}/view`, { headers: { ...visitor(), 'user-agent': BROWSER_UA } });
    expect(viewed.ok()).toBe(true);
  }
  return { word, older: `${word} older viewed`, newer: `${word} newer quiet` };
}

/**
 * The titles of the cards on the page that belong to this test, in page order: the visible ones, as a person sees
 * them (right after a sort link the previous list has been seen in the DOM for a moment, hidden).
 */
const ours = async (page: Page, word: string) =>
  (await page.locator('.video-card-title').filter({ visible: true }).allTextContents()).filter((title) => title.startsWith(word));

test('@mobile sorts and filters a category page and search results with plain links', async ({
  confirmedPage: page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const { word, older, newer } = await twoVideos(request);

  await page.goto('/category/Censor');
  const control = page.getByRole('navigation', { name: 'Sort and filter' });
  await expect(control.getByRole('link', { name: 'Newest' })).toHaveAttribute('aria-current', 'page');
  await expect(control.getByRole('link', { name: 'Any length' })).toHaveAttribute('aria-current', 'page');
  expect(await ours(page, word)).toEqual([newer, older]);

  await control.getByRole('link', { name: 'Most viewed' }).click();
  await expect(page).toHaveURL(/\/category\/Censor\?sort=views$/, { timeout: 20_000 });
  await expect(
    page.getByRole('navigation', { name: 'Sort and filter' }).getByRole('link', { name: 'Most viewed' }),
  ).toHaveAttribute('aria-current', 'page');
  expect((await ours(page, word))[0]).toBe(older);
  // The sorted variant points search engines at the plain list.
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/category\/Censor$/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expectNoSidewaysScroll(page, 'sorted category');
  await shoot(page, testInfo, 'category-sorted');

  // A filter keeps the sort; an empty bucket says so and offers every length back (keyboard only).
  const overTwenty = page.getByRole('navigation', { name: 'Sort and filter' }).getByRole('link', { name: 'Over 20 min' });
  await overTwenty.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/category\/Censor\?sort=views&duration=long$/, { timeout: 20_000 });
  expect(await ours(page, word)).toEqual([]);
  await shoot(page, testInfo, 'category-filter-empty');
  await page.goto('/category/Censor?sort=views&duration=short');
  expect(await ours(page, word)).toEqual([older, newer]);
  // An unknown value is the default order, not an error page.
  await page.goto('/category/Censor?sort=%3C%2Fscript%20%3E&duration=forever');
  await expect(page.getByRole('navigation', { name: 'Sort and filter' }).getByRole('link', { name: 'Newest' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  await page.goto(`/search?q=${word}`);
  const searchControl = page.getByRole('navigation', { name: 'Sort and filter' });
  await expect(searchControl.getByRole('link', { name: 'Best match' })).toHaveAttribute('aria-current', 'page');
  await searchControl.getByRole('link', { name: 'Most viewed' }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&sort=views$`), { timeout: 20_000 });
  expect(await ours(page, word)).toEqual([older, newer]);
  await page.getByRole('navigation', { name: 'Sort and filter' }).getByRole('link', { name: 'Newest' }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word}&sort=newest$`), { timeout: 20_000 });
  expect(await ours(page, word)).toEqual([newer, older]);
  await expectNoSidewaysScroll(page, 'sorted search');
  await shoot(page, testInfo, 'search-sorted');
});

test('@mobile saves to Watch later from a card, lists it, and removes it on the video page; visitors are sent to log in', async ({
  confirmedPage: page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const { word, newer } = await twoVideos(request);

  // A visitor's click goes to the login page and back.
  await page.goto(`/search?q=${word}`);
  const visitorButton = page.getByRole('button', { name: `Save “${newer}” to Watch later` });
  await expect(visitorButton).toHaveAttribute('data-state', 'visitor');
  await visitorButton.click();
  await expect(page).toHaveURL(/\/login\?next=%2Fsearch/, { timeout: 20_000 });

  const member = await verifiedMember(request, 'later');
  await logInThroughForm(page, member.email, member.password, '/watch-later');
  await expect(page.getByText('Your Watch later list is empty.')).toBeVisible();
  await shoot(page, testInfo, 'watch-later-empty');

  await page.goto(`/search?q=${word}`);
  const save = page.getByRole('button', { name: `Save “${newer}” to Watch later` });
  await expect(save).toHaveAttribute('data-state', 'member');
  await save.click();
  await expect(page.getByRole('button', { name: `Remove “${newer}” from Watch later` })).toHaveAttribute('aria-pressed', 'true');

  // The account menu leads to the list (in the mobile menu at 375 px).
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.locator('a[href="/watch-later"]:visible').first().click();
  await expect(page).toHaveURL(/\/watch-later$/, { timeout: 20_000 });
  await expect(page.getByRole('list', { name: 'Your Watch later list' }).locator('.video-card-title')).toHaveText([newer]);
  await expectNoSidewaysScroll(page, 'watch later');
  await shoot(page, testInfo, 'watch-later-list');
  if (page.viewportSize()?.width === 1280) {
    // The member navbar is tightest at the smallest desktop width: the new link must still fit.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expectNoSidewaysScroll(page, 'watch later at 1024 px');
    await shoot(page, testInfo, 'watch-later-list');
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  await page.getByRole('list', { name: 'Your Watch later list' }).getByRole('link', { name: newer }).click();
  const onPage = page.getByRole('main').locator('.watch-meta').getByRole('button', { name: 'Saved to Watch later' });
  await expect(onPage).toHaveAttribute('aria-pressed', 'true');
  await shoot(page, testInfo, 'video-page-saved');
  await onPage.click();
  await expect(page.getByRole('main').locator('.watch-meta').getByRole('button', { name: 'Watch later' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );

  await page.goto('/watch-later');
  await expect(page.getByText('Your Watch later list is empty.')).toBeVisible();
});
