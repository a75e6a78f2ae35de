import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Locator } from '@playwright/test';

import {
  adminToken,
  approve,
  logInThroughForm,
  makeClip,
  unique,
  uploadClip,
  verifiedMember,
  waitUntilPublic,
  wholeSitemap,
} from './api';
import { expect, expectNoSidewaysScroll, reviewShot, test } from './fixtures';
import { ORIGIN } from '../scripts/lib/e2e-env';

let mediaDir: string;
let clip: Buffer;
test.beforeAll(() => {
  mediaDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-e2e-videos-'));
  clip = makeClip(mediaDir, 'clip.mp4', 3, '640x360');
});
test.afterAll(() => rmSync(mediaDir, { recursive: true, force: true }));

/** Controls are drawn over the video: the browser's own, or the player's once they have loaded (decision 047). */
const controlsShown = (video: Locator) =>
  video.evaluate(
    (element: HTMLVideoElement) => element.controls || element.closest('.player')?.getAttribute('data-chrome') === 'ready',
  );

test.describe('watching videos', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'desktop journey; the 375 px test is below');

  test('an approved video shows on home, in its category and in search, and plays on its own page', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const member = await verifiedMember(request, 'maker');
    const word = `orchid${unique()}`;
    const title = `Mirror practice ${word}`;
    const id = await uploadClip(request, member.token, clip, {
      title,
      description: `First line.\n<b>not bold</b> ${word}`,
      category: 'Sissy',
      tags: `${word}tag, practice`,
    });
    await approve(request, await adminToken(request), id);
    await waitUntilPublic(id);

    // Public pages are cached for a few seconds; a new video shows within 10 s.
    await expect(async () => {
      await page.goto('/');
      await expect(page.getByRole('list', { name: 'Recent uploads' }).getByRole('link', { name: title })).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 12_000 });
    const card = page.getByRole('list', { name: 'Recent uploads' }).getByRole('article').filter({ hasText: title });
    await expect(card.locator('img')).toHaveAttribute('src', `/media/videos/${id}/thumbnail.jpg`);
    // Browsers pick one of the WebP widths; the picture is lazy unless it is the first of the grid.
    const srcset = (await card.locator('img').getAttribute('srcset'))!;
    expect(srcset).toMatch(
      new RegExp(`^/media/videos/${id}/thumbnail-[0-9a-f]{16}-320\\.webp 320w, .+-480\\.webp 480w, .+-640\\.webp 640w$`),
    );
    await expect(card.locator('img')).toHaveAttribute('loading', 'lazy');
    const webp = await request.get(srcset.split(', ').at(-1)!.split(' ')[0]!);
    expect(webp.status()).toBe(200);
    expect(webp.headers()['content-type']).toBe('image/webp');
    expect(webp.headers()['cache-control']).toContain('immutable');
    await card.locator('img').scrollIntoViewIfNeeded();
    await expect.poll(() => card.locator('img').evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\.webp$/);
    await expect(card.getByText('0 views')).toBeVisible();
    await expect(card.getByLabel('0 likes')).toBeVisible();

    await page.goto('/category/Sissy');
    await expect(page.getByRole('link', { name: title })).toBeVisible();
    await page.goto(`/search?q=${encodeURIComponent(word.slice(0, -2))}`);
    await expect(page.getByRole('link', { name: title })).toBeVisible();

    await page.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(`/video/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('<b>not bold</b>', { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sissy', exact: true })).toHaveAttribute('href', '/category/Sissy');
    await expect(page.getByRole('link', { name: `#${word}tag` })).toHaveAttribute('href', `/tag/${word}tag`);
    await expect(page.getByRole('main').getByText(/seconds? ago|minutes? ago/)).toBeVisible();

    const video = page.getByLabel(`Video: ${title}`);
    // The poster is the widest WebP, preloaded: the page's largest picture.
    const poster = (await video.getAttribute('poster'))!;
    expect(poster).toMatch(new RegExp(`^/media/videos/${id}/thumbnail-[0-9a-f]{16}-640\\.webp$`));
    expect((await request.get(`/video/${id}`)).headers()['link']).toContain(
      `<${poster}>; rel=preload; as="image"; fetchpriority="high"`,
    );
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.5);

    // Crawlers and link previews get the video's metadata.
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'video.other');
    await expect(page.locator('meta[property="og:video"]')).toHaveAttribute('content', `${ORIGIN}/media/videos/${id}/web.mp4`);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'player');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${ORIGIN}/video/${id}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
    expect(jsonLd).toMatchObject({ '@type': 'VideoObject', name: title, embedUrl: `${ORIGIN}/embed/${id}`, duration: 'PT3S' });

    // Media answer byte ranges, as players seek.
    const range = await request.get(`/media/videos/${id}/web.mp4`, { headers: { Range: 'bytes=0-99' } });
    expect(range.status()).toBe(206);
    expect(range.headers()['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect((await range.body()).length).toBe(100);

    // The sitemap and the feed list it.
    const sitemap = await wholeSitemap();
    expect(sitemap).toContain(`<loc>${ORIGIN}/video/${id}</loc>`);
    // The uploader by name, with no link to the members-only profile.
    expect(sitemap).toContain(`<video:uploader>`);
    expect(sitemap).not.toContain('/profile/');
    const feed = await (await request.get('/feed.xml')).text();
    expect(feed).toContain(`<title>${title}</title>`);
    expect(feed).toContain('<media:rating scheme="urn:simple">adult</media:rating>');
  });

  test('a visitor who does not press play fetches no HLS; the first play moves to the adaptive stream', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(120_000);
    const member = await verifiedMember(request, 'ladder');
    const title = `Ladder ${unique()}`;
    const id = await uploadClip(request, member.token, clip, { title, category: 'Beta' });
    await approve(request, await adminToken(request), id);
    await waitUntilPublic(id);
    // The HLS ladder is made after the web MP4.
    await expect
      .poll(
        async () =>
          ((await (await request.get(`/api/videos/${id}`)).json()) as { video: { playback?: { hlsUrl?: string | null } } }).video
            .playback?.hlsUrl ?? null,
        { timeout: 60_000 },
      )
      .toMatch(/master\.m3u8$/);

    const hls: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes(`/media/videos/${id}/hls/`)) hls.push(sent.url());
    });
    await page.goto(`/video/${id}`);
    // The page has hydrated (its Share button waits for that, issue 37), PlayerEnhancer with it.
    await expect(page.getByRole('button', { name: 'Share', exact: true })).toBeEnabled();
    await page.waitForTimeout(1_500);
    expect(hls, 'no playlist or segment before the first play').toEqual([]);

    const video = page.getByLabel(`Video: ${title}`);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect.poll(() => hls.some((url) => url.endsWith('/hls/master.m3u8'))).toBe(true);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.5);
  });

  test('the player starts from the button over its poster, by pointer and by keyboard, before the page scripts arrive, and links to the MP4 without JavaScript', async ({
    confirmedPage: page,
    request,
    browser,
  }) => {
    test.setTimeout(90_000);
    const member = await verifiedMember(request, 'starter');
    // The title is written into the button's name, beside the inline script: markup in it stays text.
    const title = `Start "button" </script ><img src=x onerror=alert(1)> ${unique()}`;
    const id = await uploadClip(request, member.token, clip, { title, category: 'Beta' });
    await approve(request, await adminToken(request), id);
    await waitUntilPublic(id);

    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    // Until playback starts the browser's controls are not drawn (decision 035): the start button covers the poster.
    await page.goto(`/video/${id}`);
    const video = page.getByLabel(`Video: ${title}`);
    const start = page.getByRole('link', { name: `Play: ${title}` });
    await expect(start).toBeVisible();
    // The duration the controls would show, as on the cards, in the button's name too.
    await expect(start).toHaveText('0:03');
    await expect(start).toHaveAccessibleName(`Play: ${title} (0:03)`);
    expect(await page.locator('.player img, .player script').count()).toBe(0);
    expect(await video.evaluate((element: HTMLVideoElement) => element.controls)).toBe(false);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
    });
    await start.click();
    await expect(start).toBeHidden();
    await expect.poll(() => controlsShown(video)).toBe(true);
    await expect(video).toBeFocused();
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
    await expect(page).toHaveURL(`/video/${id}`);
    expect(alerts).toEqual([]);

    // By keyboard, with none of the page's script files: the inline script alone answers.
    const bare = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await bare.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
    await bare.route('**/_next/static/**/*.js', (route) => route.abort());
    const phone = await bare.newPage();
    await phone.goto(`/video/${id}`);
    const phoneVideo = phone.getByLabel(`Video: ${title}`);
    await phoneVideo.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
    });
    await reviewShot(phone, 'start-button');
    await phone.getByRole('link', { name: `Play: ${title}` }).focus();
    await phone.keyboard.press('Enter');
    await expect(phoneVideo).toBeFocused();
    await expect
      .poll(() => phoneVideo.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
    expect(await phoneVideo.evaluate((element: HTMLVideoElement) => element.controls)).toBe(true);
    await bare.close();

    // Playback started another way (a member's autoplay, a script) shows the controls as well.
    await page.goto(`/video/${id}`);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect(start).toBeHidden();
    await expect.poll(() => controlsShown(video)).toBe(true);

    // Without JavaScript the button is a plain link to the video file, which the browser plays itself.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`/video/${id}`);
    await expect(plain.getByRole('link', { name: `Play: ${title}` })).toHaveAttribute('href', `/media/videos/${id}/web.mp4`);
    await noScript.close();
  });

  test('the embed page asks for age confirmation, then plays', async ({ page, request }) => {
    test.setTimeout(90_000);
    const member = await verifiedMember(request, 'embedder');
    const title = `Embed me ${unique()}`;
    const id = await uploadClip(request, member.token, clip, { title, category: 'Beta' });
    await approve(request, await adminToken(request), id);
    await waitUntilPublic(id);

    const response = await page.goto(`/embed/${id}`);
    expect(response?.headers()['content-security-policy']).toContain('frame-ancestors *');
    expect(response?.headers()['x-frame-options']).toBeUndefined();
    await expect(page.getByRole('dialog', { name: 'Adults only (18+)' })).toBeVisible();
    await page.getByLabel(`Video: ${title}`).evaluate((element: HTMLVideoElement) => {
      element.muted = true;
    });
    await page.getByRole('button', { name: 'I am 18 or older — play' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect
      .poll(() => page.getByLabel(`Video: ${title}`).evaluate((element: HTMLVideoElement) => element.currentTime), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0.3);
    expect((await request.get('/embed/unknown-video')).status()).toBe(404);
  });

  test('an unpublished video is a 404 to visitors and a preview for its owner', async ({
    confirmedPage: page,
    request,
    browser,
  }) => {
    test.setTimeout(90_000);
    const member = await verifiedMember(request, 'previewer');
    const title = `Waiting for review ${unique()}`;
    const id = await uploadClip(request, member.token, clip, { title, category: 'Censor' });

    const visitor = await browser.newPage();
    await visitor.addInitScript(() => window.sessionStorage.setItem('chrysalis.ageConfirmed', 'true'));
    const answer = await visitor.goto(`/video/${id}`);
    expect(answer?.status()).toBe(404);
    await expect(visitor.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeVisible();
    await visitor.close();

    await logInThroughForm(page, member.email, member.password);
    await page.goto(`/video/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Preview.' })).toContainText(/waiting for review|Processing/);
    // The preview takes the 404's place: one page, one heading.
    await expect(page.getByRole('heading', { level: 1, name: 'This page doesn’t exist' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await expectNoSidewaysScroll(page, `owner preview at ${width} px`);
      await reviewShot(page, 'owner-preview', { fullPage: true });
    }
  });

  test('Recent Uploads loads the next page when the last card is visible, and keeps the list in the local cache', async ({
    confirmedPage: page,
    request,
  }) => {
    test.setTimeout(180_000);
    const member = await verifiedMember(request, 'prolific');
    const admin = await adminToken(request);
    const ids: string[] = [];
    for (let i = 0; i < 13; i += 1) {
      const id = await uploadClip(request, member.token, clip, { title: `Scroll clip ${i} ${unique()}`, category: 'Beta' });
      await approve(request, admin, id);
      ids.push(id);
    }
    for (const id of ids) await waitUntilPublic(id);

    // Every element taken out of the page once it is parsed: hydrating the feed must not draw its cards anew.
    await page.addInitScript(() => {
      const removed: string[] = ((window as unknown as { removedElements: string[] }).removedElements = []);
      document.addEventListener('DOMContentLoaded', () =>
        new MutationObserver((changes) => {
          for (const change of changes)
            for (const node of change.removedNodes)
              if (node instanceof Element) removed.push(`${node.tagName.toLowerCase()}.${node.className}`);
        }).observe(document.querySelector('main')!, { childList: true, subtree: true }),
      );
    });
    await expect(async () => {
      await page.goto('/');
      await expect(page.getByRole('list', { name: 'Recent uploads' }).getByRole('listitem')).toHaveCount(12, { timeout: 1_000 });
    }).toPass({ timeout: 12_000 });
    // The feed hydrates the server's cards in place: once a card's button is enabled, the page has hydrated.
    await expect(
      page
        .getByRole('list', { name: 'Recent uploads' })
        .getByRole('button', { name: /Watch later/ })
        .first(),
    ).toBeEnabled();
    expect(await page.evaluate(() => (window as unknown as { removedElements: string[] }).removedElements)).toEqual([]);
    const recent = page.getByRole('list', { name: 'Recent uploads' });
    await recent.getByRole('listitem').last().scrollIntoViewIfNeeded();
    await expect.poll(() => recent.getByRole('listitem').count()).toBeGreaterThan(12);

    const cached = await page.evaluate(() => JSON.parse(window.localStorage.getItem('chrysalis.videoCache.recent') ?? 'null'));
    expect(cached.videos.length).toBeGreaterThan(12);
    expect(Date.now() - cached.timestamp).toBeLessThan(60_000);
    expect(cached.videos[0]).toEqual(
      expect.objectContaining({
        _id: expect.any(String),
        streamVideoId: expect.any(String),
        title: expect.any(String),
        views: expect.any(Number),
        likedBy: expect.any(Array),
      }),
    );
  });
});

test('@mobile-only a video page fits a 375 px screen', async ({ confirmedPage: page, request }) => {
  test.setTimeout(90_000);
  const member = await verifiedMember(request, 'phone');
  const title = `A rather long title that needs to wrap on a small phone screen ${unique()}`;
  const id = await uploadClip(request, member.token, clip, {
    title,
    description: 'x'.repeat(300),
    category: 'Sissy',
    tags: 'one, two, three, four, five',
  });
  await approve(request, await adminToken(request), id);
  await waitUntilPublic(id);
  await page.goto(`/video/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expectNoSidewaysScroll(page, 'video page');
  await page.goto('/');
  await expectNoSidewaysScroll(page, 'home with videos');
});
