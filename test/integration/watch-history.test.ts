/**
 * Watch history and resume points (decision 053): progress upserts (one row per video, finished near the end),
 * pause, remove one, clear all, the cap, the list (newest first, by cursor, unfinished only), and who may do what:
 * only ever the caller's own rows, visitors 401, hidden videos 404, hostile positions 400. Deleting the account or
 * the video takes the rows with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { DELETE as clearRoute, GET as listRoute } from '@/app/api/users/me/history/route';
import { DELETE as removeRoute } from '@/app/api/users/me/history/[streamVideoId]/route';
import { PUT as pausedRoute } from '@/app/api/users/me/history/paused/route';
import { DELETE as deleteAccountRoute } from '@/app/api/users/settings/account/route';
import { GET as progressRoute, PUT as saveRoute } from '@/app/api/videos/[streamVideoId]/progress/route';
import { installDatabase, queryRows } from '@/lib/db';
import { videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { WATCH_HISTORY_MAX } from '@/lib/validation/history';
import { isFinished } from '@/lib/watch-progress';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-watch-history-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Page = {
  videos: { title: string; streamVideoId: string; progress: { positionSeconds: number; finished: boolean; watchedAt: string } }[];
  pagination: { hasMore: boolean; nextCursor: string | null };
  paused: boolean;
};
const params = (streamVideoId: string) => ({ streamVideoId });
const progressPath = (streamVideoId: string) => `/api/videos/${streamVideoId}/progress`;

describe.each(ENGINES)('watch history on %s', (engine) => {
  let database: TestDatabase;
  let creator: string;
  let creatorToken: string;
  let viewerToken: string;
  let otherToken: string;
  let viewer: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    creatorToken = await verifiedMemberToken(database.db, 'hcreator');
    viewerToken = await verifiedMemberToken(database.db, 'hviewer');
    otherToken = await verifiedMemberToken(database.db, 'hother');
    creator = await userId(database.db, 'hcreator');
    viewer = await userId(database.db, 'hviewer');
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
    resetLimiters();
  });

  const save = (id: string, positionSeconds: unknown, bearer?: string) =>
    call(saveRoute, progressPath(id), { method: 'PUT', bearer, params: params(id), json: { positionSeconds } });
  const progressOf = (id: string, bearer?: string) => call(progressRoute, progressPath(id), { bearer, params: params(id) });
  const list = async (bearer: string, query = '') =>
    (await call(listRoute, `/api/users/me/history?${query}`, { bearer })).body as Page;
  const titles = (page: Page) => page.videos.map((video) => video.title);
  const remove = (id: string, bearer?: string) =>
    call(removeRoute, `/api/users/me/history/${id}`, { method: 'DELETE', bearer, params: params(id) });
  const clear = (bearer?: string) => call(clearRoute, '/api/users/me/history', { method: 'DELETE', bearer });
  const pause = (paused: unknown, bearer?: string) =>
    call(pausedRoute, '/api/users/me/history/paused', { method: 'PUT', bearer, json: { paused } });
  const rows = (memberId: string) =>
    queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM watch_history WHERE user_id = ${memberId}`).then(
      ([row]) => row!.n,
    );

  it('keeps one row per video, updated in place, and lists the most recently watched first with where they stopped', async () => {
    const a = await insertVideo(database.db, creator, { title: 'first watched', durationSeconds: 600 });
    const b = await insertVideo(database.db, creator, { title: 'second watched', durationSeconds: 600 });
    expect(await save(a.streamVideoId, 12.5, viewerToken)).toMatchObject({ status: 200, body: { saved: true, paused: false } });
    expect(await save(b.streamVideoId, 30, viewerToken)).toMatchObject({ status: 200, body: { saved: true } });
    expect(titles(await list(viewerToken))).toEqual(['second watched', 'first watched']);
    // Watching the first again moves it to the top and updates its place: still one row each.
    expect((await save(a.streamVideoId, 95.25, viewerToken)).status).toBe(200);
    const page = await list(viewerToken);
    expect(titles(page)).toEqual(['first watched', 'second watched']);
    expect(page.videos[0]!.progress).toEqual({ positionSeconds: 95.25, finished: false, watchedAt: expect.any(String) });
    expect(page.paused).toBe(false);
    expect(await rows(viewer)).toBe(2);
    expect((await progressOf(a.streamVideoId, viewerToken)).body).toEqual({
      progress: { positionSeconds: 95.25, finished: false, watchedAt: page.videos[0]!.progress.watchedAt },
      paused: false,
    });
    expect((await progressOf(a.streamVideoId, otherToken)).body).toEqual({ progress: null, paused: false });
  });

  it('marks the last moments as finished (the rule the player uses), leaves those out of Continue watching, and clamps to the end', async () => {
    const long = await insertVideo(database.db, creator, { title: 'an hour', durationSeconds: 3600 });
    const short = await insertVideo(database.db, creator, { title: 'a minute', durationSeconds: 60 });
    const going = await insertVideo(database.db, creator, { title: 'half way', durationSeconds: 60 });
    // 5 % of an hour is 180 s: 3430 s is in the tail; 10 s is the tail of a minute.
    for (const [video, at] of [
      [long, 3430],
      [short, 50],
      [going, 30],
    ] as const) {
      expect((await save(video.streamVideoId, at, viewerToken)).status).toBe(200);
      const saved = (await progressOf(video.streamVideoId, viewerToken)).body as { progress: { finished: boolean } };
      expect(saved.progress.finished).toBe(isFinished(at, video.durationSeconds));
    }
    expect(titles(await list(viewerToken, 'unfinished=true'))).toEqual(['half way']);
    expect(titles(await list(viewerToken))).toEqual(['half way', 'a minute', 'an hour']);
    // Within the slack past the end: kept as the end itself.
    expect((await save(short.streamVideoId, 63, viewerToken)).status).toBe(200);
    expect(
      ((await progressOf(short.streamVideoId, viewerToken)).body as { progress: { positionSeconds: number } }).progress,
    ).toMatchObject({
      positionSeconds: 60,
      finished: true,
    });
  });

  it('refuses hostile positions with a clear message and writes nothing', async () => {
    const video = await insertVideo(database.db, creator, { durationSeconds: 120 });
    const message = 'positionSeconds must be a number of seconds, from 0 up.';
    for (const bad of [-1, '12', null, 'NaN', true, [5], { s: 5 }, undefined]) {
      expect(await save(video.streamVideoId, bad, viewerToken)).toMatchObject({ status: 400, body: { message } });
    }
    expect(await save(video.streamVideoId, 1e12, viewerToken)).toMatchObject({
      status: 400,
      body: { message: 'positionSeconds must be at most 86400 (24 hours).' },
    });
    // NaN and Infinity cannot be JSON; a hand-written body with them is not JSON at all.
    for (const body of ['{"positionSeconds": NaN}', '{"positionSeconds": Infinity}', '{"positionSeconds": 1e400}']) {
      const response = await call(saveRoute, progressPath(video.streamVideoId), {
        method: 'PUT',
        bearer: viewerToken,
        params: params(video.streamVideoId),
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
    }
    expect(await save(video.streamVideoId, 126, viewerToken)).toMatchObject({
      status: 400,
      body: { message: 'The position is past the end of the video.' },
    });
    expect(await rows(viewer)).toBe(0);
  });

  it('answers visitors 401, bad ids 400, hidden or unknown videos 404; the owner may save their own unpublished video', async () => {
    const video = await insertVideo(database.db, creator);
    const pending = await insertVideo(database.db, creator, {
      title: 'own pending',
      moderationStatus: 'pending',
      publishedAt: null,
    });
    for (const response of [
      await save(video.streamVideoId, 5),
      await progressOf(video.streamVideoId),
      await call(listRoute, '/api/users/me/history'),
      await remove(video.streamVideoId),
      await clear(),
      await pause(true),
    ]) {
      expect(response).toMatchObject({ status: 401, body: { message: 'Please log in to continue.' } });
    }
    expect(await save('</script >\u0000', 5, viewerToken)).toMatchObject({
      status: 400,
      body: { message: 'The video id is not valid.' },
    });
    expect(await remove('</script >', viewerToken)).toMatchObject({ status: 400 });
    expect(await save('unknownVideo1', 5, viewerToken)).toMatchObject({ status: 404, body: { message: 'Video not found' } });
    expect(await save(pending.streamVideoId, 5, viewerToken)).toMatchObject({
      status: 404,
      body: { message: 'Video not found' },
    });
    expect((await progressOf(pending.streamVideoId, viewerToken)).body).toEqual({ progress: null, paused: false });
    expect(await save(pending.streamVideoId, 5, creatorToken)).toMatchObject({ status: 200, body: { saved: true } });
    const bad = await call(listRoute, '/api/users/me/history?cursor=%3C%2Fscript%20%3E', { bearer: viewerToken });
    expect(bad).toMatchObject({ status: 400, body: { message: 'The cursor is not valid. Start again from page 1.' } });
    expect(await pause('yes', viewerToken)).toMatchObject({ status: 400, body: { message: 'paused must be true or false' } });
  });

  it("removes one, clears all, and only ever the caller's own rows", async () => {
    const a = await insertVideo(database.db, creator, { title: 'keep' });
    const b = await insertVideo(database.db, creator, { title: 'remove' });
    for (const token of [viewerToken, otherToken]) {
      await save(a.streamVideoId, 6, token);
      await save(b.streamVideoId, 6, token);
    }
    // Another member's DELETE removes only their own row; the query string cannot name someone else's history.
    expect(await remove(b.streamVideoId, otherToken)).toMatchObject({ status: 200, body: { removed: 1 } });
    expect(titles(await list(viewerToken))).toEqual(['remove', 'keep']);
    expect(titles(await list(otherToken, `user=${viewer}&userId=${viewer}`))).toEqual(['keep']);
    expect(await remove(b.streamVideoId, viewerToken)).toMatchObject({ status: 200, body: { removed: 1 } });
    expect(await remove(b.streamVideoId, viewerToken)).toMatchObject({ status: 200, body: { removed: 0 } });
    expect(titles(await list(viewerToken))).toEqual(['keep']);
    expect(await clear(viewerToken)).toMatchObject({ status: 200, body: { removed: 1 } });
    expect(titles(await list(viewerToken))).toEqual([]);
    expect(titles(await list(otherToken))).toEqual(['keep']);
  });

  it('writes nothing while paused and says so; resuming records again; what was kept stays', async () => {
    const a = await insertVideo(database.db, creator, { title: 'before the pause' });
    const b = await insertVideo(database.db, creator, { title: 'during the pause' });
    await save(a.streamVideoId, 6, viewerToken);
    expect(await pause(true, viewerToken)).toMatchObject({ status: 200, body: { paused: true } });
    expect(await save(b.streamVideoId, 6, viewerToken)).toMatchObject({ status: 200, body: { saved: false, paused: true } });
    expect(await save(a.streamVideoId, 9, viewerToken)).toMatchObject({ status: 200, body: { saved: false, paused: true } });
    const page = await list(viewerToken);
    expect(titles(page)).toEqual(['before the pause']);
    expect(page.paused).toBe(true);
    expect(page.videos[0]!.progress.positionSeconds).toBe(6);
    expect(await pause(false, viewerToken)).toMatchObject({ status: 200, body: { paused: false } });
    expect(await save(b.streamVideoId, 6, viewerToken)).toMatchObject({ status: 200, body: { saved: true } });
    expect(titles(await list(viewerToken))).toEqual(['during the pause', 'before the pause']);
  });

  it('pages by cursor, hides videos that stop being public, and drops rows with a deleted video', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await insertVideo(database.db, creator, { title: `video ${i}` }));
    for (const video of made) await save(video.streamVideoId, 6, viewerToken);
    const first = await list(viewerToken, 'limit=2');
    expect(titles(first)).toEqual(['video 4', 'video 3']);
    const second = await list(viewerToken, `limit=2&cursor=${first.pagination.nextCursor}`);
    expect(titles(second)).toEqual(['video 2', 'video 1']);
    await database.db.update(videos).set({ moderationStatus: 'rejected' }).where(eq(videos.id, made[4]!.id));
    await database.db.delete(videos).where(eq(videos.id, made[3]!.id));
    expect(titles(await list(viewerToken))).toEqual(['video 2', 'video 1', 'video 0']);
    expect(await rows(viewer)).toBe(4);
    await database.db.update(videos).set({ moderationStatus: 'approved' }).where(eq(videos.id, made[4]!.id));
    expect(titles(await list(viewerToken))[0]).toBe('video 4');
  });

  it(`keeps the ${WATCH_HISTORY_MAX} most recently watched videos`, async () => {
    const video = await insertVideo(database.db, creator, { title: 'the newest' });
    // A full history, straight into the table: every row older than the video about to be watched.
    const fillers = await queryRows<{ id: string }>(
      database.db,
      sql`INSERT INTO videos (stream_video_id, owner_id, title, category, source_key, source_bytes, processing_state, moderation_status, published_at, duration_seconds)
          SELECT 'filler' || g, ${creator}, 'filler ' || g, 'Sissy', 'filler-' || g || '.mp4', 1, 'ready', 'approved', now(), 600
          FROM generate_series(1, ${WATCH_HISTORY_MAX}) g RETURNING id`,
    );
    await queryRows(
      database.db,
      sql`INSERT INTO watch_history (user_id, video_id, position_seconds, updated_at)
          SELECT ${viewer}, v.id, 10, now() - make_interval(secs => row_number() OVER (ORDER BY v.stream_video_id))
          FROM videos v WHERE v.stream_video_id LIKE 'filler%'`,
    );
    expect(fillers).toHaveLength(WATCH_HISTORY_MAX);
    expect(await rows(viewer)).toBe(WATCH_HISTORY_MAX);
    await save(video.streamVideoId, 6, viewerToken);
    expect(await rows(viewer)).toBe(WATCH_HISTORY_MAX);
    // The oldest went (filler999, first in text order's reverse, so watched longest ago): filler998 is now the oldest.
    const [oldest] = await queryRows<{ title: string }>(
      database.db,
      sql`SELECT v.title FROM watch_history h JOIN videos v ON v.id = h.video_id WHERE h.user_id = ${viewer} ORDER BY h.updated_at LIMIT 1`,
    );
    expect(oldest!.title).toBe('filler 998');
    expect(titles(await list(viewerToken, 'limit=1'))).toEqual(['the newest']);
    // Updating a row already there never trims.
    await save(video.streamVideoId, 7, viewerToken);
    expect(await rows(viewer)).toBe(WATCH_HISTORY_MAX);
  });

  it("goes with the member's account", async () => {
    const token = await verifiedMemberToken(database.db, 'hleaver');
    const leaver = await userId(database.db, 'hleaver');
    const video = await insertVideo(database.db, creator);
    await save(video.streamVideoId, 6, token);
    expect(await rows(leaver)).toBe(1);
    const response = await call(deleteAccountRoute, '/api/users/settings/account', {
      method: 'DELETE',
      bearer: token,
      json: { currentPassword: 'hleaver-password-1', username: 'hleaver' },
    });
    expect(response.status).toBe(200);
    expect(await rows(leaver)).toBe(0);
  });
});
