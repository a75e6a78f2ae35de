import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from '@playwright/test';

import { adminToken, enrolTwoFactor, logInThroughForm, makeClip, totpCode, uploadClip, verifiedMember, visitor } from './api';
import { expect, reviewShot, test } from './fixtures';

/** A page in its own browser context (its own cookies), past the age gate. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  await context.setExtraHTTPHeaders(visitor());
  return context.newPage();
}

test.describe('statements of reasons and appeals', () => {
  test('an uploader reads a rejection’s statement, appeals, a second admin reverses it, and the uploader sees the outcome', async ({
    request,
    browser,
    confirmedPage: page,
  }) => {
    test.setTimeout(180_000);
    const firstAdmin = await adminToken(request);
    const uploader = await verifiedMember(request, 'appealer');
    const streamVideoId = await uploadClip(
      request,
      uploader.token,
      makeClip(mkdtempSync(path.join(os.tmpdir(), 'e2e-appeal-'))),
      { title: 'Appeal me </script >' },
    );
    const rejected = await request.patch(`/api/admin/videos/${streamVideoId}`, {
      headers: { Authorization: `Bearer ${firstAdmin}` },
      data: { action: 'reject', reason: 'Not in our categories', ground: 'standards-labelling' },
    });
    expect(rejected.status(), await rejected.text()).toBe(200);
    const decisions = (await (
      await request.get('/api/decisions', { headers: { Authorization: `Bearer ${uploader.token}` } })
    ).json()) as { decisions: { _id: string }[] };
    const decisionId = decisions.decisions[0]!._id;

    // The uploader reads the statement: the decision, the rule with its link, a person decided, the appeal form.
    await logInThroughForm(page, uploader.email, uploader.password, '/');
    await page.goto(`/decisions/${decisionId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Your video was not approved' })).toBeVisible();
    await expect(page.getByText('“Appeal me </script >”')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Community Standards: Labelling your videos' })).toHaveAttribute(
      'href',
      '/community-standards#labelling-your-videos',
    );
    await expect(page.getByText('A moderator (a person)')).toBeVisible();
    await page.getByRole('button', { name: 'Send appeal' }).click();
    await expect(page.getByText('Tell us why you think this decision is wrong.')).toBeVisible();
    await reviewShot(page, 'decision-with-form', { fullPage: true, widths: [1280, 375] });
    await page.getByLabel('Why is this decision wrong?').fill('It is labelled Sissy and fits the category.');
    await page.getByRole('button', { name: 'Send appeal' }).click();
    await expect(page.getByText('Waiting for review')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send appeal' })).toHaveCount(0);

    // The admin who rejected it cannot decide the appeal.
    const appeals = (await (
      await request.get('/api/admin/appeals', { headers: { Authorization: `Bearer ${firstAdmin}` } })
    ).json()) as { appeals: { _id: string; decision: { _id: string } }[] };
    const appealId = appeals.appeals.find((a) => a.decision._id === decisionId)!._id;
    const refused = await request.patch(`/api/admin/appeals/${appealId}`, {
      headers: { Authorization: `Bearer ${firstAdmin}` },
      data: { outcome: 'reverse', note: 'Mine.' },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'You made this decision, so another admin must decide its appeal.',
    );

    // A second admin: a member promoted through the admin API.
    const second = await verifiedMember(request, 'secondmod');
    const me = (await (await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${second.token}` } })).json()) as {
      user: { _id: string };
    };
    const promoted = await request.post(`/api/admin/users/${me.user._id}/admin`, {
      headers: { Authorization: `Bearer ${firstAdmin}` },
    });
    expect(promoted.status(), await promoted.text()).toBe(200);
    // Admins must use two-factor (decision 018): the new admin enrols, then logs in with a code of a later time step.
    const { secret, step } = await enrolTwoFactor(request, second.token);
    const adminPage = await freshPage(browser);
    await adminPage.goto('/login?next=%2Fadmin%2Fappeals');
    await adminPage.getByLabel('Email').fill(second.email);
    await adminPage.getByLabel('Password').fill(second.password);
    await adminPage.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await adminPage.getByLabel('Authentication code').fill(totpCode(secret, Math.max(step + 1, Math.floor(Date.now() / 30_000))));
    await adminPage.getByRole('button', { name: 'Verify' }).click();
    await expect(adminPage).toHaveURL('/admin/appeals', { timeout: 20_000 });
    await expect(
      adminPage.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'Appeals' }),
    ).toHaveAttribute('aria-current', 'page');
    const card = adminPage.getByRole('article').filter({ hasText: 'It is labelled Sissy and fits the category.' });
    await expect(card).toBeVisible();
    await reviewShot(adminPage, 'admin-appeals', { fullPage: true, widths: [1280, 375] });
    await card.getByRole('button', { name: 'Reverse…' }).click();
    await card.getByRole('button', { name: 'Reverse the decision' }).click();
    await expect(card.getByText('Write a note for the member: why the decision stands or why it was wrong.')).toBeVisible();
    await card.getByLabel('Note for the member (why the decision was wrong)').fill('It fits the Sissy category.');
    await card.getByRole('button', { name: 'Reverse the decision' }).click();
    // The confirmation outlives the card: the refresh takes the decided appeal out of the open list.
    await expect(adminPage.getByRole('status').filter({ hasText: 'Decision reversed; the member has been told.' })).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(adminPage.getByText('Decision reversed; the member has been told.')).toBeVisible();
    await reviewShot(adminPage, 'admin-appeal-reversed', { fullPage: true, widths: [1280, 375] });
    await adminPage.context().close();

    // The uploader sees the outcome on the statement and in their notifications; the video is approved again.
    await page.reload();
    await expect(page.getByText('Reversed: the decision was wrong')).toBeVisible();
    await expect(page.getByText('It fits the Sissy category.')).toBeVisible();
    await reviewShot(page, 'decision-reversed', { fullPage: true, widths: [1280, 375] });
    const own = (await (
      await request.get('/api/videos/mine', { headers: { Authorization: `Bearer ${uploader.token}` } })
    ).json()) as { videos: { streamVideoId: string; moderationStatus: string }[] };
    expect(own.videos.find((v) => v.streamVideoId === streamVideoId)!.moderationStatus).toBe('approved');
    const notices = (await (
      await request.get('/api/notifications', { headers: { Authorization: `Bearer ${uploader.token}` } })
    ).json()) as { notifications: { type: string; link: string; message: string }[] };
    expect(
      notices.notifications.find((n) => n.type === 'site_notice' && n.link === `/decisions/${decisionId}`)?.message,
    ).toContain('reversed the decision');

    // Decisions about you lists it.
    await page.goto('/decisions');
    await expect(page.getByRole('link', { name: /Your video was not approved: “Appeal me/ })).toBeVisible();
    await reviewShot(page, 'decisions-list', { fullPage: true, widths: [1280, 375] });
  });

  test('another member gets the 404 page for someone else’s statement, a visitor the login page', async ({
    request,
    confirmedPage: page,
  }) => {
    test.setTimeout(120_000);
    const firstAdmin = await adminToken(request);
    const uploader = await verifiedMember(request, 'owner');
    const streamVideoId = await uploadClip(
      request,
      uploader.token,
      makeClip(mkdtempSync(path.join(os.tmpdir(), 'e2e-appeal-'))),
      { title: 'Private reasons' },
    );
    await request.patch(`/api/admin/videos/${streamVideoId}`, {
      headers: { Authorization: `Bearer ${firstAdmin}` },
      data: { action: 'reject', reason: 'Spam or advertising' },
    });
    const decisions = (await (
      await request.get('/api/decisions', { headers: { Authorization: `Bearer ${uploader.token}` } })
    ).json()) as { decisions: { _id: string }[] };
    const decisionId = decisions.decisions[0]!._id;
    await page.goto(`/decisions/${decisionId}`);
    await expect(page).toHaveURL(
      new RegExp(`/login\\?next=${encodeURIComponent(`/decisions/${decisionId}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    const stranger = await verifiedMember(request, 'stranger');
    await logInThroughForm(page, stranger.email, stranger.password, '/');
    const response = await page.goto(`/decisions/${decisionId}`);
    expect(response!.status()).toBe(404);
    await expect(page.getByText('Private reasons')).toHaveCount(0);
  });

  test('the transparency report and the 2257 statement are public pages linked from the footer', async ({
    confirmedPage: page,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/');
    const legal = page.getByRole('list', { name: 'Legal' });
    await legal.getByRole('link', { name: 'Transparency' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Transparency report' })).toBeVisible();
    await expect(page.getByText(/Notices and reports received: \d+/).first()).toBeVisible();
    await reviewShot(page, 'transparency', { fullPage: true, widths: [1280, 375] });
    await page.goto('/');
    await legal.getByRole('link', { name: '2257 Statement' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: '18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement' }),
    ).toBeVisible();
    await expect(page.getByText('The operator of this site has not yet named its custodian of records')).toBeVisible();
    await reviewShot(page, '2257', { fullPage: true, widths: [1280, 375] });
  });
});
