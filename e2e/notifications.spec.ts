import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext, Page } from '@playwright/test';

import { adminToken, approve, logInThroughForm, makeClip, unique, uploadClip, verifiedMember, waitUntilPublic } from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * The bell's polling interval (components/community/NotificationBell.tsx). Tests move the page's clock with
 * runFor, which fires timers in order; fastForward fires everything due at once, so SWR's 2-second dedupe
 * cleanup would run after the poll it is meant to precede.
 */
const POLL_MS = 30_000;

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-notifications-'));
  clip = makeClip(mediaDir);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** Videos approved here are rejected again afterwards, so they do not linger in other specs' lists. */
const takeDown: string[] = [];
test.afterEach(async ({ request }) => {
  if (takeDown.length === 0) return;
  const token = await adminToken(request);
  for (const id of takeDown.splice(0))
    await moderate(request, token, id, { action: 'reject', reason: 'Taken down after the e2e check' }, [200, 409]);
});

async function moderate(request: APIRequestContext, token: string, id: string, data: Record<string, string>, expected = [200]) {
  const response = await request.patch(`/api/admin/videos/${id}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(expected, await response.text()).toContain(response.status());
}

/** A member with an uploaded clip; `decisions` are applied by the admin in order, each notifying the member. */
async function memberWithDecisions(request: APIRequestContext, decisions: ('approve' | 'reject')[]) {
  const member = await verifiedMember(request, 'bell');
  const title = `Bell clip ${unique()}`;
  const id = await uploadClip(request, member.token, clip, { title });
  if (decisions.length) {
    const token = await adminToken(request);
    for (const decision of decisions) {
      if (decision === 'approve') await approve(request, token, id);
      else await moderate(request, token, id, { action: 'reject', reason: 'Blurry test pattern' });
    }
    if (decisions.at(-1) === 'approve') takeDown.push(id);
  }
  return { ...member, title, id };
}

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
const panelOf = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const listRequests = (page: Page) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/notifications') seen.push(request.url());
  });
  return seen;
};
/** What a browser does when its tab goes to the background or comes back. */
const setTabHidden = (page: Page, hidden: boolean) =>
  page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (value ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);

test.describe('notifications', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop header; the mobile menu has its own test below');

  test('an approval reaches the bell at the next poll; clicking it marks it read and opens the video', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const member = await memberWithDecisions(request, []);
    await page.clock.install();
    await logInThroughForm(page, member.email, member.password, '/');
    const bell = bellOf(page);
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(bell).toHaveAttribute('aria-expanded', 'false');

    await approve(request, await adminToken(request), member.id);
    takeDown.push(member.id);
    // Nothing tells the page; its 30-second poll does.
    await page.clock.runFor(POLL_MS);
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await expect(bell.locator('.notif-badge')).toHaveText('1');
    await reviewShot(page, 'closed');

    await bell.click();
    const panel = panelOf(page);
    await expect(panel).toBeVisible();
    await expect(panel).toBeFocused();
    await expect(bell).toHaveAttribute('aria-expanded', 'true');
    const item = panel.getByRole('link', { name: new RegExp(`Your video "${escapeRegExp(member.title)}" has been approved\\.`) });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('href', `/video/${member.id}`);
    await expect(item.locator('time')).toHaveText(/^(just now|\d+ seconds? ago|1 minute ago)$/);
    await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeVisible();
    await reviewShot(page, 'open');

    await waitUntilPublic(member.id);
    const marked = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && /\/api\/notifications\/[0-9a-f-]{36}\/read$/.test(response.url()),
    );
    await item.click();
    expect((await marked).status()).toBe(200);
    await expect(page).toHaveURL(`/video/${member.id}`);
    await expect(page.getByRole('heading', { level: 1, name: member.title })).toBeVisible();
    await expect(panel).toBeHidden();
    await expect(bell).toHaveAccessibleName('Notifications');

    const listed = await request.get('/api/notifications', { headers: { Authorization: `Bearer ${member.token}` } });
    const body = (await listed.json()) as { unreadCount: number; notifications: { read: boolean; type: string }[] };
    expect(body.unreadCount).toBe(0);
    expect(body.notifications).toEqual([expect.objectContaining({ type: 'video_approved', read: true })]);
  });

  test('Mark all as read clears the badge; the panel closes on Escape and on an outside click', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(90_000);
    const member = await memberWithDecisions(request, ['approve', 'reject', 'approve']);
    await logInThroughForm(page, member.email, member.password, '/');
    const bell = bellOf(page);
    await expect(bell).toHaveAccessibleName('Notifications, 3 unread');

    await bell.click();
    const panel = panelOf(page);
    const items = panel.locator('.notif-item');
    await expect(items).toHaveCount(3);
    await expect(items.nth(1)).toContainText(`Your video "${member.title}" was not approved. Reason: Blurry test pattern`);
    await expect(items.nth(0)).toContainText(`Your video "${member.title}" has been approved.`);

    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();

    await bell.click();
    await expect(panel).toBeVisible();
    await page.getByRole('main').click({ position: { x: 8, y: 8 } });
    await expect(panel).toBeHidden();

    await bell.click();
    const readAll = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/api/notifications/read-all'),
    );
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    expect((await readAll).status()).toBe(200);
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(bell.locator('.notif-badge')).toHaveCount(0);
    await expect(panel.locator('.notif-item[data-read="false"]')).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
    await expect(panel.getByRole('status').filter({ hasText: 'All notifications marked as read.' })).toBeAttached();
    await expect(panel).toBeVisible();

    // It stays read after a reload.
    await page.reload();
    await expect(bellOf(page)).toHaveAccessibleName('Notifications');

    // The narrowest desktop header still fits the bell, and the panel stays on screen.
    await page.setViewportSize({ width: 1024, height: 768 });
    await bellOf(page).click();
    await expect(panel).toBeVisible();
    await expectNoSidewaysScroll(page, 'at 1024 px with the panel open');
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    await reviewShot(page, 'read-1024');
  });

  test('a failed load says so (or gives the server’s message), and Try again recovers to the empty state', async ({
    confirmedPage: page,
    request,
  }) => {
    const member = await memberWithDecisions(request, []);
    let failure: { status: number; contentType: string; body: string } | null = {
      status: 500,
      contentType: 'text/plain',
      body: 'upstream exploded',
    };
    await page.route(
      (url) => url.pathname === '/api/notifications',
      (route) => (failure ? route.fulfill(failure) : route.continue()),
    );
    await logInThroughForm(page, member.email, member.password, '/');
    const bell = bellOf(page);
    await bell.click();
    const panel = panelOf(page);
    await expect(panel.getByRole('alert')).toContainText('Failed to load notifications.');
    await reviewShot(page, 'error');

    failure = {
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Notifications are taking a short break.' }),
    };
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect(panel.getByRole('alert')).toContainText('Notifications are taking a short break.');
    await expect(bell).toBeVisible(); // still logged in: only 401s and bans log out

    failure = null;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect(panel.getByText('No notifications yet.')).toBeVisible();
    await expect(panel.getByRole('alert')).toHaveCount(0);
    await reviewShot(page, 'empty');
  });

  test('polling pauses while the tab is hidden and catches up when it comes back', async ({ confirmedPage: page, request }) => {
    const member = await memberWithDecisions(request, []);
    const requests = listRequests(page);
    const listed = () => page.waitForResponse((response) => new URL(response.url()).pathname === '/api/notifications');
    // SWR treats a request as in flight for 2 s after the page has handled its answer (dedupe), timed on the fake
    // clock. Playwright sees an answer before the page has handled it: give the page a moment of real time first (on a
    // busy machine the handling came after the clock had moved on, and the next poll or the catch-up was deduplicated
    // against a request long answered), then let those 2 s pass.
    const settle = async () => {
      await page.waitForTimeout(300);
      await page.clock.runFor(2_500);
    };
    await page.clock.install();
    const firstLoad = listed();
    await logInThroughForm(page, member.email, member.password, '/');
    await firstLoad;
    await settle();
    await expect(bellOf(page)).toHaveAccessibleName('Notifications');

    let before = requests.length;
    const polled = listed();
    await page.clock.runFor(POLL_MS);
    await polled;
    expect(requests.length, 'one poll in 30 s').toBe(before + 1);
    await settle();

    await setTabHidden(page, true);
    before = requests.length;
    for (let i = 0; i < 4; i += 1) await page.clock.runFor(POLL_MS);
    // The session's re-check answered meanwhile; the page handles it, still hidden.
    await settle();
    expect(requests.length, 'no polling in a hidden tab').toBe(before);

    const caughtUp = listed();
    await setTabHidden(page, false);
    await caughtUp;
    expect(requests.length, 'one request on coming back').toBe(before + 1);
    await settle();
    // Playwright sees the answer before the page has handled it (and armed its next timer): on a busy machine one
    // step of the fake clock could pass before the timer exists. Keep the clock moving until the next poll.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(POLL_MS);
          return requests.length;
        },
        { message: 'polling goes on' },
      )
      .toBeGreaterThanOrEqual(before + 2);
  });
});

test('@mobile-only the bell works inside the mobile menu at 375 px', async ({ confirmedPage: page, request }) => {
  test.setTimeout(90_000);
  const member = await memberWithDecisions(request, ['approve']);
  await logInThroughForm(page, member.email, member.password, '/');
  // The header's own bell is hidden below 1024 px; the menu carries it.
  await expect(bellOf(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.locator('#mobile-menu');
  const bell = menu.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await expectNoSidewaysScroll(page, 'with the menu open');
  await reviewShot(page, 'closed');

  await bell.click();
  const panel = panelOf(page);
  await expect(panel).toBeVisible();
  const item = panel.getByRole('link', { name: /has been approved\./ });
  await expect(item).toBeVisible();
  await expect(item.locator('time')).toHaveText(/ago$|^just now$/);
  await expectNoSidewaysScroll(page, 'with the notification panel open');
  const box = await panel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await reviewShot(page, 'open');

  // Escape closes the innermost layer only: the menu stays open.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(menu).toBeVisible();
  await expect(bell).toBeFocused();

  await bell.click();
  await item.click();
  await expect(page).toHaveURL(`/video/${member.id}`);
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(menu.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName('Notifications');
  await expectNoSidewaysScroll(page, 'on the video page');
});
