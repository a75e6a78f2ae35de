import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { installDatabase } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';
import { listPublicTags, listTagVideos } from '@/lib/server/videos/catalog';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { sitemapEntries } from '../helpers/sitemap';
import { insertVideo, userId } from '../helpers/videos';

/*
 * Tag pages (issue 35, part 7): the public videos carrying a tag, in the category pages' orders and
 * length filters, and every tag with public videos in the sitemap under its one canonical URL.
 */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-tags-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('tag pages on %s', (engine) => {
  let database: TestDatabase;
  let owner: string;
  let banned: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, `tags_${engine}`);
    await verifiedMemberToken(database.db, `tags_banned_${engine}`);
    // Its videos stay hidden while the owner is banned (the flag the ban sets on each of them).
    owner = await userId(database.db, `tags_${engine}`);
    banned = await userId(database.db, `tags_banned_${engine}`);
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes));
    await insertVideo(database.db, owner, {
      title: 'Short maid',
      tags: ['maid', 'pink'],
      views: 5,
      durationSeconds: 60,
      publishedAt: at(1),
    });
    await insertVideo(database.db, owner, {
      title: 'Long maid',
      tags: ['maid'],
      views: 50,
      durationSeconds: 1500,
      publishedAt: at(2),
    });
    await insertVideo(database.db, owner, {
      title: 'Newest maid',
      tags: ['pink', 'maid'],
      views: 1,
      durationSeconds: 400,
      publishedAt: at(3),
    });
    await insertVideo(database.db, owner, {
      title: 'Pending maid',
      tags: ['maid'],
      moderationStatus: 'pending',
      publishedAt: null,
    });
    await insertVideo(database.db, banned, { title: 'Hidden', tags: ['maid'], publishedAt: at(5), ownerBanned: true });
    await insertVideo(database.db, owner, { title: 'Not a maid', tags: ['maiden'], publishedAt: at(6) });
  }, 120_000);
  afterAll(() => database.destroy());

  const titles = async (...args: Parameters<typeof listTagVideos>) => (await listTagVideos(...args)).videos.map((v) => v.title);

  it('lists the public videos carrying exactly that tag, newest first, in pages', async () => {
    expect(await titles('maid', { limit: 10 })).toEqual(['Newest maid', 'Long maid', 'Short maid']);
    const first = await listTagVideos('maid', { limit: 2 });
    expect(first.pagination.hasMore).toBe(true);
    expect(await titles('maid', { limit: 2, page: 2 })).toEqual(['Short maid']);
    expect(await titles('maid', { limit: 2, cursor: first.pagination.nextCursor })).toEqual(['Short maid']);
    expect(await titles('nobody-uses-this', { limit: 10 })).toEqual([]);
  });

  it('sorts and filters by length like a category', async () => {
    expect((await titles('maid', { limit: 10 }, { sort: 'views' }))[0]).toBe('Long maid');
    expect(await titles('maid', { limit: 10 }, { sort: 'longest' })).toEqual(
      expect.arrayContaining(['Long maid', 'Newest maid', 'Short maid']),
    );
    expect((await titles('maid', { limit: 10 }, { sort: 'longest' }))[0]).toBe('Long maid');
    expect(await titles('maid', { limit: 10 }, { duration: 'long' })).toEqual(['Long maid']);
    expect(await titles('maid', { limit: 10 }, { duration: 'medium', sort: 'views' })).toEqual(['Newest maid']);
  });

  it('counts each tag’s public videos and puts every such tag in the sitemap once', async () => {
    const tags = await listPublicTags(10);
    expect(tags.slice(0, 2)).toEqual([
      { tag: 'maid', videos: 3 },
      { tag: 'pink', videos: 2 },
    ]);
    const urls = (await sitemapEntries()).map((entry) => entry.url);
    for (const tag of ['maid', 'pink', 'maiden']) expect(urls.filter((url) => url === `${ORIGIN}/tag/${tag}`)).toHaveLength(1);
  });
});
