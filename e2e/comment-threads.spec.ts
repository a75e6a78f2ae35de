/**
 * Issue 11, points 6–8 in the browser at 1280 and 375 px: reporting a comment
 * from the comment itself, replies (reply, expand, the parent's author told,
 * a #comment link to a reply on a collapsed thread), and the Share dialog
 * (copy link with the Clipboard API, the embed code).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext } from '@playwright/test';

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
  postComment,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-threads-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '320x240');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const REASONS = [
  'Involves someone under 18',
  'Without someone’s consent',
  'Something illegal',
  'Someone else’s work, used without permission',
  'Harassment, hate or bullying',
  'Spam or scam',
  'Something else',
];

async function publicVideo(request: APIRequestContext, title: string) {
  const owner = await verifiedMember(request, 'host');
  const id = await uploadClip(request, owner.token, clip, { title, category: 'Sissy' });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return { id, owner };
}

test('a member reports another member’s comment from the comment, with the same reasons as a video; never their own @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.setTimeout(120_000);
  const { id } = await publicVideo(request, `Reportable ${unique()}`);
  const rude = await verifiedMember(request, 'rude');
  const member = await verifiedMember(request, 'reporter');
  const rudeText = `Something nasty ${unique()}`;
  await postComment(request, rude.token, id, rudeText);
  await postComment(request, member.token, id, 'My own thoughts');

  await logInThroughForm(page, member.email, member.password, `/video/${id}`);
  const theirs = page.getByRole('article', { name: `Comment by ${rude.username}` });
  const mine = page.getByRole('article', { name: `Comment by ${member.username}` });
  await expect(mine.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(mine.getByRole('button', { name: /Report/ })).toHaveCount(0);

  // The video's dialog, for the list of reasons to compare with.
  await page.getByRole('button', { name: 'Report', exact: true }).first().click();
  const videoDialog = page.getByRole('dialog', { name: 'Report this video' });
  await expect(videoDialog.getByRole('radio')).toHaveCount(REASONS.length);
  for (const label of REASONS) await expect(videoDialog.getByRole('radio', { name: new RegExp(`^${label}`) })).toBeVisible();
  await videoDialog.getByRole('button', { name: 'Cancel' }).click();

  await theirs.getByRole('button', { name: `Report comment by ${rude.username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this comment' });
  await expect(dialog).toBeVisible();
  const labels = await dialog.locator('.report-reason-label').allTextContents();
  expect(labels).toEqual(REASONS);
  await dialog.getByRole('radio', { name: /^Harassment, hate or bullying/ }).check();
  await expectNoSidewaysScroll(page, 'comment report dialog');
  await reviewShot(page, 'comment-report-dialog');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Thank you. Our moderators will review this report.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(theirs.getByRole('button', { name: `Report comment by ${rude.username}` })).toBeFocused();

  // The admin queue shows the comment's text and a link to it.
  const queue = await request.get('/api/admin/reports', { headers: { Authorization: `Bearer ${await adminToken(request)}` } });
  const found = ((await queue.json()) as { reports: { target: { excerpt?: string; link: string } | null }[] }).reports.find(
    (entry) => entry.target?.excerpt === rudeText,
  );
  expect(found?.target?.link).toMatch(new RegExp(`^/video/${id}#comment-[0-9a-f-]{36}$`));
});

test('replies: reply inline, expand a thread, the parent’s author is told, and a link to a reply opens its thread @mobile', async ({
  confirmedPage: page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const { id } = await publicVideo(request, `Threads ${unique()}`);
  const author = await verifiedMember(request, 'parent');
  const replier = await verifiedMember(request, 'replier');
  const parentText = `What do you all think? ${unique()}`;
  const parentId = await postComment(request, author.token, id, parentText);
  const first = await postComment(request, replier.token, id, 'An earlier reply', parentId);
  await postComment(request, author.token, id, 'Thanks!', parentId);

  await logInThroughForm(page, replier.email, replier.password, `/video/${id}`);
  const parent = page.getByRole('article', { name: `Comment by ${author.username}` }).first();
  const toggle = page.getByRole('button', { name: 'View 2 replies' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  const replies = page.getByRole('list', { name: `Replies to ${author.username}` });
  await expect(replies.getByRole('article')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Hide replies' })).toHaveAttribute('aria-expanded', 'true');

  // Replying to a reply starts with its @username and joins the same thread.
  await replies
    .getByRole('article', { name: `Comment by ${author.username}` })
    .getByRole('button', { name: `Reply to ${author.username}` })
    .click();
  const box = page.getByRole('textbox', { name: `Reply to ${author.username}` });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(`@${author.username} `);
  await box.pressSequentially('good point');
  await expectNoSidewaysScroll(page, 'reply form');
  await reviewShot(page, 'reply-form');
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(replies.getByRole('article')).toHaveCount(3);
  await expect(replies.getByRole('article').last()).toContainText(`@${author.username} good point`);
  await expect(box).toHaveCount(0);
  // The top-level list still holds one comment; the count is of top-level comments.
  await expect(page.getByRole('list', { name: 'Comments' }).first().locator(':scope > li')).toHaveCount(1);
  await expect(parent).toBeVisible();
  await reviewShot(page, 'replies-open');

  // The parent's author: the bell tells them, and its link opens the reply in its thread.
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  await context.setExtraHTTPHeaders(visitor());
  const theirs = await context.newPage();
  await logInThroughForm(theirs, author.email, author.password, '/');
  // Below 1024 px the bell is in the menu.
  const narrow = (page.viewportSize()?.width ?? 0) < 1024;
  if (narrow) await theirs.getByRole('button', { name: 'Menu' }).click();
  const bell = (narrow ? theirs.locator('#mobile-menu') : theirs.getByRole('banner')).getByRole('button', {
    name: /^Notifications/,
  });
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await bell.click();
  const item = theirs
    .getByRole('region', { name: 'Notifications' })
    .getByRole('link', { name: new RegExp(`${replier.username} replied to your comment`) })
    .first();
  await expect(item).toBeVisible();
  await reviewShot(theirs, 'reply-notification');
  const href = await item.getAttribute('href');
  expect(href).toMatch(new RegExp(`^/video/${id}#comment-[0-9a-f-]{36}$`));
  // Following it shows the reply, collapsed on the page, in its open thread.
  await item.click();
  await expect(theirs).toHaveURL(new RegExp(`/video/${id}#comment-`));
  await expect(theirs.locator(href!.slice(href!.indexOf('#')))).toBeVisible();
  await expect(theirs.locator(href!.slice(href!.indexOf('#')))).toContainText('good point');
  await context.close();

  // A link to a reply (collapsed under its parent) shows that thread first, with the reply open.
  await page.goto('/');
  await page.goto(`/video/${id}#comment-${first}`);
  await expect(page.getByText('Linked comment')).toBeVisible();
  await expect(page.locator(`#comment-${first}`)).toBeVisible();
  await expect(page.locator(`#comment-${first}`)).toBeInViewport();
  await reviewShot(page, 'linked-reply');
});

test('deleting a comment with replies says they go too', async ({ confirmedPage: page, request }) => {
  test.setTimeout(120_000);
  const { id } = await publicVideo(request, `Cascade ${unique()}`);
  const author = await verifiedMember(request, 'cascade');
  const other = await verifiedMember(request, 'other');
  const parentId = await postComment(request, author.token, id, 'Parent');
  await postComment(request, other.token, id, 'One', parentId);
  await postComment(request, other.token, id, 'Two', parentId);
  await logInThroughForm(page, author.email, author.password, `/video/${id}`);
  const parent = page.getByRole('article', { name: `Comment by ${author.username}` });
  await parent.getByRole('button', { name: 'Delete' }).click();
  await expect(parent.getByRole('group', { name: 'Confirm deletion' })).toContainText(
    'Delete this comment and its 2 replies? This cannot be undone.',
  );
  await parent.getByRole('button', { name: 'Delete comment' }).click();
  await expect(page.getByText('No comments yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: /View 2 replies/ })).toHaveCount(0);
});

test('share: copy the link with the Clipboard API, see the embed code @mobile', async ({ confirmedPage: page, request }) => {
  test.setTimeout(120_000);
  const { id } = await publicVideo(request, `Shareable ${unique()}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`/video/${id}`);
  const share = page.getByRole('button', { name: 'Share', exact: true });
  await expect(share).toBeVisible();
  await expectNoSidewaysScroll(page, 'video page with the Share button');
  await reviewShot(page, 'video-page-share-button');
  await share.click();
  const dialog = page.getByRole('dialog', { name: 'Share this video' });
  await expect(dialog).toBeVisible();
  const link = dialog.getByRole('textbox', { name: 'Link' });
  await expect(link).toHaveValue(new RegExp(`/video/${id}$`));
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());

  const embed = dialog.getByRole('textbox', { name: /Embed code/ });
  const code = await embed.inputValue();
  expect(code).toMatch(
    new RegExp(
      `^<iframe src="http://[^"]+/embed/${id}" width="640" height="360" title="Shareable [a-z0-9]+" frameborder="0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>$`,
    ),
  );
  await dialog.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Embed code copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  // Chromium on Linux has no share sheet: the button is not offered.
  const hasShare = await page.evaluate(() => typeof navigator.share === 'function');
  await expect(dialog.getByRole('button', { name: 'More ways to share…' })).toHaveCount(hasShare ? 1 : 0);
  await expectNoSidewaysScroll(page, 'share dialog');
  await reviewShot(page, 'share-dialog');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(share).toBeFocused();
  // The embed code points at a working player.
  expect((await request.get(`/embed/${id}`)).status()).toBe(200);
});

test('share: where the clipboard is refused, the link is selected for the keyboard', async ({ confirmedPage: page, request }) => {
  test.setTimeout(120_000);
  const { id } = await publicVideo(request, `No clipboard ${unique()}`);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
    });
  });
  await page.goto(`/video/${id}`);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this video' });
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('status')).toHaveText('The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.');
  const link = dialog.getByRole('textbox', { name: 'Link' });
  await expect(link).toBeFocused();
  expect(
    await link.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0)),
  ).toBe(await link.inputValue());
});
