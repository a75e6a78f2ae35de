/**
 * Sort and filter on the public lists (GET /api/videos with sort, duration
 * and category) and on search: every order with its ties, the duration
 * buckets at their edges, and paging by number and by cursor without a
 * duplicate or a gap, including while views change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as list } from '@/app/api/videos/route';
import { GET as search } from '@/app/api/videos/search/route';
import { installDatabase } from '@/lib/db';
import { videos, type Video } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { readListOrder, listOrderSchema, searchOrderSchema, VIDEO_SORTS } from '@/lib/validation/videos';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-sort-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Listed = { title: string; views: number; durationSeconds: number | null };
type Page = { videos: Listed[]; pagination: { hasMore: boolean; nextCursor: string | null } };

const BASE = Date.parse('2026-06-01T12:00:00.000Z');
/** A publication time with microseconds, so cursors must carry them exactly. */
const at = (minutes: number, micro = 0) =>
  sql`${new Date(BASE - minutes * 60_000).toISOString()}::timestamptz + ${`${micro} microseconds`}::interval`;

describe.each(ENGINES)('sorting and filtering lists on %s', (engine) => {
  let database: TestDatabase;
  let creator: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, 'sorter');
    creator = await userId(database.db, 'sorter');
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
  });

  const titles = (body: unknown) => (body as Page).videos.map((video) => video.title);
  const add = async (title: string, fields: Partial<Video> & { minutes?: number; micro?: number } = {}) => {
    const { minutes = 0, micro = 0, ...rest } = fields;
    const video = await insertVideo(database.db, creator, { title, ...rest });
    await database.db.execute(sql`UPDATE videos SET published_at = ${at(minutes, micro)} WHERE id = ${video.id}`);
    return video;
  };

  /** Every page by number and by cursor, checked against each other; the titles in order. */
  async function walk(query: string, limit = 3): Promise<string[]> {
    const byPage: string[] = [];
    for (let page = 1; page < 50; page += 1) {
      const response = await call(list, `/api/videos?${query}&limit=${limit}&page=${page}`);
      expect(response.status).toBe(200);
      byPage.push(...titles(response.body));
      if (!(response.body as Page).pagination.hasMore) break;
    }
    const byCursor: string[] = [];
    let cursor: string | null = null;
    for (let step = 0; step < 50; step += 1) {
      const response = await call(list, `/api/videos?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      byCursor.push(...titles(response.body));
      cursor = (response.body as Page).pagination.nextCursor;
      if (!cursor) break;
    }
    expect(byCursor).toEqual(byPage);
    expect(new Set(byPage).size).toBe(byPage.length);
    return byPage;
  }

  it('sorts by each order, ties newest first and then by id, and pages without duplicates or gaps', async () => {
    const a = await add('a', { views: 50, likesCount: 1, durationSeconds: 100, minutes: 5 });
    await add('b', { views: 50, likesCount: 9, durationSeconds: 2000, minutes: 1, micro: 1 });
    await add('c', { views: 7, likesCount: 9, durationSeconds: 100, minutes: 1, micro: 2 });
    await add('d', { views: 900, likesCount: 0, durationSeconds: 650, minutes: 9 });
    // Two videos published in the same microsecond, equal in every key: the id decides, and never twice.
    const e = await add('e', { views: 7, likesCount: 1, durationSeconds: 100, minutes: 3 });
    const f = await add('f', { views: 7, likesCount: 1, durationSeconds: 100, minutes: 3 });
    const [efFirst, efSecond] = e.id > f.id ? ['e', 'f'] : ['f', 'e'];
    await add('g', { views: 0, likesCount: 0, durationSeconds: null, minutes: 0 });
    expect(a.id).toBeTruthy();

    expect(await walk('sort=newest')).toEqual(['g', 'c', 'b', efFirst, efSecond, 'a', 'd']);
    expect(await walk('')).toEqual(['g', 'c', 'b', efFirst, efSecond, 'a', 'd']);
    expect(await walk('sort=views')).toEqual(['d', 'b', 'a', 'c', efFirst, efSecond, 'g']);
    expect(await walk('sort=likes')).toEqual(['c', 'b', efFirst, efSecond, 'a', 'g', 'd']);
    // A video of unknown length comes last however new it is.
    expect(await walk('sort=longest')).toEqual(['b', 'd', 'c', efFirst, efSecond, 'a', 'g']);
    for (const sort of VIDEO_SORTS) expect(await walk(`sort=${sort}`, 1)).toHaveLength(7);
  });

  it('filters by duration at the edges, as cards show the length (whole seconds), with any sort and category', async () => {
    const lengths: [string, number][] = [
      ['299.4 s', 299.4],
      ['299.5 s', 299.5],
      ['300 s', 300],
      ['1200 s', 1200],
      ['1200.4 s', 1200.4],
      ['1200.5 s', 1200.5],
      ['1201 s', 1201],
      ['4 s', 4],
    ];
    for (const [index, [title, durationSeconds]] of lengths.entries())
      await add(title, { durationSeconds, minutes: index, views: index });
    await add('unknown', { durationSeconds: null, minutes: 20 });
    await add('beta 600 s', { durationSeconds: 600, category: 'Beta', minutes: 21 });

    const set = async (query: string) => (await walk(query, 2)).sort();
    expect(await set('duration=short')).toEqual(['299.4 s', '4 s'].sort());
    expect(await set('duration=medium')).toEqual(['1200 s', '1200.4 s', '299.5 s', '300 s', 'beta 600 s'].sort());
    expect(await set('duration=long')).toEqual(['1200.5 s', '1201 s'].sort());
    expect(await set('duration=medium&category=Sissy')).toEqual(['1200 s', '1200.4 s', '299.5 s', '300 s'].sort());
    expect(await walk('duration=medium&category=Sissy&sort=views', 1)).toEqual(['1200.4 s', '1200 s', '300 s', '299.5 s']);
    expect(await walk('duration=long&sort=longest')).toEqual(['1201 s', '1200.5 s']);
    expect(await walk('duration=short&sort=newest')).toEqual(['299.4 s', '4 s']);
    expect(await set('category=Beta&sort=likes')).toEqual(['beta 600 s']);
    // Without a filter every video is listed, the one of unknown length too.
    expect(await walk('sort=views', 4)).toHaveLength(10);
  });

  it('never shows a video twice by cursor while views climb, and keeps the order of what is left', async () => {
    const all: Video[] = [];
    for (let i = 0; i < 12; i += 1) all.push(await add(`v${String(i).padStart(2, '0')}`, { views: 100 - i, minutes: i }));
    const first = await call(list, '/api/videos?sort=views&limit=4');
    expect(titles(first.body)).toEqual(['v00', 'v01', 'v02', 'v03']);
    // Someone shown climbs further; someone not yet shown climbs past the cursor.
    await database.db.update(videos).set({ views: 1000 }).where(eq(videos.id, all[1]!.id));
    await database.db.update(videos).set({ views: 500 }).where(eq(videos.id, all[9]!.id));
    const rest: string[] = [];
    let cursor = (first.body as Page).pagination.nextCursor;
    while (cursor) {
      const next = await call(list, `/api/videos?sort=views&limit=4&cursor=${cursor}`);
      rest.push(...titles(next.body));
      cursor = (next.body as Page).pagination.nextCursor;
    }
    expect(rest).toEqual(['v04', 'v05', 'v06', 'v07', 'v08', 'v10', 'v11']);
  });

  it.each([
    ['sort=popular', 'sort must be one of newest, views, likes, longest'],
    ['sort=relevance', 'sort must be one of newest, views, likes, longest'],
    ['duration=tiny', 'duration must be one of short, medium, long'],
    ['sort=views&cursor=bm90LWEtY3Vyc29y', 'The cursor is not valid. Start again from page 1.'],
    [
      'sort=views&cursor=' +
        Buffer.from('likes|3|2026-06-01T12:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      'The cursor is not valid. Start again from page 1.',
    ],
    [
      'sort=views&cursor=' +
        Buffer.from('views|1);DROP TABLE videos;--|2026-06-01T12:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString(
          'base64url',
        ),
      'The cursor is not valid. Start again from page 1.',
    ],
    [
      'sort=views&cursor=' +
        Buffer.from('views|9999999999|2026-06-01T12:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      'The cursor is not valid. Start again from page 1.',
    ],
    [
      'sort=likes&cursor=' +
        Buffer.from('likes|3|2026-02-30T12:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      'The cursor is not valid. Start again from page 1.',
    ],
    [
      'sort=longest&cursor=' +
        Buffer.from('longest|Infinity|2026-06-01T12:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      'The cursor is not valid. Start again from page 1.',
    ],
  ])('refuses %s with a clear 400', async (query, message) => {
    const response = await call(list, `/api/videos?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('sorts and filters search results, best match first by default', async () => {
    await add('Velvet heels long', { durationSeconds: 1500, views: 3, likesCount: 5, minutes: 3 });
    await add('Velvet velvet heels', { durationSeconds: 200, views: 10, likesCount: 1, minutes: 2 });
    await add('Velvet walk', { durationSeconds: 400, views: 99, likesCount: 0, minutes: 1 });
    await add('Unrelated', { durationSeconds: 400, views: 1000, minutes: 0 });
    const q = async (query: string) => titles((await call(search, `/api/videos/search?q=velvet&${query}`)).body);
    expect((await q('')).sort()).toEqual(['Velvet heels long', 'Velvet velvet heels', 'Velvet walk']);
    expect(await q('sort=views')).toEqual(['Velvet walk', 'Velvet velvet heels', 'Velvet heels long']);
    expect(await q('sort=likes')).toEqual(['Velvet heels long', 'Velvet velvet heels', 'Velvet walk']);
    expect(await q('sort=newest')).toEqual(['Velvet walk', 'Velvet velvet heels', 'Velvet heels long']);
    expect(await q('sort=longest')).toEqual(['Velvet heels long', 'Velvet walk', 'Velvet velvet heels']);
    expect(await q('duration=short')).toEqual(['Velvet velvet heels']);
    expect(await q('duration=long&sort=views')).toEqual(['Velvet heels long']);
    const bad = await call(search, '/api/videos/search?q=velvet&sort=%3C/script%20%3E');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('sort must be one of relevance, newest, views, likes, longest');
  });

  it('reads the same fields leniently for pages: an unknown value falls back to the default', () => {
    expect(readListOrder(listOrderSchema, {})).toEqual({ sort: 'newest' });
    expect(readListOrder(listOrderSchema, { sort: 'views', duration: 'long' })).toEqual({ sort: 'views', duration: 'long' });
    expect(readListOrder(listOrderSchema, { sort: ['likes', 'views'], duration: '\u0000' })).toEqual({ sort: 'likes' });
    expect(readListOrder(listOrderSchema, { sort: 'relevance' })).toEqual({ sort: 'newest' });
    expect(readListOrder(searchOrderSchema, { sort: 'nonsense', duration: 'short' })).toEqual({
      sort: 'relevance',
      duration: 'short',
    });
  });
});
