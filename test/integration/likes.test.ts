import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';

import { GET as likedVideos } from '@/app/api/users/me/liked-videos/route';
import { DELETE as unlikeRoute, GET as likeStateRoute, POST as likeRoute } from '@/app/api/videos/[streamVideoId]/like/route';
import { GET as videoById } from '@/app/api/videos/[streamVideoId]/route';
import { installDatabase, queryRows } from '@/lib/db';
import { blocks, notifications, videoLikes, videos, type Video } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-likes-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Listed = { _id: string; streamVideoId: string; title: string; likedBy: string[] };
type Pagination = { page: number; limit: number; hasMore: boolean; nextCursor: string | null };

const likePath = (id: string) => `/api/videos/${id}/like`;
const params = (id: string) => ({ streamVideoId: id });

describe.each(ENGINES)('likes on %s', (engine) => {
  let database: TestDatabase;
  let creatorToken: string;
  let fanToken: string;
  let otherToken: string;
  let creator: string;
  let fan: string;
  let other: string;
  /** More members for the concurrency tests. */
  const crowd: { id: string; token: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    creatorToken = await verifiedMemberToken(database.db, 'creator');
    fanToken = await verifiedMemberToken(database.db, 'fan');
    otherToken = await verifiedMemberToken(database.db, 'other_fan');
    creator = await userId(database.db, 'creator');
    fan = await userId(database.db, 'fan');
    other = await userId(database.db, 'other_fan');
    for (let i = 0; i < 5; i += 1) {
      const token = await verifiedMemberToken(database.db, `crowd_${i}`);
      crowd.push({ token, id: await userId(database.db, `crowd_${i}`) });
    }
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
    await database.db.delete(notifications);
    await database.db.delete(blocks);
  });

  const likeAs = (token: string | undefined, id: string) =>
    call(likeRoute, likePath(id), { method: 'POST', bearer: token, params: params(id) });
  const unlikeAs = (token: string | undefined, id: string) =>
    call(unlikeRoute, likePath(id), { method: 'DELETE', bearer: token, params: params(id) });
  const stateAs = (token: string | undefined, id: string) =>
    call(likeStateRoute, likePath(id), { bearer: token, params: params(id) });

  /** likes_count and the number of video_likes rows, read straight from the tables. */
  async function counts(video: Video): Promise<{ count: number; rows: number }> {
    const [row] = await queryRows<{ count: number; rows: number }>(
      database.db,
      sql`SELECT v.likes_count AS count, (SELECT count(*) FROM video_likes l WHERE l.video_id = v.id)::int AS rows FROM videos v WHERE v.id = ${video.id}`,
    );
    return { count: Number(row!.count), rows: Number(row!.rows) };
  }

  const likeNotifications = (video: Video) =>
    database.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.type, 'like'),
          eq(notifications.recipientId, creator),
          sql`${notifications.link} = ${`/video/${video.streamVideoId}`}`,
        ),
      );

  it('likes and unlikes, idempotently, and the video object lists the member', async () => {
    const video = await insertVideo(database.db, creator, { title: 'Mirror practice' });
    const id = video.streamVideoId;

    expect(await stateAs(fanToken, id)).toMatchObject({ status: 200, body: { liked: false, likes: 0 } });
    const liked = await likeAs(fanToken, id);
    expect(liked.status).toBe(200);
    expect(liked.body).toEqual({ liked: true, likes: 1 });
    expect(liked.headers.get('cache-control')).toBe('no-store');
    expect((await likeAs(fanToken, id)).body).toEqual({ liked: true, likes: 1 });
    expect(await stateAs(fanToken, id)).toMatchObject({ status: 200, body: { liked: true, likes: 1 } });
    expect(await stateAs(otherToken, id)).toMatchObject({ status: 200, body: { liked: false, likes: 1 } });
    expect(await stateAs(undefined, id)).toMatchObject({ status: 200, body: { liked: false, likes: 1 } });
    expect(((await call(videoById, `/api/videos/${id}`, { params: params(id) })).body.video as Listed).likedBy).toEqual([fan]);

    expect((await likeAs(otherToken, id)).body).toEqual({ liked: true, likes: 2 });
    expect(await counts(video)).toEqual({ count: 2, rows: 2 });

    expect(await unlikeAs(fanToken, id)).toMatchObject({ status: 200, body: { liked: false, likes: 1 } });
    expect(await unlikeAs(fanToken, id)).toMatchObject({ status: 200, body: { liked: false, likes: 1 } });
    expect(((await call(videoById, `/api/videos/${id}`, { params: params(id) })).body.video as Listed).likedBy).toEqual([other]);
    expect(await counts(video)).toEqual({ count: 1, rows: 1 });
  });

  it('refuses liking your own video with a message', async () => {
    const video = await insertVideo(database.db, creator);
    const response = await likeAs(creatorToken, video.streamVideoId);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('You cannot like your own video.');
    expect(await counts(video)).toEqual({ count: 0, rows: 0 });
    // Unliking is idempotent: there is nothing of yours to remove.
    expect(await unlikeAs(creatorToken, video.streamVideoId)).toMatchObject({ status: 200, body: { liked: false, likes: 0 } });
  });

  it('answers 404 for unknown and unpublished videos, and 400 for malformed ids, never 500', async () => {
    const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
    const rejected = await insertVideo(database.db, creator, { moderationStatus: 'rejected', publishedAt: null });
    const processing = await insertVideo(database.db, creator, { processingState: 'processing' });
    const hidden = await insertVideo(database.db, creator, { ownerBanned: true });
    for (const id of [
      'doesNotExist123',
      pending.streamVideoId,
      rejected.streamVideoId,
      processing.streamVideoId,
      hidden.streamVideoId,
    ]) {
      for (const send of [likeAs, unlikeAs, stateAs]) {
        const response = await send(fanToken, id);
        expect(response.status).toBe(404);
        expect(response.body.message).toBe('Video not found');
      }
    }
    for (const id of ['x'.repeat(33), 'has space', "'; DROP TABLE videos; --", '../etc', 'ümlaut', '']) {
      for (const send of [likeAs, unlikeAs, stateAs]) {
        const response = await send(fanToken, id);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('The video id is not valid.');
      }
    }
    expect(await database.db.select().from(videoLikes)).toEqual([]);
  });

  it('needs a login to like or unlike, and refuses cookie writes from other sites', async () => {
    const video = await insertVideo(database.db, creator);
    const id = video.streamVideoId;
    expect(await likeAs(undefined, id)).toMatchObject({ status: 401 });
    expect(await unlikeAs(undefined, id)).toMatchObject({ status: 401 });
    expect(await likeAs('not-a-token', id)).toMatchObject({ status: 401 });
    expect(await call(likedVideos, '/api/users/me/liked-videos')).toMatchObject({ status: 401 });

    const cookie = `chrysalis_session=${fanToken}`;
    const forged = await call(likeRoute, likePath(id), {
      method: 'POST',
      cookie,
      headers: { origin: 'https://evil.example' },
      params: params(id),
    });
    expect(forged.status).toBe(403);
    const sameSite = await call(likeRoute, likePath(id), {
      method: 'POST',
      cookie,
      headers: { origin: ORIGIN },
      params: params(id),
    });
    expect(sameSite).toMatchObject({ status: 200, body: { liked: true, likes: 1 } });
  });

  it('tells the owner once per member and video, even across like, unlike and like again', async () => {
    const video = await insertVideo(database.db, creator, { title: 'Velvet hour' });
    const id = video.streamVideoId;
    await likeAs(fanToken, id);
    await unlikeAs(fanToken, id);
    await likeAs(fanToken, id);
    await likeAs(fanToken, id);
    const sent = await likeNotifications(video);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      recipientId: creator,
      senderId: fan,
      type: 'like',
      link: `/video/${id}`,
      message: 'fan liked your video "Velvet hour"',
      readAt: null,
    });

    await likeAs(otherToken, id);
    expect(await likeNotifications(video)).toHaveLength(2);
    // Nothing for anybody else, and nothing for the likers.
    expect((await database.db.select().from(notifications)).every((n) => n.recipientId === creator)).toBe(true);
  });

  it('does not notify the owner about a member they blocked (the like still counts)', async () => {
    const video = await insertVideo(database.db, creator);
    await database.db.insert(blocks).values({ blockerId: creator, blockedId: fan });
    expect((await likeAs(fanToken, video.streamVideoId)).body).toEqual({ liked: true, likes: 1 });
    expect(await likeNotifications(video)).toHaveLength(0);
  });

  it('removes only the caller’s own like', async () => {
    const video = await insertVideo(database.db, creator);
    const id = video.streamVideoId;
    await likeAs(fanToken, id);
    await likeAs(otherToken, id);
    expect((await unlikeAs(otherToken, id)).body).toEqual({ liked: false, likes: 1 });
    expect((await unlikeAs(creatorToken, id)).body).toEqual({ liked: false, likes: 1 });
    const rows = await database.db.select().from(videoLikes).where(eq(videoLikes.videoId, video.id));
    expect(rows.map((row) => row.userId)).toEqual([fan]);
    expect(await stateAs(fanToken, id)).toMatchObject({ body: { liked: true, likes: 1 } });
  });

  it('adds one like for 100 parallel likes by one member, and notifies once', async () => {
    const video = await insertVideo(database.db, creator);
    const answers = await Promise.all(Array.from({ length: 100 }, () => likeAs(fanToken, video.streamVideoId)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200));
    expect(answers.every((answer) => answer.body.liked === true)).toBe(true);
    expect(await counts(video)).toEqual({ count: 1, rows: 1 });
    expect(await likeNotifications(video)).toHaveLength(1);
  });

  it('keeps likes_count equal to the rows through 100 parallel likes and unlikes by several members', async () => {
    const video = await insertVideo(database.db, creator);
    const members = [...crowd, { id: fan, token: fanToken }, { id: other, token: otherToken }];
    // Every member toggles in an interleaved order; some end liked, some not, depending on the race.
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const member = members[i % members.length]!;
        return (i % 3 === 0 ? unlikeAs : likeAs)(member.token, video.streamVideoId);
      }),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const after = await counts(video);
    expect(after.count).toBe(after.rows);
    expect(after.rows).toBeLessThanOrEqual(members.length);
    // One notification per member who ever liked it, no more.
    const senders = (await likeNotifications(video)).map((n) => n.senderId);
    expect(new Set(senders).size).toBe(senders.length);

    // And a second round in which everyone ends unliked.
    await Promise.all(
      members.flatMap((member) => [likeAs(member.token, video.streamVideoId), unlikeAs(member.token, video.streamVideoId)]),
    );
    await Promise.all(members.map((member) => unlikeAs(member.token, video.streamVideoId)));
    expect(await counts(video)).toEqual({ count: 0, rows: 0 });
  });

  describe('the liked-videos list', () => {
    const titles = (body: Record<string, unknown>) => (body.videos as Listed[]).map((video) => video.title);
    const list = (query = '', token: string | undefined = fanToken) =>
      call(likedVideos, `/api/users/me/liked-videos${query}`, { bearer: token });

    /** Likes videos in order, each a minute after the last (newest like last). */
    async function likeInOrder(token: string, member: string, liked: Video[]) {
      for (const [index, video] of liked.entries()) {
        expect((await likeAs(token, video.streamVideoId)).status).toBe(200);
        await database.db
          .update(videoLikes)
          .set({ createdAt: new Date(Date.now() - (liked.length - index) * 60_000) })
          .where(and(eq(videoLikes.videoId, video.id), eq(videoLikes.userId, member)));
      }
    }

    it('is empty before the first like', async () => {
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ videos: [], pagination: { page: 1, limit: 12, hasMore: false, nextCursor: null } });
    });

    it('lists the caller’s liked public videos, newest like first, by page and by cursor', async () => {
      // Published in the opposite order to the likes, so the order is the likes' and not the videos'.
      const made: Video[] = [];
      for (let i = 0; i < 5; i += 1)
        made.push(
          await insertVideo(database.db, creator, { title: `clip ${i}`, publishedAt: new Date(Date.now() - i * 3_600_000) }),
        );
      await likeInOrder(fanToken, fan, made); // clip 4 is the newest like
      await likeAs(otherToken, made[0]!.streamVideoId); // someone else's like is not in fan's list

      const first = await list('?limit=2');
      expect(first.status).toBe(200);
      expect(titles(first.body)).toEqual(['clip 4', 'clip 3']);
      const firstPage = first.body.pagination as Pagination;
      expect(firstPage).toMatchObject({ page: 1, limit: 2, hasMore: true });
      const second = await list(`?limit=2&cursor=${firstPage.nextCursor}`);
      expect(titles(second.body)).toEqual(['clip 2', 'clip 1']);
      const third = await list(`?limit=2&cursor=${(second.body.pagination as Pagination).nextCursor}`);
      expect(titles(third.body)).toEqual(['clip 0']);
      expect(third.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });
      expect(titles((await list('?limit=2&page=2')).body)).toEqual(['clip 2', 'clip 1']);
      expect(titles((await list('', otherToken)).body)).toEqual(['clip 0']);
      expect(titles((await list('', creatorToken)).body)).toEqual([]);

      // A cursor stays right when the card before it is unliked meanwhile.
      await unlikeAs(fanToken, made[3]!.streamVideoId);
      expect(titles((await list(`?limit=2&cursor=${firstPage.nextCursor}`)).body)).toEqual(['clip 2', 'clip 1']);

      // Liking again moves a video to the top.
      await likeAs(fanToken, made[0]!.streamVideoId);
      await unlikeAs(fanToken, made[0]!.streamVideoId);
      await likeAs(fanToken, made[0]!.streamVideoId);
      expect(titles((await list()).body)).toEqual(['clip 0', 'clip 4', 'clip 2', 'clip 1']);
    });

    it('leaves out videos that are no longer public', async () => {
      const shown = await insertVideo(database.db, creator, { title: 'still public' });
      const pulled = await insertVideo(database.db, creator, { title: 'pulled later' });
      await likeAs(fanToken, shown.streamVideoId);
      await likeAs(fanToken, pulled.streamVideoId);
      await database.db.update(videos).set({ moderationStatus: 'rejected' }).where(eq(videos.id, pulled.id));
      expect(titles((await list()).body)).toEqual(['still public']);
      await database.db.update(videos).set({ moderationStatus: 'approved', ownerBanned: true }).where(eq(videos.id, pulled.id));
      expect(titles((await list()).body)).toEqual(['still public']);
    });

    it.each([
      ['limit=0', 'limit must be at least 1'],
      ['limit=51', 'limit must be at most 50'],
      ['page=x', 'page must be a number'],
      ['cursor=junk', 'The cursor is not valid. Start again from page 1.'],
      [
        `cursor=${Buffer.from('2025-01-01T00:00:00.000000Z|not-a-uuid').toString('base64url')}`,
        'The cursor is not valid. Start again from page 1.',
      ],
      // 30 February: JavaScript rolls it over to March, PostgreSQL refuses it; a 400, not a 500.
      [
        `cursor=${Buffer.from('2026-02-30T00:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
        'The cursor is not valid. Start again from page 1.',
      ],
      [
        `cursor=${Buffer.from("2025-01-01'; --|00000000-0000-0000-0000-000000000000").toString('base64url')}`,
        'The cursor is not valid. Start again from page 1.',
      ],
    ])('refuses %s with a clear 400', async (query, message) => {
      const response = await list(`?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    });
  });
});
