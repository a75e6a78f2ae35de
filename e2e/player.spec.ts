import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import {
  adminToken,
  approve,
  BASE_URL,
  logInThroughForm,
  makeClip,
  unique,
  uploadClip,
  verifiedMember,
  waitUntilPublic,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { STORAGE_INVENTORY } from '../lib/storage-inventory';

/**
 * The player (decision 047): media-chrome's controls over the native <video>, loaded at the first sign of intent,
 * with the keyboard and touch of the big sites. The start button itself is tested in videos.spec.ts.
 */

let mediaDir: string;
let clip: Buffer;
let streamVideoId: string;
let title: string;
/** A word only this video's title has: its search results hold its card alone. */
let word: string;
/** The video's owner, who adds its captions. */
let owner: { email: string; password: string; token: string };

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-player-'));
  // Long enough for the seek keys to move within it (j/l are ten seconds) and for an HLS ladder of two rungs.
  clip = makeClip(mediaDir, 'clip.mp4', 24, '1280x720');
  const member = await verifiedMember(request, 'player');
  owner = member;
  word = `pv${unique()}`;
  title = `Player </script ><b>keys</b> ${word}`;
  streamVideoId = await uploadClip(request, member.token, clip, { title, category: 'Sissy', tags: `e2e, ${word}` });
  await approve(request, await adminToken(request), streamVideoId);
  await waitUntilPublic(streamVideoId);
  // The HLS ladder (the quality menu's rungs) is made after the web MP4, and the storyboard and the cards' clip with it.
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/videos/${streamVideoId}`)).json()) as {
          video: { playback?: { hlsUrl?: string | null }; previewsVersion?: string | null };
        };
        return body.video.playback?.hlsUrl && body.video.previewsVersion ? body.video.playback.hlsUrl : null;
      },
      { timeout: 90_000 },
    )
    .toMatch(/master\.m3u8$/);
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

const video = (page: Page) => page.getByLabel(`Video: ${title}`);
const currentTime = (page: Page) => video(page).evaluate((element: HTMLVideoElement) => element.currentTime);

/** Opens the video page and starts playback (muted: headless Chromium's autoplay rules) with the start button. */
async function startPlaying(page: Page): Promise<void> {
  await page.goto(`/video/${streamVideoId}`);
  await video(page).evaluate((element: HTMLVideoElement) => {
    element.muted = true;
  });
  await page.getByRole('link', { name: `Play: ${title}` }).click();
  // The pointer over the start button loaded the controls; they replace the browser's own.
  await expect(page.locator('.player')).toHaveAttribute('data-chrome', 'ready');
  await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.controls)).toBe(false);
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.3);
}

test.describe('the player', () => {
  test('its controls have names, and the keyboard works as on the big sites', async ({ confirmedPage: page }) => {
    test.setTimeout(90_000);
    // No controls' code for a visitor who only reads the page.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`/video/${streamVideoId}`);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.player')).not.toHaveAttribute('data-chrome', 'ready');
    const beforeIntent = scripts.length;

    await startPlaying(page);
    expect(scripts.length).toBeGreaterThan(beforeIntent);
    const player = page.locator('.player');
    for (const name of ['pause', 'unmute', 'settings', 'enter picture in picture mode', 'enter fullscreen mode']) {
      await expect(player.getByRole('button', { name, exact: true })).toBeVisible();
    }
    await expect(player.getByRole('slider', { name: 'seek' })).toBeVisible();
    await expect(player.getByRole('slider', { name: 'volume' })).toBeVisible();
    await reviewShot(page, 'playing');

    // The start button left the focus on the video: the keys go to the player.
    await expect(video(page)).toBeFocused();
    await page.keyboard.press('k');
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
    await expect(player.getByRole('button', { name: 'play', exact: true })).toBeVisible();

    // Each key's seek has landed when the video and the controls (media-chrome's state, which its own keys read) agree.
    const shownTime = () =>
      player.locator('media-time-range').evaluate((element) => Number(element.getAttribute('mediacurrenttime')));
    const seekBy = async (key: string, expected: number) => {
      await page.keyboard.press(key);
      await expect.poll(() => currentTime(page)).toBeCloseTo(expected, 0);
      await expect.poll(shownTime).toBeCloseTo(expected, 0);
    };
    await seekBy('5', 12); // 0–9: that tenth of the video
    await seekBy('l', 22); // l: ten seconds on
    await seekBy('j', 12); // j: ten seconds back
    await seekBy('ArrowLeft', 7); // ←: five seconds back
    await seekBy('ArrowRight', 12); // →: five seconds on
    await seekBy('0', 0);

    await page.keyboard.press('m');
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.muted)).toBe(false);
    await page.keyboard.press('m');
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
    await page.keyboard.press('>');
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.25);
    await page.keyboard.press('k');
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
  });

  test('the settings menu sets the speed and the quality, and the volume is remembered', async ({ confirmedPage: page }) => {
    test.setTimeout(90_000);
    await startPlaying(page);
    const player = page.locator('.player');

    await player.getByRole('button', { name: 'settings', exact: true }).click();
    await player.getByRole('menuitem', { name: /Speed/ }).click();
    await player.getByRole('menuitemradio', { name: '2x' }).click();
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(2);
    // The menu stays open on the choice, as YouTube's does; Escape closes it.
    const menu = player.locator('media-settings-menu');
    await expect(async () => {
      if (await menu.isVisible()) await page.keyboard.press('Escape');
      await expect(menu).toBeHidden({ timeout: 1_000 });
    }).toPass();

    // Quality: Auto and each rung of the HLS ladder, once hls.js has taken over from the MP4.
    await expect
      .poll(() => video(page).evaluate((element: HTMLVideoElement) => element.currentSrc.startsWith('blob:')), {
        timeout: 20_000,
      })
      .toBe(true);
    await player.getByRole('button', { name: 'settings', exact: true }).click();
    await player.getByRole('menuitem', { name: /Quality/ }).click();
    await expect(player.getByRole('menuitemradio', { name: /Auto/ })).toBeVisible();
    const lowest = player.getByRole('menuitemradio', { name: '240p', exact: true });
    // The menu redraws its items as Auto's label follows hls.js's choice: a click waiting for a still item can miss.
    await lowest.dispatchEvent('click');
    await expect
      .poll(() =>
        video(page).evaluate(
          (element) =>
            (element as HTMLVideoElement & { videoRenditions: { selectedIndex: number } }).videoRenditions.selectedIndex,
        ),
      )
      .toBe(0);
    await reviewShot(page, 'quality-chosen');

    // The volume a viewer sets is the next video's too.
    await video(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const volume = await video(page).evaluate((element: HTMLVideoElement) => element.volume);
    expect(volume).toBeLessThan(1);
    await startPlaying(page);
    await expect.poll(() => video(page).evaluate((element: HTMLVideoElement) => element.volume)).toBeCloseTo(volume, 2);
    // What it keeps in the browser is in the cookie policy.
    const stored = await page.evaluate(() => Object.keys(window.localStorage));
    expect(stored).toContain('media-chrome-pref-volume');
    for (const name of stored) {
      const listed = STORAGE_INVENTORY.some((entry) => (entry.isPrefix ? name.startsWith(entry.name) : name === entry.name));
      expect(listed, `${name} is not in the cookie policy`).toBe(true);
    }
  });
});

test.describe('captions', () => {
  // A SubRip file as subtitle editors write them, with markup that must never run on the page.
  const SRT = [
    '1',
    '00:00:00,000 --> 00:00:23,000',
    'Hello </script ><script>window.captionsRan = true</script><img src=x onerror="window.captionsRan = true"> <b>friend</b>',
    '',
  ].join('\r\n');

  test('the owner adds captions on the edit form; viewers turn them on, and their markup never runs', async ({
    confirmedPage: page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await logInThroughForm(page, owner.email, owner.password, `/video/${streamVideoId}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await expect(dialog.getByText('No captions yet.')).toBeVisible();
    // Not a captions file: the form says what to do.
    await dialog
      .getByLabel('Captions file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just notes') });
    await dialog.getByRole('button', { name: 'Add captions' }).click();
    await expect(dialog.getByText(/This is not a WebVTT \(\.vtt\) or SubRip \(\.srt\) file/)).toBeVisible();

    await dialog.getByLabel('Language').selectOption('en');
    await dialog
      .getByLabel('Captions file')
      .setInputFiles({ name: 'captions.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT) });
    await dialog.getByRole('button', { name: 'Add captions' }).click();
    await expect(dialog.getByText('English captions added: 1 caption.')).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Captions of this video' }).getByText('English')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Replace English captions' })).toBeVisible();
    // A second language, then removed on the same form.
    await dialog.getByLabel('Language').selectOption('es');
    await dialog
      .getByLabel('Captions file')
      .setInputFiles({ name: 'es.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT) });
    await dialog.getByRole('button', { name: 'Add captions' }).click();
    await expect(dialog.getByText('Español captions added: 1 caption.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Remove Español captions' }).click();
    await expect(dialog.getByText('Español captions removed.')).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Captions of this video' }).getByRole('listitem')).toHaveCount(1);
    await reviewShot(page, 'captions-editor', { widths: [1280, 375] });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The page (purged from the cache) now offers the track; c turns it on, as on YouTube.
    // Someone else watches, in their own browser (the owner's keeps the page it had for up to a minute,
    // stale-while-revalidate). It plays on (the cue lasts 23 of its 24 s) so that hls.js takes over meanwhile.
    const viewerPage = async () => {
      const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 } });
      await context.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
      return context.newPage();
    };
    const viewer = await viewerPage();
    await startPlaying(viewer);
    const player = viewer.locator('.player');
    await expect(player.getByRole('button', { name: 'closed captions', exact: true })).toBeVisible();
    await video(viewer).focus();
    await viewer.keyboard.press('c');
    await expect(player.locator('media-captions-button')).toHaveAttribute('mediasubtitlesshowing', /en/);
    const cue = () =>
      video(viewer).evaluate((element: HTMLVideoElement) => {
        const track = [...element.textTracks].find((candidate) => candidate.kind === 'subtitles');
        const active = track?.activeCues?.[0] as VTTCue | undefined;
        return active ? { mode: track!.mode, text: active.text, shown: active.getCueAsHTML().textContent } : null;
      });
    await expect.poll(cue).toEqual({
      mode: 'showing',
      text: 'Hello window.captionsRan = true <b>friend</b>',
      shown: 'Hello window.captionsRan = true friend',
    });
    expect(await viewer.evaluate(() => (window as unknown as { captionsRan?: boolean }).captionsRan)).toBeUndefined();
    // hls.js taking over from the MP4 leaves the viewer's track on.
    await expect
      .poll(() => video(viewer).evaluate((element: HTMLVideoElement) => element.currentSrc.startsWith('blob:')), {
        timeout: 20_000,
      })
      .toBe(true);
    await expect.poll(async () => (await cue())?.mode).toBe('showing');
    await viewer.keyboard.press('k');
    // The settings menu lists it too.
    await player.getByRole('button', { name: 'settings', exact: true }).click();
    await player.getByRole('menuitem', { name: /Captions/ }).click();
    await expect(player.getByRole('menuitemradio', { name: 'English' })).toBeVisible();
    await reviewShot(player, 'captions-on', { widths: [1280, 375] });
    await viewer.keyboard.press('Escape');

    // Removed (the form's Remove calls this): the page has no track again.
    const removed = await page.request.delete(`/api/videos/${streamVideoId}/captions/en`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(removed.status()).toBe(200);
    const later = await viewerPage();
    await later.goto(`/video/${streamVideoId}`);
    await expect(later.locator('.player track[kind="subtitles"]')).toHaveCount(0);
    await viewer.context().close();
    await later.context().close();
  });
});

