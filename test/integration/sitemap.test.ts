import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { installDatabase, queryRows } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';
import {
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  sitemapIds,
  sitemapIndexXml,
  VIDEO_ENTRY_MAX_BYTES,
  VIDEOS_PER_FILE,
} from '@/lib/server/sitemap';
import { listPublicTags } from '@/lib/server/videos/catalog';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { sitemapFiles } from '../helpers/sitemap';
import { insertVideo, userId } from '../helpers/videos';

/*
 * The sitemap index (issue 36, decision 056) on a catalogue seeded in bulk: with a small number of videos per
 * file, several video files; every public video in exactly one of them, nothing else, each file within the limits.
 */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-sitemap-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PUBLIC_VIDEOS = 230;
const PER_FILE = 40;
/** Home, three categories, subscribe and the seven policies. */
const FIXED_PAGES = 12;
/** What members may write (the database holds no NUL: validation drops control characters, escapeXml too). */
const HOSTILE = `</script ><script>alert(1)</script> & "quotes" ${'🦋'.repeat(2000)}`;

describe.each(ENGINES)('the sitemap on %s', (engine) => {
  let database: TestDatabase;
  let hidden: string[];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, `sitemap_${engine}`);
    await verifiedMemberToken(database.db, `sitemap_banned_${engine}`);
    const owner = await userId(database.db, `sitemap_${engine}`);
    const banned = await userId(database.db, `sitemap_banned_${engine}`);
    // In bulk, as a large catalogue is: public videos, and as many in each state that is not public.
    const seed = (prefix: string, count: number, state: string, status: string, ownerId: string) =>
      queryRows(
        database.db,
        sql`INSERT INTO videos (stream_video_id, owner_id, title, description, category, tags, source_key, source_bytes,
                                processing_state, moderation_status, published_at, thumbnail_key, web_mp4_key, duration_seconds)
            SELECT ${prefix} || g, ${ownerId}, 'Video ' || g, 'About video ' || g, 'Sissy', ARRAY['tag' || (g % 5)],
                   'k' || g, 1000, ${state}, ${status}, now() - g * interval '1 minute', 't' || g, 'm' || g, 61
            FROM generate_series(1, ${count}) g`,
      );
    await seed('pub', PUBLIC_VIDEOS + 10, 'ready', 'approved', owner);
    await seed('pending', 15, 'ready', 'pending', owner);
    await seed('rejected', 15, 'ready', 'rejected', owner);
    await seed('queued', 15, 'queued', 'approved', owner);
    await seed('failed', 15, 'failed', 'approved', owner);
    await seed('banned', 15, 'ready', 'approved', banned);
    await queryRows(database.db, sql`UPDATE videos SET owner_banned = true WHERE owner_id = ${banned}`);
    // Removed: ten public videos deleted, leaving a gap in the ranges.
    await queryRows(
      database.db,
      sql`DELETE FROM videos WHERE stream_video_id IN (SELECT 'pub' || g FROM generate_series(101, 110) g)`,
    );
    await insertVideo(database.db, owner, {
      streamVideoId: 'hostile',
      title: Array.from(HOSTILE).slice(0, 100).join(''),
      description: HOSTILE,
    });
    hidden = (
      await queryRows<{ stream_video_id: string }>(
        database.db,
        sql`SELECT stream_video_id FROM videos WHERE stream_video_id !~ '^pub' AND stream_video_id <> 'hostile'`,
      )
    )
      .map((row) => row.stream_video_id)
      .concat(Array.from({ length: 10 }, (_, i) => `pub${101 + i}`));
  }, 120_000);
  afterAll(() => database.destroy());

  it('lists every public video once across several files, and nothing that is not public', async () => {
    const files = await sitemapFiles(PER_FILE);
    const videoFiles = files.filter((file) => file.id.startsWith('videos-'));
    expect(videoFiles.length).toBeGreaterThanOrEqual(Math.ceil(PUBLIC_VIDEOS / PER_FILE));
    const urls = files.flatMap((file) => file.entries.map((entry) => entry.url));
    const videoUrls = urls.filter((url) => url.startsWith(`${ORIGIN}/video/`));
    // 230 seeded and still there, and the hostile one.
    expect(videoUrls).toHaveLength(PUBLIC_VIDEOS + 1);
    expect(new Set(videoUrls).size).toBe(videoUrls.length);
    expect(files.find((file) => file.id === 'pages')!.entries).toHaveLength(FIXED_PAGES);
    expect(urls).toHaveLength(PUBLIC_VIDEOS + 1 + FIXED_PAGES + 5 /* tag0 … tag4 */);
    for (const id of hidden) expect(videoUrls).not.toContain(`${ORIGIN}/video/${id}`);
    for (const file of files) {
      expect(file.entries.length).toBeGreaterThan(0);
      expect(file.entries.length).toBeLessThanOrEqual(file.id.startsWith('videos-') ? PER_FILE : SITEMAP_MAX_URLS);
    }
  });

  it('names each file once in the index, at /sitemap/{id}.xml', async () => {
    const ids = await sitemapIds(PER_FILE);
    const xml = await sitemapIndexXml(PER_FILE);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
    expect([...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1])).toEqual(
      ids.map((id) => `${ORIGIN}/sitemap/${id}.xml`),
    );
    expect(ids.slice(0, 2)).toEqual(['pages', 'tags']);
  });

  it('keeps every file under 50 MB: no entry is larger than the budget the file size is set from', async () => {
    expect(VIDEOS_PER_FILE * VIDEO_ENTRY_MAX_BYTES).toBeLessThanOrEqual(SITEMAP_MAX_BYTES);
    const entries = (await sitemapFiles(PER_FILE)).flatMap((file) => file.entries);
    const hostile = entries.find((entry) => entry.url === `${ORIGIN}/video/hostile`)!;
    const video = hostile.videos![0]!;
    // The texts as Next writes them (escaped here, as they are), URLs, dates and numbers, plus the markup.
    expect(Buffer.byteLength(JSON.stringify(hostile)) + 1_024).toBeLessThanOrEqual(VIDEO_ENTRY_MAX_BYTES);
    for (const text of [video.title, video.description, video.uploader!.content!]) {
      expect(text).not.toMatch(/[<>"\u0000]/);
      expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no emoji cut in half
    }
    expect(video.title).toContain('&lt;/script &gt;');
    expect(Array.from(video.description.replace(/&[a-z]+;/g, '_'))).toHaveLength(2_000);
  });

  it('links no profile: the uploader is named, not linked', async () => {
    const entries = (await sitemapFiles(PER_FILE)).flatMap((file) => file.entries);
    expect(JSON.stringify(entries)).not.toContain('/profile/');
    const video = entries.find((entry) => entry.url === `${ORIGIN}/video/pub1`)!.videos![0]!;
    expect(video.uploader).toEqual({ content: `sitemap_${engine}`, info: '' });
  });

  it('counts each tag’s public videos as videos are published, hidden, retagged and deleted', async () => {
    const recount = () =>
      queryRows<{ tag: string; videos: number }>(
        database.db,
        sql`SELECT t.tag, count(DISTINCT v.id)::int AS videos FROM videos v CROSS JOIN LATERAL unnest(v.tags) AS t(tag)
            WHERE v.processing_state = 'ready' AND v.moderation_status = 'approved' AND NOT v.owner_banned
            GROUP BY t.tag ORDER BY count(DISTINCT v.id) DESC, t.tag`,
      );
    expect(await listPublicTags(100)).toEqual(await recount());
    const owner = await userId(database.db, `sitemap_${engine}`);
    const video = await insertVideo(database.db, owner, { tags: ['fresh', 'fresh', 'tag1'], moderationStatus: 'pending' });
    expect((await listPublicTags(100)).find((t) => t.tag === 'fresh')).toBeUndefined();
    await queryRows(database.db, sql`UPDATE videos SET moderation_status = 'approved' WHERE id = ${video.id}`);
    expect((await listPublicTags(100)).find((t) => t.tag === 'fresh')).toEqual({ tag: 'fresh', videos: 1 });
    await queryRows(database.db, sql`UPDATE videos SET tags = ARRAY['other', 'tag2'] WHERE id = ${video.id}`);
    await queryRows(database.db, sql`UPDATE videos SET owner_banned = true WHERE stream_video_id IN ('pub1', 'pub2')`);
    expect(await listPublicTags(100)).toEqual(await recount());
    await queryRows(database.db, sql`DELETE FROM videos WHERE id = ${video.id}`);
    await queryRows(database.db, sql`UPDATE videos SET owner_banned = false WHERE stream_video_id IN ('pub1', 'pub2')`);
    expect(await listPublicTags(100)).toEqual(await recount());
    expect((await listPublicTags(100)).map((t) => t.tag)).not.toContain('other');
  });
});
