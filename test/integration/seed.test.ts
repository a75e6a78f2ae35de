import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { GET as recent } from '@/app/api/videos/route';
import { GET as search } from '@/app/api/videos/search/route';
import { installDatabase, queryRows } from '@/lib/db';
import { ADJECTIVES, EXTRAS, NOUNS, seedBulk, SUFFIXES } from '@/lib/server/demo/bulk-seed';
import { getMediaStorage } from '@/lib/server/storage';
import { CATEGORIES } from '@/lib/site';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-seed-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Listed = { title: string; category: string; thumbnailUrl: string | null; uploader: { username: string } };

describe('the word lists', () => {
  it('have no word twice, so each word has the share of titles its list gives it', () => {
    const all = [...ADJECTIVES, ...NOUNS, ...EXTRAS, ...SUFFIXES];
    expect(new Set(all).size).toBe(all.length);
    for (const word of all) expect(word).toMatch(/^[a-z]+$/);
  });
});

describe.each(ENGINES)('npm run seed on %s', (engine) => {
  let database: TestDatabase;
  const N = 500;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
  });
  afterAll(() => database.destroy());

  it('inserts the videos and members in batches, all public, with real media on the first pages', async () => {
    const phases = new Set<string>();
    // Small batches, so the batching itself is exercised.
    const result = await seedBulk(database.db, {
      videos: N,
      users: 20,
      batchSize: 120,
      mediaPerCategory: 12,
      onProgress: ({ phase }) => phases.add(phase),
    });
    expect(result).toMatchObject({ videos: N, users: 20 });
    expect([...phases]).toEqual(['users', 'videos', 'media', 'analyze']);

    const [counts] = await queryRows<Record<string, number>>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM users) AS users,
                 (SELECT count(*)::int FROM videos) AS videos,
                 (SELECT count(*)::int FROM videos WHERE processing_state = 'ready' AND moderation_status = 'approved' AND published_at IS NOT NULL) AS public,
                 (SELECT count(DISTINCT owner_id)::int FROM videos) AS owners,
                 (SELECT count(DISTINCT user_id)::int FROM identity_verifications WHERE status = 'approved') AS verified,
                 (SELECT count(DISTINCT category)::int FROM videos) AS categories,
                 (SELECT count(DISTINCT stream_video_id)::int FROM videos) AS stream_ids,
                 (SELECT count(*)::int FROM videos WHERE published_at < now() - interval '180 days') AS older,
                 (SELECT count(*)::int FROM videos WHERE web_mp4_key IS NOT NULL AND thumbnail_key IS NOT NULL) AS with_media`,
    );
    // Every seeded uploader is verified, as the approval gate requires of the videos they have.
    expect(counts).toMatchObject({ users: 20, videos: N, public: N, categories: 3, stream_ids: N, verified: 20 });
    expect(counts!.owners).toBeGreaterThan(10);
    expect(counts!.older).toBeGreaterThan(N / 2);
    expect(counts!.with_media).toBe(result.withMedia);
    // The twelve newest per category plus the top dozen (some may be both).
    expect(result.withMedia).toBeGreaterThanOrEqual(36);
    expect(result.withMedia).toBeLessThanOrEqual(48);

    const [media] = await queryRows<{ id: string; web_mp4_key: string; thumbnail_key: string }>(
      database.db,
      sql`SELECT id, web_mp4_key, thumbnail_key FROM videos WHERE web_mp4_key IS NOT NULL LIMIT 1`,
    );
    expect(media!.web_mp4_key).toBe(`videos/${media!.id}/web.mp4`);
    expect(await getMediaStorage().stat(media!.web_mp4_key)).not.toBeNull();
    expect(await getMediaStorage().stat(media!.thumbnail_key)).not.toBeNull();
  });

  it('gives the public lists full pages, by number and by cursor, and in each category', async () => {
    const first = await call(recent, '/api/videos?limit=12&page=1');
    expect(first.status).toBe(200);
    expect(first.body.videos).toHaveLength(12);
    expect(first.body.pagination).toMatchObject({ hasMore: true });
    // The newest videos (at least a page's worth per category) have real thumbnails.
    expect((first.body.videos as Listed[]).every((video) => video.thumbnailUrl !== null)).toBe(true);

    const deep = await call(recent, '/api/videos?limit=50&page=10');
    expect(deep.body.videos).toHaveLength(50);
    expect(deep.body.pagination).toMatchObject({ hasMore: false });

    const cursor = (first.body.pagination as { nextCursor: string }).nextCursor;
    const next = await call(recent, `/api/videos?limit=12&cursor=${encodeURIComponent(cursor)}`);
    expect(next.body.videos).toHaveLength(12);

    for (const category of CATEGORIES) {
      const page = await call(recent, `/api/videos?limit=12&page=1&category=${category}`);
      expect(page.body.videos).toHaveLength(12);
      expect(
        (page.body.videos as Listed[]).every(
          (video) => video.category === category && video.uploader.username.startsWith('seed_'),
        ),
      ).toBe(true);
    }
  });

  it('makes titles search can tell apart', async () => {
    const [share] = await queryRows<{ most: number; commonest: string }>(
      database.db,
      sql`SELECT max(n)::float / ${N} AS most, (array_agg(word ORDER BY n DESC))[1] AS commonest
          FROM (SELECT word, count(*) AS n FROM videos, regexp_split_to_table(lower(title), ' ') AS word GROUP BY word) words`,
    );
    expect(share!.most).toBeLessThan(0.1);
    const found = await call(search, `/api/videos/search?q=${share!.commonest}&limit=50`);
    expect(found.status).toBe(200);
    const titles = (found.body.videos as Listed[]).map((video) => video.title.toLowerCase());
    expect(titles.length).toBeGreaterThan(5);
    expect(titles.length).toBeLessThan(50);
    // Mostly title hits: a description or tag word can also start with the word (prefix search), and a typo-close title word counts too.
    expect(titles.filter((title) => title.includes(share!.commonest)).length).toBeGreaterThanOrEqual(
      Math.ceil(titles.length * 0.8),
    );
  });
});