test.describe('previews', () => {
  test('hovering the seek bar shows the storyboard’s frame for that time', async ({ confirmedPage: page }) => {
    test.setTimeout(90_000);
    await startPlaying(page);
    await page.keyboard.press('k');
    const seekBar = page.locator('.player media-time-range');
    const box = (await seekBar.boundingBox())!;
    // Three quarters along a 24 s video is about 18 s: one of the sprite's tiles (a frame every 2 s, ten to a row).
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    await expect(seekBar).toHaveAttribute('mediapreviewimage', /\/storyboard-[0-9a-f]{16}\.jpg#xywh=\d+,\d+,160,90$/);
    const image = (await seekBar.getAttribute('mediapreviewimage'))!;
    const [x, y] = image.split('#xywh=')[1]!.split(',').map(Number);
    const tile = (y! / 90) * 10 + x! / 160;
    expect(tile).toBeGreaterThanOrEqual(7);
    expect(tile).toBeLessThanOrEqual(10);
    const sprite = await page.request.get(image.split('#')[0]!);
    expect(sprite.status()).toBe(200);
    expect(sprite.headers()['content-type']).toBe('image/jpeg');
    await reviewShot(page, 'seek-preview');
  });

  test('a card plays its clip while the mouse rests on it, and not for reduced motion', async ({ confirmedPage: page }) => {
    test.setTimeout(60_000);
    const clips: string[] = [];
    page.on('request', (request) => {
      if (/\/preview-[0-9a-f]{16}\.mp4/.test(request.url())) clips.push(request.url());
    });
    await page.goto(`/search?q=${word}`);
    const thumb = page.getByRole('link', { name: new RegExp(word) }).locator('.video-thumb');
    await expect(thumb).toHaveAttribute(
      'data-preview',
      new RegExp(`^/media/videos/${streamVideoId}/preview-[0-9a-f]{16}\\.mp4$`),
    );
    await page.waitForLoadState('networkidle');
    // Nothing of it is fetched before a viewer asks.
    expect(clips).toEqual([]);
    await thumb.hover();
    const preview = thumb.locator('video.video-thumb-preview');
    await expect(thumb).toHaveAttribute('data-previewing', 'playing');
    await expect.poll(() => preview.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.2);
    expect(await preview.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
    expect(clips.length).toBeGreaterThan(0);
    await reviewShot(page, 'card-preview');
    // Moving away puts the thumbnail back.
    await page.mouse.move(1, 1);
    await expect(preview).toHaveCount(0);
    await expect(thumb).not.toHaveAttribute('data-previewing');

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await page
      .getByRole('link', { name: new RegExp(word) })
      .locator('.video-thumb')
      .hover();
    await page.waitForTimeout(1_000);
    await expect(page.locator('video.video-thumb-preview')).toHaveCount(0);
  });
});

test.describe('tag pages', () => {
  test('a tag on the video page opens its page, in one spelling, with the orders of a category', async ({
    confirmedPage: page,
    request,
  }) => {
    await page.goto(`/video/${streamVideoId}`);
    await page.getByRole('link', { name: `#${word}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/tag/${word}$`));
    await expect(page.getByRole('heading', { level: 1, name: `#${word}` })).toBeVisible();
    await expect(page).toHaveTitle(`#${word} Videos | Chrysalis`);
    await expect(page.getByRole('link', { name: new RegExp(word) }).locator('.video-thumb')).toBeVisible();
    await page.getByRole('link', { name: 'Most viewed' }).click();
    await expect(page).toHaveURL(new RegExp(`/tag/${word}\\?sort=views$`));
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/tag/${word}$`));
    await expect(page.getByRole('link', { name: new RegExp(word) }).locator('.video-thumb')).toBeVisible();
    await reviewShot(page, 'tag-page', { widths: [1280, 375] });

    // Another spelling is sent to the one URL, with its order; a tag no public video has is a 404.
    const upper = await request.get(`/tag/%23${word.toUpperCase()}?sort=views`, { maxRedirects: 0 });
    expect(upper.status()).toBe(308);
    expect(upper.headers().location).toMatch(new RegExp(`/tag/${word}\\?sort=views$`));
    expect((await request.get(`/tag/no-video-has-${word}`)).status()).toBe(404);
    // Hostile names: a NUL byte, a closing script tag, 2,000 emoji (a 24 KB URL, which Node refuses with 431 before
    // the app sees it). Each is refused and echoes nothing.
    for (const name of ['a%00b', encodeURIComponent('</script ><b>x'), encodeURIComponent('🦋'.repeat(2000))]) {
      const answer = await request.get(`/tag/${name}`, { maxRedirects: 0 });
      expect(name.length > 8000 ? [404, 431] : [404], name.slice(0, 40)).toContain(answer.status());
      expect(await answer.text()).not.toMatch(/<\/script ><b>x|\u0000|🦋🦋/);
    }
    // One structured-data block, as on every page (e2e/structured-data.spec.ts).
    const html = await (await request.get(`/tag/${word}`)).text();
    expect(html.match(/<script type="application\/ld\+json" id="structured-data"/g)).toHaveLength(1);
    expect(html).toContain(`<link rel="canonical" href="${BASE_URL}/tag/${word}"/>`);
    // A CollectionPage listing the tag's video, not a second WebSite.
    const data = JSON.parse(/id="structured-data"[^>]*>([^<]*)</.exec(html)![1]!);
    expect(data).toMatchObject({ '@type': 'CollectionPage', name: `#${word} Videos`, url: `${BASE_URL}/tag/${word}` });
    expect(data.mainEntity.itemListElement).toEqual([
      expect.objectContaining({
        '@type': 'ListItem',
        position: 1,
        url: expect.stringMatching(new RegExp(`^${BASE_URL}/video/`)),
      }),
    ]);
  });
});

test.describe('the player on a phone @mobile-only', () => {
  test.use({ hasTouch: true });

  test('a double tap on either side seeks ten seconds, and the controls fit 375 px', async ({ confirmedPage: page }) => {
    test.setTimeout(90_000);
    await startPlaying(page);
    await page.keyboard.press('k');
    await page.keyboard.press('5');
    await expect.poll(() => currentTime(page)).toBeCloseTo(12, 0);
    const box = (await page.locator('.player').boundingBox())!;
    const tapTwice = async (x: number) => {
      await page.touchscreen.tap(box.x + x, box.y + box.height / 3);
      await page.touchscreen.tap(box.x + x, box.y + box.height / 3);
    };
    await tapTwice(box.width * 0.85);
    await expect.poll(() => currentTime(page)).toBeCloseTo(22, 0);
    await expect(page.getByRole('status').filter({ hasText: '+ 10 s' })).toBeAttached();
    await tapTwice(box.width * 0.15);
    await expect.poll(() => currentTime(page)).toBeCloseTo(12, 0);
    await expectNoSidewaysScroll(page);
    await reviewShot(page, 'phone-playing');
  });

  test('a touch held on a card plays its clip, and the next tap opens the video', async ({ confirmedPage: page }) => {
    test.setTimeout(60_000);
    await page.goto(`/search?q=${word}`);
    const link = page.getByRole('link', { name: new RegExp(word) });
    const thumb = link.locator('.video-thumb');
    await expect(thumb).toHaveAttribute('data-preview', /preview-/);
    await page.waitForLoadState('networkidle');
    const box = (await thumb.boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // Playwright taps only; a hold is a touch start and, 700 ms later, its end (Chrome DevTools Protocol).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await page.waitForTimeout(700);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(thumb).toHaveAttribute('data-previewing', 'playing');
    await expect(page).toHaveURL(/\/search\?q=/);
    await reviewShot(page, 'phone-card-preview');
    await page.touchscreen.tap(point.x, point.y);
    await expect(page).toHaveURL(new RegExp(`/video/${streamVideoId}$`));
  });
});
