import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

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
  wholeSitemap,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';

/**
 * Playlists (issue 35, part 6), at 1280 and 375 px: a member makes one from the video page, adds from a card,
 * reorders it and makes it public; a visitor opens the shared link (ItemList JSON-LD in its HTML), plays all, and
 * the next video starts by itself after "Up next" (which can be cancelled).
 */

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-playlists-'));
  clip = makeClip(mediaDir, 'clip.mp4', 2, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const shoot = (page: Page, name: string) => reviewShot(page, name, { fullPage: true });

test('@mobile a member makes, fills, reorders and publishes a playlist; a visitor opens it and plays all in order', async ({
  confirmedPage: page,
  request,
  browser,
}) => {
  test.setTimeout(240_000);
  const word = `pl${unique()}`;
  const first = `${word} first`;
  const second = `${word} second`;
  const creator = await verifiedMember(request, 'plmaker');
  const admin = await adminToken(request);
  const ids: string[] = [];
  for (const title of [first, second]) {
    const id = await uploadClip(request, creator.token, clip, { title, category: 'Beta' });
    await approve(request, admin, id);
    await waitUntilPublic(id);
    ids.push(id);
  }
  const [firstId, secondId] = ids as [string, string];

  // From the video page: a new playlist, with the video in it.
  const member = await verifiedMember(request, 'pllist');
  await logInThroughForm(page, member.email, member.password, `/video/${firstId}`);
  await page.locator('.watch-meta .save-playlist-button').click();
  const dialog = page.getByRole('dialog', { name: 'Save to playlist' });
  await expect(dialog.getByText('You have no playlists yet')).toBeVisible();
  const listTitle = `${word} mix </script >`;
  await dialog.getByLabel('New playlist').fill(listTitle);
  await dialog.getByRole('button', { name: 'Create and save' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Saved to the new playlist' })).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: new RegExp(word) })).toBeChecked();
  await shoot(page, 'save-dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // From a card: tick the playlist.
  await page.goto(`/search?q=${word}`);
  await page.getByRole('button', { name: `Save “${second}” to a playlist` }).click();
  const cardDialog = page.getByRole('dialog', { name: 'Save to playlist' });
  await cardDialog.getByRole('checkbox', { name: new RegExp(word) }).check();
  await expect(cardDialog.getByRole('status').filter({ hasText: 'Saved to' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(cardDialog).toBeHidden();
  await shoot(page, 'card-buttons');

  // /playlists, linked from the Watch later page and the account menu (in the mobile menu at 375 px): make it public.
  await page.goto('/watch-later');
  await expect(page.getByRole('link', { name: 'your playlists' })).toHaveAttribute('href', '/playlists');
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('link', { name: 'Playlists', exact: true }).locator('visible=true').click();
  await expect(page).toHaveURL(/\/playlists$/, { timeout: 20_000 });
  const row = page.getByRole('listitem').filter({ hasText: listTitle });
  await expect(row).toContainText('2 videos');
  await row.getByRole('combobox').selectOption('public');
  await expect(page.getByRole('status').filter({ hasText: 'is now public' })).toBeVisible();
  await expectNoSidewaysScroll(page, '/playlists');
  await shoot(page, 'my-playlists');

  // The playlist page: reorder.
  await row.getByRole('link', { name: listTitle }).click();
  await expect(page).toHaveURL(/\/playlist\/[A-Za-z0-9_-]{12}$/, { timeout: 20_000 });
  const playlistUrl = page.url();
  const items = page.getByRole('list', { name: `Videos in ${listTitle}` }).locator('.playlist-item-title');
  await expect(items).toHaveText([first, second]);
  await page.getByRole('button', { name: `Move “${second}” up` }).click();
  await expect(items).toHaveText([second, first]);
  await expect(page.getByRole('status').filter({ hasText: 'Moved' })).toBeVisible();
  await page.reload();
  await expect(items).toHaveText([second, first]);
  await expectNoSidewaysScroll(page, 'playlist page, owner');
  await shoot(page, 'playlist-owner');

  // A visitor: the server HTML carries the ItemList in the new order; the page plays all, in order.
  const html = await (await request.get(new URL(playlistUrl).pathname, { headers: visitor() })).text();
  const block = /<script type="application\/ld\+json" id="structured-data"[^>]*>([^<]*)<\/script>/.exec(html);
  const data = JSON.parse(block![1]!) as { '@type': string; name: string; itemListElement: { position: number; url: string }[] };
  expect(data['@type']).toBe('ItemList');
  expect(data.name).toBe(listTitle);
  expect(data.itemListElement.map((item) => [item.position, new URL(item.url).pathname])).toEqual([
    [1, `/video/${secondId}`],
    [2, `/video/${firstId}`],
  ]);
  // The title's closing script tag is inert text, never markup.
  expect(html).not.toContain('mix </script >');

  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
  const guest = await context.newPage();
  await guest.goto(playlistUrl);
  await expect(guest.getByRole('heading', { level: 1, name: listTitle })).toBeVisible();
  await expect(guest.getByRole('button', { name: `Move “${second}” up` })).toHaveCount(0);
  await expect(guest.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${new URL(playlistUrl).pathname}$`));
  await shoot(guest, 'playlist-visitor');
  await guest.getByRole('button', { name: 'Share' }).click();
  await expect(guest.getByRole('dialog', { name: 'Share this playlist' }).getByLabel('Link')).toHaveValue(playlistUrl);
  await guest.keyboard.press('Escape');

  await guest.getByRole('link', { name: 'Play all' }).click();
  await expect(guest).toHaveURL(new RegExp(`/video/${secondId}\\?list=`), { timeout: 20_000 });
  const queue = guest.getByRole('region', { name: listTitle });
  await expect(queue.locator('li[aria-current="true"]')).toHaveText(new RegExp(second));
  // The 2 s clip plays by itself, ends, and "Up next" counts down to the next one.
  const upNext = guest.getByRole('status').filter({ hasText: 'Up next in' });
  await expect(upNext).toContainText(first, { timeout: 30_000 });
  await shoot(guest, 'up-next');
  await expect(guest).toHaveURL(new RegExp(`/video/${firstId}\\?list=`), { timeout: 20_000 });
  await expect(guest.getByRole('region', { name: listTitle }).locator('li[aria-current="true"]')).toHaveText(new RegExp(first));
  // It starts playing on arrival, and the autoplay flag leaves the address.
  await expect
    .poll(() => guest.evaluate((id) => (document.getElementById(`player-${id}`) as HTMLVideoElement).paused, firstId))
    .toBe(false);
  expect(guest.url()).not.toContain('autoplay');
  await expectNoSidewaysScroll(guest, 'video page with its playlist');

  // Back on the first of the list: Cancel keeps the visitor where they are.
  await guest.getByRole('region', { name: listTitle }).getByRole('link', { name: second }).click();
  await expect(guest).toHaveURL(new RegExp(`/video/${secondId}\\?list=`), { timeout: 20_000 });
  await guest.evaluate((id) => void (document.getElementById(`player-${id}`) as HTMLVideoElement).play(), secondId);
  await expect(guest.getByRole('status').filter({ hasText: 'Up next in' })).toBeVisible({ timeout: 30_000 });
  await guest.getByRole('button', { name: 'Cancel' }).click();
  await expect(guest.getByRole('status').filter({ hasText: 'Up next in' })).toHaveCount(0);
  await guest.waitForTimeout(6_000);
  expect(guest.url()).toContain(`/video/${secondId}`);
  await context.close();
});

test('@mobile a private playlist is a 404 to a visitor and to the sitemap, and shown to its owner', async ({
  confirmedPage: page,
  request,
}) => {
  const member = await verifiedMember(request, 'plpriv');
  const made = await request.post('/api/playlists', {
    headers: { ...visitor(), Authorization: `Bearer ${member.token}` },
    data: { title: 'Just for me' },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  expect((await request.get(`/playlist/${id}`, { headers: visitor() })).status()).toBe(404);
  expect(await wholeSitemap()).not.toContain(`/playlist/${id}`);
  await logInThroughForm(page, member.email, member.password, `/playlist/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Just for me' })).toBeVisible();
  await expect(page.getByText('This playlist has no videos yet.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This page doesn’t exist' })).toBeHidden();
});
