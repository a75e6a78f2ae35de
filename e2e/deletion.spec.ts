import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  ADMIN,
  adminToken,
  approve,
  logInThroughForm,
  makeClip,
  openSettings,
  PASSWORD,
  unique,
  uploadClip,
  verifiedMember,
  visitor,
  waitUntilPublic,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, showInModerationQueue, test } from './fixtures';
import { ORIGIN } from '../scripts/lib/e2e-env';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-deletion-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** A processed, approved video of the member's. */
async function publicVideo(request: Parameters<typeof verifiedMember>[0], token: string, title: string, tags: string) {
  const id = await uploadClip(request, token, clip, { title, category: 'Censor', tags });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  return id;
}

test('a member deletes their account in settings; the name can register again @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.slow();
  const member = await verifiedMember(request, 'leaver');
  await logInThroughForm(page, member.email, member.password);
  const settings = await openSettings(page);
  const section = settings.getByRole('region', { name: 'Delete account' });
  await section.getByRole('button', { name: 'Delete my account…' }).click();
  await expect(section.getByLabel('Current password')).toBeFocused();

  // Each wrong input has its own message.
  await section.getByLabel('Current password').fill(member.password);
  await section.getByLabel(/Type your username/).fill(member.username.toUpperCase());
  await section.getByRole('button', { name: 'Delete my account permanently' }).click();
  await expect(section.getByText('That is not your username. Type it exactly as it is shown.')).toBeVisible();
  await section.getByLabel(/Type your username/).fill(member.username);
  await section.getByLabel('Current password').fill('not-my-password');
  await section.getByRole('button', { name: 'Delete my account permanently' }).click();
  await expect(section.getByText('Your current password is incorrect.')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await reviewShot(page, 'settings-delete-account');

  await section.getByLabel('Current password').fill(member.password);
  await section.getByRole('button', { name: 'Delete my account permanently' }).click();
  // Deleting an account checks the password (a slow hash on purpose) and removes everything in one transaction.
  await expect(page).toHaveURL('/account-deleted', { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'account-deleted');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  if ((page.viewportSize()?.width ?? 1280) >= 1024)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' })).toBeVisible();

  // The old token is dead everywhere; the username and email are free again.
  expect((await fetch(`${ORIGIN}/api/auth/me`, { headers: { Authorization: `Bearer ${member.token}` } })).status).toBe(401);
  const again = await request.post('/api/auth/register', {
    headers: visitor(),
    multipart: {
      username: member.username,
      email: member.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      dateOfBirth: '1993-04-12',
    },
  });
  expect(again.status(), await again.text()).toBe(201);
});

test('the owner edits a live video on its page; it stays public as approved until an admin approves the new text @mobile', async ({
  confirmedPage: page,
  request,
  browser,
}) => {
  test.slow();
  const member = await verifiedMember(request, 'editor');
  const word = `fern${unique()}`;
  const id = await publicVideo(request, member.token, `Before ${word}`, `${word}, first`);
  await logInThroughForm(page, member.email, member.password, `/video/${id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit video' });
  await expect(dialog.getByLabel('Title')).toHaveValue(`Before ${word}`);
  await dialog.getByLabel('Title').fill('');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await dialog.getByLabel('Title').fill(`After ${word}`);
  await dialog.getByLabel(/Tags/).fill(`${word}, second`);
  await reviewShot(page, 'edit-video-dialog');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/shown once an admin approves them/)).toBeVisible();
  await reviewShot(page, 'video-page-after-edit');

  // The page, its links and the API keep the approved text meanwhile (decision 009): nothing goes offline.
  await expect(page.getByRole('heading', { level: 1, name: `Before ${word}` })).toBeVisible();
  const meanwhile = await fetch(`${ORIGIN}/api/videos/${id}`);
  expect(meanwhile.status).toBe(200);
  expect(((await meanwhile.json()) as { video: { title: string } }).video.title).toBe(`Before ${word}`);
  // The owner's form goes on from the waiting text, and says it waits.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(dialog.getByLabel('Title')).toHaveValue(`After ${word}`);
  await expect(dialog.getByText(/is waiting for review/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // An admin reads the change beside the live text in Moderation → Text edits, and approves it.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await admin.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  await logInThroughForm(admin, ADMIN.email, ADMIN.password, '/admin/moderation');
  await admin.getByRole('link', { name: /Text edits waiting for review/ }).click();
  const card = admin.getByRole('article').filter({ hasText: `Before ${word}` });
  await expect(card.getByText(`After ${word}`)).toBeVisible();
  await reviewShot(admin, 'admin-text-edits');
  await card.getByRole('button', { name: 'Approve changes' }).click();
  await expect(admin.getByText('Changes approved: the new text is live.')).toBeVisible();
  await adminContext.close();

  await expect(async () => {
    await page.goto(`/video/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: `After ${word}` })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: '#second' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'video-page-owner-actions');
});

test('the owner deletes a video from "Your videos"; it is gone from home, category, search and profile @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.slow();
  const member = await verifiedMember(request, 'remover');
  const word = `moss${unique()}`;
  const title = `Goodbye ${word}`;
  const id = await publicVideo(request, member.token, title, word);
  await expect(async () => {
    await page.goto('/category/Censor');
    await expect(page.getByRole('link', { name: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  await logInThroughForm(page, member.email, member.password, '/upload');
  const row = page.getByRole('list', { name: 'Your uploads' }).getByRole('article').filter({ hasText: title });
  await row.scrollIntoViewIfNeeded();
  await reviewShot(page, 'your-videos-row-actions');
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this video?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await row.scrollIntoViewIfNeeded();
  await reviewShot(page, 'delete-video-confirm');
  await confirm.getByRole('button', { name: 'Delete video' }).click();
  await expect(row).toHaveCount(0);
  await reviewShot(page, 'your-videos-after-delete');

  // Gone at once for visitors: the page, and every list that showed it.
  const anonymous = await page.context().browser()!.newContext();
  const visitorPage = await anonymous.newPage();
  await visitorPage.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  expect((await visitorPage.goto(`/video/${id}`))!.status()).toBe(410);
  for (const where of ['/', '/category/Censor', `/search?q=${word}`, `/profile/${member.username}`]) {
    await visitorPage.goto(where);
    await expect(visitorPage.getByRole('link', { name: title }), where).toHaveCount(0);
  }
  await anonymous.close();
});

test('an admin edits a pending video from Moderation; the audit log shows before and after @mobile', async ({
  confirmedPage: page,
  request,
}) => {
  test.slow();
  const member = await verifiedMember(request, 'queued');
  const word = `reed${unique()}`;
  const id = await uploadClip(request, member.token, clip, { title: `Queued ${word}`, category: 'Sissy', tags: word });
  await logInThroughForm(page, ADMIN.email, ADMIN.password, '/admin/moderation');
  const item = page.getByRole('article').filter({ hasText: `Queued ${word}` });
  await showInModerationQueue(page, item);
  await item.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit video' });
  await dialog.getByLabel('Title').fill(`Retitled ${word}`);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const edited = page.getByRole('article').filter({ hasText: `Retitled ${word}` });
  await expect(edited).toBeVisible();
  await edited.scrollIntoViewIfNeeded();
  await reviewShot(page, 'moderation-item-actions');

  await page.goto(`/admin/audit?targetType=video&targetId=${id}`);
  await expect(page.getByText(`Queued ${word}`, { exact: true })).toBeVisible();
  await expect(page.getByText(`Retitled ${word}`, { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await reviewShot(page, 'audit-log-edit');
});
