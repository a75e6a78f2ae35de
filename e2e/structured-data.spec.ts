import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import type { APIRequestContext } from '@playwright/test';

import { adminToken, visitor } from './api';
import { expect, POLICY_PAGES, test } from './fixtures';
import { ORIGIN } from '../scripts/lib/e2e-env';

/**
 * Spec section 1: "Page metadata on every page: … and a structured-data
 * block". Every page under app/ is listed here (the test fails for a page
 * file it does not know), fetched as a crawler or the member who may see it,
 * and must carry exactly one parsable schema.org block in its server HTML.
 */
const STATIC_PAGES: Record<string, string> = {
  '/': 'WebSite',
  '/category/Sissy': 'CollectionPage',
  '/category/Beta': 'CollectionPage',
  '/category/Censor': 'CollectionPage',
  '/search': 'WebSite',
  '/search?q=orchid': 'WebSite',
  '/subscribe': 'WebSite',
  '/login': 'WebSite',
  '/register': 'WebSite',
  '/forgot-password': 'WebSite',
  '/reset-password?token=not-a-token': 'WebSite',
  '/email-verified': 'WebSite',
  '/email-verification-failed': 'WebSite',
  '/account-deleted': 'WebSite',
  '/withdraw-consent': 'WebSite',
  '/report-content': 'WebSite',
  '/copyright/notice': 'WebSite',
  '/copyright/counter-notice': 'WebSite',
  '/copyright/lawsuit?token=not-a-token': 'WebSite',
  '/transparency': 'Article',
  ...Object.fromEntries(POLICY_PAGES.map(([p]) => [p, 'Article'])),
};

const MEMBER_PAGES: Record<string, string> = {
  '/upload': 'WebSite',
  '/verify': 'WebSite',
  '/upload/performers/not-a-video': 'WebSite',
  '/liked-videos': 'WebSite',
  '/watch-later': 'WebSite',
  '/history': 'WebSite',
  '/playlists': 'WebSite',
  '/settings': 'WebSite',
  '/settings/security': 'WebSite',
  '/notifications': 'WebSite',
  '/following': 'WebSite',
  '/profile/e2e_admin': 'WebSite',
  '/admin': 'WebSite',
  '/admin/moderation': 'WebSite',
  '/admin/moderation/edits': 'WebSite',
  '/admin/reports': 'WebSite',
  '/admin/appeals': 'WebSite',
  '/decisions': 'WebSite',
  '/admin/members': 'WebSite',
  '/admin/payments': 'WebSite',
  '/admin/audit': 'WebSite',
  '/admin/tasks': 'WebSite',
  '/admin/verifications': 'WebSite',
  '/admin/jobs': 'WebSite',
};

/** Every page file under app/, as a route pattern ("/video/[streamVideoId]"). */
function pageRoutes(dir = path.join(process.cwd(), 'app'), prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'api' ? [] : pageRoutes(full, `${prefix}/${name}`);
    return name === 'page.tsx' ? [prefix || '/'] : [];
  });
}

async function blocksOf(request: APIRequestContext, pagePath: string, headers: Record<string, string>) {
  const response = await request.get(pagePath, { headers, maxRedirects: 0 });
  expect(response.status(), pagePath).toBeLessThan(500);
  expect(response.status(), `${pagePath} must render, not redirect`).not.toBe(307);
  const html = await response.text();
  return [...html.matchAll(/<script type="application\/ld\+json" id="structured-data"[^>]*>([^<]*)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

test.describe('a structured-data block on every page', () => {
  test('every page file is covered by this list', () => {
    const covered = new Set([
      ...Object.keys(STATIC_PAGES).map((p) => p.split('?')[0]!),
      ...Object.keys(MEMBER_PAGES),
      '/[...missing]',
      '/no-such-page-anywhere',
      '/category/[category]',
      '/video/[streamVideoId]',
      '/profile/[username]',
      '/admin/members/[id]',
      '/upload/performers/[streamVideoId]',
      '/decisions/[id]',
      // Needs a submission to exist: e2e/verification.spec.ts opens one.
      '/admin/verifications/[id]',
      // Needs a public video with the tag: e2e/player.spec.ts opens one.
      '/tag/[tag]',
      // Needs a public playlist: e2e/playlists.spec.ts opens one (ItemList).
      '/playlist/[playlistId]',
    ]);
    const missing = pageRoutes().filter(
      (route) => !covered.has(route) && !route.startsWith('/category/') && !route.startsWith('/profile/'),
    );
    expect(missing).toEqual([]);
  });

  test('public pages, as a crawler sees them', async ({ request }) => {
    for (const [pagePath, type] of Object.entries(STATIC_PAGES)) {
      const blocks = await blocksOf(request, pagePath, visitor());
      expect(blocks, pagePath).toHaveLength(1);
      expect(blocks[0]!['@type'], pagePath).toBe(type);
      expect(blocks[0]!['@context'], pagePath).toBe('https://schema.org');
    }
    const { videos } = (await (await request.get('/api/videos?limit=1')).json()) as { videos: { streamVideoId: string }[] };
    // A category is a CollectionPage of the videos it lists, in order, by their pages' addresses (other tests add
    // videos meanwhile, so the list itself is not compared with the API's).
    const [collection] = await blocksOf(request, '/category/Sissy', visitor());
    const list = collection!.mainEntity as { '@type': string; numberOfItems: number; itemListElement: Record<string, unknown>[] };
    expect(list['@type']).toBe('ItemList');
    expect(list.numberOfItems).toBe(list.itemListElement.length);
    expect(list.itemListElement.length).toBeLessThanOrEqual(24);
    list.itemListElement.forEach((item, index) => {
      expect(item).toMatchObject({ '@type': 'ListItem', position: index + 1 });
      expect(item.url).toMatch(new RegExp(`^${ORIGIN}/video/[A-Za-z0-9_-]+$`));
    });
    if (videos[0]) {
      const blocks = await blocksOf(request, `/video/${videos[0].streamVideoId}`, visitor());
      expect(blocks.map((block) => block['@type'])).toEqual(['VideoObject']);
    }
  });

  test('the 404 page, once rendered (Next streams a missing page from its error shell, so its body is not in the first HTML)', async ({
    confirmedPage: page,
  }) => {
    const response = await page.goto('/no-such-page-anywhere');
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This page doesn’t exist' })).toBeVisible();
    const blocks = page.locator('script[type="application/ld+json"]#structured-data');
    await expect(blocks).toHaveCount(1);
    expect(JSON.parse((await blocks.textContent())!)['@type']).toBe('WebSite');
  });

  test('member and admin pages, as the admin sees them', async ({ request }) => {
    const token = await adminToken(request);
    const cookie = { ...visitor(), Cookie: `chrysalis_session=${token}` };
    const me = (await (await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      user: { _id: string };
    };
    for (const [pagePath, type] of Object.entries({ ...MEMBER_PAGES, [`/admin/members/${me.user._id}`]: 'WebSite' })) {
      const blocks = await blocksOf(request, pagePath, cookie);
      expect(blocks, pagePath).toHaveLength(1);
      expect(blocks[0]!['@type'], pagePath).toBe(type);
    }
  });
});
