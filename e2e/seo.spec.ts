import { wholeSitemap } from './api';
import { expect, POLICY_PAGES, test } from './fixtures';
import { ORIGIN } from '../scripts/lib/e2e-env';

async function structuredData(page: import('@playwright/test').Page) {
  const text = await page.locator('script[type="application/ld+json"]').first().textContent();
  return JSON.parse(text ?? 'null');
}

test.describe('metadata for crawlers and link previews', () => {
  for (const [path, title, type] of [
    ['/', 'Chrysalis', 'website'],
    ['/category/Sissy', 'Sissy Videos | Chrysalis', 'website'],
    ['/subscribe', 'Edge Trainer VIP | Chrysalis', 'website'],
    ...POLICY_PAGES.map(([p, t]) => [p, `${t} | Chrysalis`, 'article'] as const),
  ] as const) {
    test(`${path} has complete metadata in its server HTML`, async ({ request, page }) => {
      // What a crawler without JavaScript receives.
      const html = await (await request.get(path)).text();
      expect(html).toContain(`<title>${title.replace('&', '&amp;')}</title>`);

      await page.goto(path);
      const meta = (selector: string) => page.locator(selector).first().getAttribute('content');
      expect(await meta('meta[name="description"]')).toBeTruthy();
      expect(await meta('meta[name="keywords"]')).toContain('sissy');
      const absolute = (href: string | null) => new URL(href ?? '').href; // "https://x" and "https://x/" are the same URL
      expect(absolute(await page.locator('link[rel="canonical"]').getAttribute('href'))).toBe(`${ORIGIN}${path}`);
      // og:site_name names the site beside og:title, which does not repeat it.
      expect(await meta('meta[property="og:title"]')).toBe(title === 'Chrysalis' ? title : title.replace(/ \| Chrysalis$/, ''));
      expect(await meta('meta[property="og:locale"]')).toBe('en_US');
      expect(await meta('meta[property="og:type"]')).toBe(type);
      expect(absolute(await meta('meta[property="og:url"]'))).toBe(`${ORIGIN}${path}`);
      expect(await meta('meta[property="og:site_name"]')).toBe('Chrysalis');
      const image = await meta('meta[property="og:image"]');
      if (path === '/' || path.startsWith('/category/')) {
        // The list's own picture: 1200 × 630 from its thumbnails, keyed by what it shows.
        expect(image).toMatch(new RegExp(`^${ORIGIN}/preview-image\\?list=(home|category)&.*v=[0-9a-f]{16}$`));
        expect(await meta('meta[property="og:image:width"]')).toBe('1200');
        expect(await meta('meta[property="og:image:height"]')).toBe('630');
      } else expect(image).toBe(`${ORIGIN}/logo-512.png`);
      expect(await meta('meta[property="og:image:alt"]')).toBeTruthy();
      expect(await meta('meta[name="twitter:image:alt"]')).toBe(await meta('meta[property="og:image:alt"]'));
      expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
      const keywords = (await meta('meta[name="keywords"]'))!.split(',').map((k) => k.trim().toLowerCase());
      expect(new Set(keywords).size).toBe(keywords.length);
      expect(await meta('meta[name="rating"]')).toBe('adult');
      expect(await page.locator('meta[name="RATING"][content="RTA-5042-1996-1400-1577-RTA"]').count()).toBe(1);
      const data = await structuredData(page);
      expect(data['@type']).toBe(type === 'article' ? 'Article' : path.startsWith('/category/') ? 'CollectionPage' : 'WebSite');
    });
  }

  test('home has a WebSite SearchAction and the default description', async ({ page }) => {
    await page.goto('/');
    const data = await structuredData(page);
    expect(data.potentialAction.target.urlTemplate).toBe(`${ORIGIN}/search?q={search_term_string}`);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(
      /safe space for transformation and exploration/,
    );
  });

  test('home’s preview picture is a 1200 × 630 PNG kept under its key', async ({ request, page }) => {
    await page.goto('/');
    const url = (await page.locator('meta[property="og:image"]').getAttribute('content'))!;
    const response = await request.get(url);
    expect(response.headers()['content-type']).toBe('image/png');
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const png = await response.body();
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
  });

  test('the preview image is a real 512 px PNG', async ({ request }) => {
    const response = await request.get('/logo-512.png');
    expect(response.headers()['content-type']).toBe('image/png');
    const png = await response.body();
    expect(png.readUInt32BE(16)).toBe(512);
    expect(png.readUInt32BE(20)).toBe(512);
  });

  test('robots.txt points to sitemap.xml, which lists the public pages', async ({ request }) => {
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(robots).toMatch(/Disallow: \/api\//);
    expect(robots).not.toMatch(/^Host:/im);
    const sitemap = await wholeSitemap();
    for (const path of [
      '/',
      '/category/Sissy',
      '/category/Beta',
      '/category/Censor',
      '/subscribe',
      ...POLICY_PAGES.map(([p]) => p),
    ]) {
      expect(sitemap).toContain(`<loc>${ORIGIN}${path}</loc>`);
    }
  });

  test('public pages are served from the cache, not rendered per request', async ({ request }) => {
    for (const path of ['/', '/category/Sissy', '/community-standards']) {
      // Next serves the prerendered page; the server's page cache keeps the bytes for the next visitors.
      await expect.poll(async () => (await request.get(path)).headers()['x-chrysalis-cache']).toBe('HIT');
    }
    // Per-request pages and the API never come from it.
    for (const path of ['/search?q=cache', '/api/health']) {
      expect((await request.get(path)).headers()['x-chrysalis-cache']).toBeUndefined();
    }
  });
});

test('the server started on a migrated embedded database', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok' });
  expect(response.headers()['cache-control']).toBe('no-store');
  // Readiness: every migration applied, media storage writable, ffmpeg present, the in-process worker alive.
  const ready = await request.get('/api/ready');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({
    status: 'ready',
    checks: { migrations: { ok: true }, storage: { ok: true }, media_tools: { ok: true }, worker: { ok: true } },
  });
});

test('prerendered pages arrive whole: no loading fallback in their first HTML', async ({ request }) => {
  for (const path of ['/subscribe', '/community-standards', '/privacy-policy', '/terms-of-use']) {
    const html = await (await request.get(path)).text();
    expect(html, path).not.toContain('<template id="B:');
    expect(html, path).not.toMatch(/class="spinner-wrap"/);
  }
});

test('pages rendered per request carry their whole main content in the first HTML, without a spinner', async ({ request }) => {
  // Only the navbar's search box (it reads the URL's query) may stream in a moment later on these.
  for (const path of ['/', '/category/Sissy']) {
    const html = await (await request.get(path)).text();
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    expect(main, path).toContain('<h1');
    expect(main, path).not.toContain('<template id="B:');
    expect(html, path).not.toMatch(/class="spinner-wrap"/);
  }
});
