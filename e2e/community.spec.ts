import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Browser, Page } from '@playwright/test';

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
import { expect, test } from './fixtures';

/**
 * Issue 5's "done when": two members in two browsers like, follow and
 * comment on each other's videos, and each sees the other's notifications
 * arrive in the bell at its next poll, without reloading.
 */

/** The bell's polling interval (components/community/NotificationBell.tsx); see e2e/notifications.spec.ts for runFor. */
const POLL_MS = 30_000;

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-community-'));
  clip = makeClip(mediaDir);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** A verified member with one public video. */
async function creator(request: APIRequestContext, prefix: string) {
  const member = await verifiedMember(request, prefix);
  const title = `${prefix} clip ${unique()}`;
  const id = await uploadClip(request, member.token, clip, { title, category: 'Sissy' });
  return { ...member, title, id };
}

/** A browser of its own (separate cookies and storage), past the age gate, with the page's clock under the test's control. */
async function browserOf(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  await context.setExtraHTTPHeaders(visitor());
  const page = await context.newPage();
  await page.clock.install();
  return page;
}

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const panelOf = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const likeButtonOf = (page: Page) => page.getByRole('main').locator('.watch-stats').getByRole('button');

/** On the other member's video page: like it, follow its uploader, and comment. */
async function likeFollowAndComment(page: Page, uploader: string, comment: string) {
  const like = likeButtonOf(page);
  await expect(like).toHaveAttribute('data-state', 'member');
  await expect(like).toHaveAccessibleName('Like, 0 likes');
  await like.click();
  await expect(like).toHaveAccessibleName('Unlike, 1 like');
  await expect(like).toHaveAttribute('aria-pressed', 'true');

  const follow = page.getByRole('main').getByRole('button', { name: 'Follow', exact: true });
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  const followed = page.waitForResponse(
    (response) => response.url().endsWith(`/api/users/${uploader}/follow`) && response.request().method() === 'POST',
  );
  await follow.click();
  expect((await followed).status()).toBe(200);
  await expect(page.getByRole('main').getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('textbox', { name: 'Add a comment' }).fill(comment);
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.getByRole('list', { name: 'Comments' }).getByRole('article').first()).toContainText(comment);
}

/** The bell has nothing new until the next poll; then it shows the other member's like, follow and comment. */
async function expectNewsFrom(page: Page, sender: string, video: { id: string; title: string }) {
  const bell = bellOf(page);
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.clock.runFor(POLL_MS);
  await expect(bell).toHaveAccessibleName('Notifications, 3 unread');
  await expect(bell.locator('.notif-badge')).toHaveText('3');

  await bell.click();
  const panel = panelOf(page);
  await expect(panel).toBeVisible();
  const items = panel.locator('.notif-item');
  await expect(items).toHaveCount(4);
  // Newest first: the comment, the follow, the like.
  await expect(items.nth(0)).toContainText(`${sender} commented on your video`);
  await expect(items.nth(0)).toHaveAttribute('href', new RegExp(`^/video/${video.id}#comment-[0-9a-f-]{36}$`));
  await expect(items.nth(1)).toContainText(`${sender} started following you`);
  await expect(items.nth(1)).toHaveAttribute('href', `/profile/${sender}`);
  await expect(items.nth(2)).toContainText(`${sender} liked your video "${video.title}"`);
  await expect(items.nth(2)).toHaveAttribute('href', `/video/${video.id}`);
  await expect(panel.locator('.notif-item[data-read="false"]')).toHaveCount(3);
  // Below them, the approval read before.
  await expect(items.nth(3)).toHaveAttribute('data-read', 'true');
}

test('two members in two browsers like, follow and comment on each other’s videos and see the notifications arrive', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const alex = await creator(request, 'alex');
  const blair = await creator(request, 'blair');
  const admin = await adminToken(request);
  for (const id of [alex.id, blair.id]) await approve(request, admin, id);
  for (const id of [alex.id, blair.id]) await waitUntilPublic(id);
  // Each was told of the approval; reading it first leaves the bells to the other member's news.
  for (const member of [alex, blair]) {
    const headers = { Authorization: `Bearer ${member.token}`, ...visitor() };
    const listed = (await (await request.get('/api/notifications', { headers })).json()) as { notifications: { type: string }[] };
    expect(listed.notifications.map((n) => n.type)).toEqual(['video_approved']);
    expect((await request.put('/api/notifications/read-all', { headers })).status()).toBe(200);
  }

  const alexPage = await browserOf(browser);
  const blairPage = await browserOf(browser);
  try {
    await logInThroughForm(alexPage, alex.email, alex.password, '/');
    await logInThroughForm(blairPage, blair.email, blair.password, `/video/${alex.id}`);
    await expect(bellOf(alexPage)).toHaveAccessibleName('Notifications');

    // Blair likes, follows and comments on Alex's video; Alex's open page learns of it at the next poll.
    const blairSays = `Gorgeous look, Alex! ${unique()}`;
    await likeFollowAndComment(blairPage, alex.username, blairSays);
    await expectNewsFrom(alexPage, blair.username, alex);

    // Alex follows the comment's notification to it, which marks it read.
    const marked = alexPage.waitForResponse(
      (response) => response.request().method() === 'PUT' && /\/api\/notifications\/[0-9a-f-]{36}\/read$/.test(response.url()),
    );
    await panelOf(alexPage).locator('.notif-item').first().click();
    expect((await marked).status()).toBe(200);
    await expect(alexPage).toHaveURL(new RegExp(`/video/${alex.id}#comment-`));
    await expect(alexPage.getByRole('article', { name: `Comment by ${blair.username}` })).toContainText(blairSays);
    await expect(bellOf(alexPage)).toHaveAccessibleName('Notifications, 2 unread');

    // Alex returns the favour on Blair's video; Blair, now on the home page, sees it arrive.
    await blairPage.goto('/');
    const alexSays = `Thank you, Blair! ${unique()}`;
    await alexPage.goto(`/video/${blair.id}`);
    await likeFollowAndComment(alexPage, blair.username, alexSays);
    await expectNewsFrom(blairPage, alex.username, blair);

    // Mark all as read clears Blair's badge; Alex still has two unread.
    const readAll = blairPage.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/api/notifications/read-all'),
    );
    await panelOf(blairPage).getByRole('button', { name: 'Mark all as read' }).click();
    expect((await readAll).status()).toBe(200);
    await expect(bellOf(blairPage)).toHaveAccessibleName('Notifications');
    await expect(bellOf(alexPage)).toHaveAccessibleName('Notifications, 2 unread');

    // Each finds the other's video in their following feed and their liked videos.
    for (const [page, other] of [
      [alexPage, blair],
      [blairPage, alex],
    ] as const) {
      await page.goto('/following');
      await expect(page.getByRole('main').getByRole('link', { name: other.title }).first()).toBeVisible();
      await page.goto('/liked-videos');
      await expect(page.getByRole('list', { name: 'Your liked videos' }).getByRole('link', { name: other.title })).toBeVisible();
    }
    // And on each profile, one follower.
    await alexPage.goto(`/profile/${alex.username}`);
    await expect(alexPage.getByTestId('count-followers')).toHaveText('1');
    await expect(alexPage.getByTestId('count-following')).toHaveText('1');
  } finally {
    await alexPage.context().close();
    await blairPage.context().close();
  }
});
