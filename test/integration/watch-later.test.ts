/**
 * Watch later: save, remove, list (by page and cursor), the ids for cards;
 * only ever the caller's own list; visitors 401; videos that stop being
 * public leave the list (and come back if published again), as liked videos do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as idsRoute } from '@/app/api/users/me/watch-later/ids/route';
import { GET as listRoute } from '@/app/api/users/me/watch-later/route';
import { DELETE as removeRoute, PUT as saveRoute } from '@/app/api/videos/[streamVideoId]/watch-later/route';
import { installDatabase, queryRows } from '@/lib/db';
import { videos, watchLater } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-watch-later-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Page = { videos: { title: string; streamVideoId: string }[]; pagination: { hasMore: boolean; nextCursor: string | null } };
const params = (streamVideoId: string) => ({ streamVideoId });
const path_ = (streamVideoId: string) => `/api/videos/${streamVideoId}/watch-later`;

describe.each(ENGINES)('watch later on %s', (engine) => {
  let database: TestDatabase;
  let creator: string;
  let saverToken: string;
  let otherToken: string;
  let saver: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, 'creator');
    saverToken = await verifiedMemberToken(database.db, 'saver');
    otherToken = await verifiedMemberToken(database.db, 'other_saver');
    creator = await userId(database.db, 'creator');
    saver = await userId(database.db, 'saver');
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
  });

  const save = (id: string, bearer?: string) => call(saveRoute, path_(id), { method: 'PUT', bearer, params: params(id) });
  const remove = (id: string, bearer?: string) => call(removeRoute, path_(id), { method: 'DELETE', bearer, params: params(id) });
  const list = async (bearer: string, query = '') =>
    (await call(listRoute, `/api/users/me/watch-later?${query}`, { bearer })).body as Page;
  const titles = (page: Page) => page.videos.map((video) => video.title);

  it('saves, lists newest save first, gives the ids for cards, and removes; both are idempotent', async () => {
    const a = await insertVideo(database.db, creator, { title: 'first saved' });
    const b = await insertVideo(database.db, creator, { title: 'second saved' });
    expect(await save(a.streamVideoId, saverToken)).toMatchObject({ status: 200, body: { saved: true } });
    expect(await save(b.streamVideoId, saverToken)).toMatchObject({ status: 200, body: { saved: true } });
    expect(await save(b.streamVideoId, saverToken)).toMatchObject({ status: 200, body: { saved: true } });
    expect(titles(await list(saverToken))).toEqual(['second saved', 'first saved']);
    expect((await call(idsRoute, '/api/users/me/watch-later/ids', { bearer: saverToken })).body).toEqual({
      streamVideoIds: [b.streamVideoId, a.streamVideoId],
    });

    expect(await remove(b.streamVideoId, saverToken)).toMatchObject({ status: 200, body: { saved: false } });
    expect(await remove(b.streamVideoId, saverToken)).toMatchObject({ status: 200, body: { saved: false } });
    expect(titles(await list(saverToken))).toEqual(['first saved']);
  });

  it("is only ever the caller's own list: another member neither sees nor removes it", async () => {
    const video = await insertVideo(database.db, creator, { title: 'private taste' });
    await save(video.streamVideoId, saverToken);
    expect(titles(await list(otherToken))).toEqual([]);
    expect((await call(idsRoute, '/api/users/me/watch-later/ids', { bearer: otherToken })).body).toEqual({ streamVideoIds: [] });
    // The other member's DELETE removes only their own (absent) row.
    expect((await remove(video.streamVideoId, otherToken)).status).toBe(200);
    expect(titles(await list(saverToken))).toEqual(['private taste']);
    // Query parameters cannot name someone else's list.
    expect(titles(await list(otherToken, `user=${saver}&userId=${saver}`))).toEqual([]);
  });

  it('answers visitors 401 and bad ids 400, unknown or unpublished videos 404', async () => {
    const video = await insertVideo(database.db, creator);
    const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
    for (const response of [
      await save(video.streamVideoId),
      await remove(video.streamVideoId),
      await call(listRoute, '/api/users/me/watch-later'),
      await call(idsRoute, '/api/users/me/watch-later/ids'),
    ]) {
      expect(response.status).toBe(401);
    }
    expect(await save('</script >\u0000', saverToken)).toMatchObject({
      status: 400,
      body: { message: 'The video id is not valid.' },
    });
    expect(await save('x'.repeat(33), saverToken)).toMatchObject({ status: 400 });
    expect(await save('unknownVideo1', saverToken)).toMatchObject({ status: 404, body: { message: 'Video not found' } });
    expect(await save(pending.streamVideoId, saverToken)).toMatchObject({ status: 404, body: { message: 'Video not found' } });
    expect(await remove(pending.streamVideoId, saverToken)).toMatchObject({ status: 404, body: { message: 'Video not found' } });
    const bad = await call(listRoute, '/api/users/me/watch-later?cursor=%3C%2Fscript%20%3E', { bearer: saverToken });
    expect(bad).toMatchObject({ status: 400, body: { message: 'The cursor is not valid. Start again from page 1.' } });
  });

  it('hides a video that stops being public (and shows it again if it comes back); a deleted one goes for good', async () => {
    const hidden = await insertVideo(database.db, creator, { title: 'will be hidden' });
    const banned = await insertVideo(database.db, creator, { title: 'owner banned' });
    const deleted = await insertVideo(database.db, creator, { title: 'will be deleted' });
    for (const video of [hidden, banned, deleted]) await save(video.streamVideoId, saverToken);
    await database.db.update(videos).set({ moderationStatus: 'rejected' }).where(eq(videos.id, hidden.id));
    await database.db.update(videos).set({ ownerBanned: true }).where(eq(videos.id, banned.id));
    await database.db.delete(videos).where(eq(videos.id, deleted.id));
    expect(titles(await list(saverToken))).toEqual([]);
    expect((await call(idsRoute, '/api/users/me/watch-later/ids', { bearer: saverToken })).body).toEqual({ streamVideoIds: [] });
    // Its saver can still clear a hidden one; nobody learns more than 404 about it otherwise.
    expect((await remove(banned.streamVideoId, saverToken)).status).toBe(200);
    await database.db.update(videos).set({ moderationStatus: 'approved' }).where(eq(videos.id, hidden.id));
    await database.db.update(videos).set({ ownerBanned: false }).where(eq(videos.id, banned.id));
    expect(titles(await list(saverToken))).toEqual(['will be hidden']);
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM watch_later WHERE video_id = ${deleted.id}`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('pages by number and by cursor without duplicates or gaps, saves in the same microsecond included', async () => {
    const saved: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const video = await insertVideo(database.db, creator, { title: `clip ${i}` });
      await database.db
        .insert(watchLater)
        .values({ userId: saver, videoId: video.id, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i < 4 ? 0 : i)) });
      saved.push(`clip ${i}`);
    }
    const byPage: string[] = [];
    for (let page = 1; page <= 4; page += 1) byPage.push(...titles(await list(saverToken, `limit=2&page=${page}`)));
    const byCursor: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(saverToken, `limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      byCursor.push(...titles(page));
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(byCursor).toEqual(byPage);
    expect([...byPage].sort()).toEqual(saved.sort());
    expect(byPage.slice(0, 3)).toEqual(['clip 6', 'clip 5', 'clip 4']);
  });
});
