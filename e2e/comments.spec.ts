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
  postComment,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-comments-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '320x240');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** A public video by a new member; returns its id and its owner. */
async function publicVideo(request: APIRequestContext, title: string) {
  const owner = await verifiedMember(request, 'host');
  const id = await uploadClip(request, owner.token, clip, { title, category: 'Sissy' });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return { id, owner };
}

/** A fresh browser session (its own storage) past the age gate. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  await context.setExtraHTTPHeaders(visitor());
  return context.newPage();
}

test.describe('comments', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop journey; the 375 px test is below');

  test('a member comments and edits; the owner deletes another member’s comment; visitors are asked to log in', async ({
    confirmedPage: page,
    request,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { id, owner } = await publicVideo(request, `Talk about it ${unique()}`);
    const member = await verifiedMember(request, 'talker');
    const other = await verifiedMember(request, 'passerby');
    const otherText = `Just passing through ${unique()}`;
    const othersComment = await postComment(request, other.token, id, otherText);

    // A visitor reads comments in the server's HTML and is asked to log in to write one.
    const html = await (await request.get(`/video/${id}`)).text();
    expect(html).toContain(`id="comment-${othersComment}"`);
    expect(html).toContain(otherText);
    const guest = await freshPage(browser);
    await guest.goto(`/video/${id}`);
    await expect(guest.getByRole('heading', { name: 'Comments' })).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Log in to comment' })).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent(`/video/${id}`)}`,
    );
    await expect(guest.getByRole('textbox', { name: 'Add a comment' })).toHaveCount(0);
    await expect(guest.getByRole('article', { name: `Comment by ${other.username}` })).toContainText(otherText);
    await expect(guest.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await guest.context().close();

    // The member posts; the comment shows at once, and the form empties.
    await logInThroughForm(page, member.email, member.password, `/video/${id}`);
    const box = page.getByRole('textbox', { name: 'Add a comment' });
    await page.getByRole('button', { name: 'Post comment' }).click();
    const section = page.getByRole('region', { name: 'Comments' });
    await expect(section.getByRole('alert')).toHaveText('Write a comment first.');
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    const text = `Love the transformation!\nSecond line ${unique()}`;
    await box.fill(text);
    await expect(page.getByText(`${text.length} / 2000`)).toBeVisible();
    await page.getByRole('button', { name: 'Post comment' }).click();
    const mine = page.getByRole('article', { name: `Comment by ${member.username}` });
    await expect(mine).toContainText('Love the transformation!');
    await expect(mine).toContainText(/seconds? ago|just now/);
    await expect(box).toHaveValue('');
    // Newest first, with the line break kept.
    await expect(page.getByRole('list', { name: 'Comments' }).getByRole('article').first()).toHaveAttribute(
      'aria-label',
      `Comment by ${member.username}`,
    );
    expect(await mine.locator('.comment-body').evaluate((element) => getComputedStyle(element).whiteSpace)).toBe('pre-line');
    // On someone else's comment: Reply and Report only, never Edit or Delete.
    await expect(page.getByRole('article', { name: `Comment by ${other.username}` }).getByRole('button')).toHaveText([
      /^Reply$/,
      /Report$/,
    ]);

    // Editing: the text changes in place and reads "(edited)".
    await mine.getByRole('button', { name: 'Edit' }).click();
    const editBox = mine.getByRole('textbox', { name: 'Edit your comment' });
    await expect(editBox).toHaveValue(text);
    await editBox.fill('Changed my mind: even better than I said.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(mine.locator('.comment-body')).toHaveText('Changed my mind: even better than I said.');
    await expect(mine).toContainText('(edited)');
    await page.reload();
    await expect(page.getByRole('article', { name: `Comment by ${member.username}` })).toContainText('Changed my mind');
    await reviewShot(page, 'comments-member', { fullPage: true });

    // The owner may delete anyone's comment on their video, after confirming.
    const ownerPage = await freshPage(browser);
    await logInThroughForm(ownerPage, owner.email, owner.password, `/video/${id}`);
    const theirs = ownerPage.getByRole('article', { name: `Comment by ${other.username}` });
    await expect(theirs.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await theirs.getByRole('button', { name: 'Delete' }).click();
    await expect(theirs.getByRole('group', { name: 'Confirm deletion' })).toContainText('Delete this comment?');
    await theirs.getByRole('button', { name: 'Cancel' }).click();
    await expect(theirs).toBeVisible();
    await theirs.getByRole('button', { name: 'Delete' }).click();
    await theirs.getByRole('button', { name: 'Delete comment' }).click();
    await expect(ownerPage.getByRole('article', { name: `Comment by ${other.username}` })).toHaveCount(0);
    await expect(ownerPage.getByRole('article', { name: `Comment by ${member.username}` })).toBeVisible();
    await ownerPage.reload();
    await expect(ownerPage.getByRole('article', { name: `Comment by ${member.username}` })).toBeVisible();
    await expect(ownerPage.getByText(otherText)).toHaveCount(0);
    await ownerPage.context().close();

    // The owner was told, with a link to the comment.
    const notifications = await request.get('/api/notifications', { headers: { Authorization: `Bearer ${owner.token}` } });
    if (notifications.status() === 200) {
      expect(JSON.stringify(await notifications.json())).toContain(`/video/${id}#comment-`);
    }
  });

  test('a comment with markup and links renders inert, with links marked ugc nofollow noopener', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(90_000);
    const { id } = await publicVideo(request, `Markup test ${unique()}`);
    const writer = await verifiedMember(request, 'scripter');
    const body = [
      '<script>window.__pwned = "script"</script>',
      '<img src=x onerror="window.__pwned = \'img\'">',
      '<a href="javascript:window.__pwned = \'link\'">click me</a>',
      'javascript:alert(1) data:text/html,<b>x</b>',
      'More at https://example.com/guide_(part_1). Thanks!',
    ].join('\n');
    const commentId = await postComment(request, writer.token, id, body);

    const html = await (await request.get(`/video/${id}`)).text();
    expect(html).toContain('&lt;script&gt;window.__pwned');
    expect(html).not.toContain('<script>window.__pwned');

    await page.goto(`/video/${id}#comment-${commentId}`);
    const comment = page.locator(`#comment-${commentId}`);
    await expect(comment).toContainText('<script>window.__pwned = "script"</script>');
    await expect(comment).toContainText('<img src=x onerror=');
    await expect(comment.locator('script, img:not(.comment-avatar), .comment-body a[href^="javascript"]')).toHaveCount(0);
    const links = comment.locator('.comment-body a');
    await expect(links).toHaveCount(1);
    await expect(links).toHaveText('https://example.com/guide_(part_1)');
    await expect(links).toHaveAttribute('href', 'https://example.com/guide_(part_1)');
    await expect(links).toHaveAttribute('rel', 'ugc nofollow noopener');
    await expect(links).toHaveAttribute('target', '_blank');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  });

  test('the first 20 comments come with the page; Load more fetches the rest', async ({ confirmedPage: page, request }) => {
    test.setTimeout(120_000);
    const { id } = await publicVideo(request, `Busy thread ${unique()}`);
    // Five members, five comments each (the per-member limit is 5 a minute).
    const members = await Promise.all(Array.from({ length: 5 }, (_, i) => verifiedMember(request, `crowd${i}`)));
    for (let round = 0; round < 5; round += 1) {
      for (const [index, member] of members.entries())
        await postComment(request, member.token, id, `Comment number ${round * 5 + index + 1}`);
    }
    await page.goto(`/video/${id}`);
    const list = page.getByRole('list', { name: 'Comments' });
    await expect(page.locator('.comments-count')).toHaveText('25 comments');
    await expect(list.getByRole('article')).toHaveCount(20);
    await expect(list.getByRole('article').first()).toContainText('Comment number 25');
    await page.getByRole('button', { name: 'Load more comments' }).click();
    await expect(list.getByRole('article')).toHaveCount(25);
    await expect(list.getByRole('article').last()).toContainText('Comment number 1');
    await expect(page.getByRole('button', { name: 'Load more comments' })).toHaveCount(0);
  });
});

test('@mobile-only comments fit a 375 px screen', async ({ confirmedPage: page, request }) => {
  test.setTimeout(90_000);
  const { id } = await publicVideo(request, `Phone comments ${unique()}`);
  const writer = await verifiedMember(request, 'thumbs');
  await postComment(
    request,
    writer.token,
    id,
    `A very long address: https://example.com/${'a-long-path-segment/'.repeat(12)}end and a long word ${'x'.repeat(120)}`,
  );
  await postComment(request, writer.token, id, 'Short and sweet.\nOn two lines.');
  await page.goto(`/video/${id}`);
  await expect(page.getByRole('link', { name: 'Log in to comment' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Comments' }).getByRole('article')).toHaveCount(2);
  await expectNoSidewaysScroll(page, 'video page with comments, visitor');
  await reviewShot(page, 'comments-visitor', { fullPage: true });

  await logInThroughForm(page, writer.email, writer.password, `/video/${id}`);
  await expect(page.getByRole('textbox', { name: 'Add a comment' })).toBeVisible();
  await page.getByRole('list', { name: 'Comments' }).getByRole('article').first().getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Edit your comment' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'video page with comments, member editing');
  await reviewShot(page, 'comments-member', { fullPage: true });
});
