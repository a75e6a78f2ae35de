import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, like } from 'drizzle-orm';

import { DELETE as deleteRoute, PATCH as editRoute } from '@/app/api/comments/[id]/route';
import { GET as listRoute, POST as postRoute } from '@/app/api/videos/[streamVideoId]/comments/route';
import type { CommentDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import { blocks, comments, notifications, rateLimits, users, videos, type Video } from '@/lib/db/schema';
import { onAppEvent } from '@/lib/events';
import { commentPage } from '@/lib/server/community/comments';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-comments-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Page = { comments: CommentDto[]; total: number; pagination: { limit: number; hasMore: boolean; nextCursor: string | null } };

const listPath = (streamVideoId: string, query = '') => `/api/videos/${streamVideoId}/comments${query}`;
const commentPath = (id: string) => `/api/comments/${id}`;

// The services purge the cached video page; a listener records what was purged.
const purged: string[] = [];
onAppEvent('public-content-changed', (prefix) => purged.push(prefix));

describe.each(ENGINES)('comments on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let aliceToken: string;
  let bobToken: string;
  let adminToken: string;
  let owner: string;
  let alice: string;
  let bob: string;
  let video: Video;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    ownerToken = await verifiedMemberToken(database.db, 'creator');
    aliceToken = await verifiedMemberToken(database.db, 'alice');
    bobToken = await verifiedMemberToken(database.db, 'bob');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    owner = await userId(database.db, 'creator');
    alice = await userId(database.db, 'alice');
    bob = await userId(database.db, 'bob');
    // Eight argon2 hashes and checks and the PGlite migrations: room for a busy 2-core runner, as daily-tasks has.
  }, 120_000);
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
    await database.db.delete(notifications);
    await database.db.delete(blocks);
    await database.db.delete(rateLimits);
    await database.db.update(users).set({ bannedAt: null });
    purged.length = 0;
    video = await insertVideo(database.db, owner, { title: 'Commented on' });
  });

  const post = (token: string | undefined, body: unknown, streamVideoId = video.streamVideoId) =>
    call(postRoute, listPath(streamVideoId), {
      method: 'POST',
      json: body === undefined ? {} : { body },
      bearer: token,
      params: { streamVideoId },
    });
  const list = (query = '', token?: string, streamVideoId = video.streamVideoId) =>
    call(listRoute, listPath(streamVideoId, query), { bearer: token, params: { streamVideoId } });
  const edit = (token: string | undefined, id: string, body: unknown) =>
    call(editRoute, commentPath(id), { method: 'PATCH', json: { body }, bearer: token, params: { id } });
  const remove = (token: string | undefined, id: string) =>
    call(deleteRoute, commentPath(id), { method: 'DELETE', bearer: token, params: { id } });
  const posted = async (token: string, body: string) => {
    const response = await post(token, body);
    expect(response.status).toBe(201);
    return response.body.comment as CommentDto;
  };

  it('posts a comment, lists it newest first with its author, and tells the video owner', async () => {
    const first = await posted(aliceToken, '  First!  ');
    const second = await posted(bobToken, 'Second,\nwith a line break');
    expect(first).toEqual({
      _id: expect.any(String),
      body: 'First!',
      createdAt: expect.any(String),
      editedAt: null,
      author: { _id: alice, username: 'alice', profilePhotoUrl: null },
      parentId: null,
      replyCount: 0,
    });
    expect(Date.parse(first.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const page = listed.body as unknown as Page;
    expect(page.comments.map((comment) => comment.body)).toEqual(['Second,\nwith a line break', 'First!']);
    expect(page.comments[0]).toEqual(second);
    expect(page.total).toBe(2);
    expect(page.pagination).toEqual({ limit: 20, hasMore: false, nextCursor: null });

    const told = await database.db.select().from(notifications).where(eq(notifications.recipientId, owner));
    expect(told).toHaveLength(2);
    expect(told.find((n) => n.senderId === alice)).toMatchObject({
      type: 'comment',
      link: `/video/${video.streamVideoId}#comment-${first._id}`,
      message: null,
      readAt: null,
    });
    expect(purged).toEqual([`/video/${video.streamVideoId}`, `/video/${video.streamVideoId}`]);
  });

  it('does not notify the owner about their own comment', async () => {
    await posted(ownerToken, 'Thanks for watching!');
    expect(await database.db.select().from(notifications)).toHaveLength(0);
  });

  it('shows a photo when the author has one', async () => {
    await database.db.update(users).set({ profilePhotoKey: 'abc123' }).where(eq(users.id, alice));
    try {
      expect((await posted(aliceToken, 'with a face')).author.profilePhotoUrl).toBe('/media/avatars/abc123-64.webp');
    } finally {
      await database.db.update(users).set({ profilePhotoKey: null }).where(eq(users.id, alice));
    }
  });

  it('pages with a cursor, 20 at a time, without gaps or repeats, even for comments made in the same microsecond', async () => {
    const base = Date.now() - 3_600_000;
    const rows = Array.from({ length: 45 }, (_, i) => ({
      videoId: video.id,
      authorId: i % 2 ? alice : bob,
      body: `comment ${String(i).padStart(2, '0')}`,
      // Groups of three share a timestamp, and each has microseconds JavaScript dates cannot hold.
      createdAt: new Date(base + Math.floor(i / 3) * 1000),
    }));
    await database.db.insert(comments).values(rows);
    await database.db.execute(`UPDATE comments SET created_at = created_at + interval '123 microseconds'`);

    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const response = await list(cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');
      expect(response.status).toBe(200);
      const page = response.body as unknown as Page;
      expect(page.total).toBe(45);
      sizes.push(page.comments.length);
      seen.push(...page.comments.map((comment) => comment.body));
      cursor = page.pagination.nextCursor;
      expect(page.pagination.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(sizes).toEqual([20, 20, 5]);
    expect(new Set(seen).size).toBe(45);
    // Newest first: later timestamps first (ties in id order, which we do not assert).
    const groups = seen.map((body) => Math.floor(Number(body.slice(-2)) / 3));
    expect(groups).toEqual([...groups].sort((a, b) => b - a));

    const small = (await list('?limit=7')).body as unknown as Page;
    expect(small.comments).toHaveLength(7);
    expect(small.pagination.limit).toBe(7);
    expect(small.pagination.hasMore).toBe(true);
  });

  it('refuses bad list parameters with a 400 and a message', async () => {
    for (const query of [
      '?cursor=nonsense',
      `?cursor=${Buffer.from('2026-01-01T00:00:00.000000Z|not-a-uuid').toString('base64url')}`,
      `?cursor=${Buffer.from("x'; DROP TABLE comments;--|y").toString('base64url')}`,
      `?cursor=${Buffer.from('2026-02-30T00:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
    ]) {
      const response = await list(query);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('The cursor is not valid. Start again from the first page.');
    }
    expect((await list('?limit=51')).body.message).toBe('limit must be at most 50');
    expect((await list('?limit=0')).status).toBe(400);
    expect((await list('?limit=abc')).status).toBe(400);
  });

  it('refuses empty, blank and too long comments with clear messages', async () => {
    for (const body of ['', '   ', '\n\t \n', '\u0000\u0001', undefined, null, 42, ['a']]) {
      const response = await post(aliceToken, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'Write a comment first.', field: 'body' });
    }
    const tooLong = await post(aliceToken, 'x'.repeat(2001));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Comments can be at most 2000 characters.');
    expect((await post(aliceToken, `  ${'x'.repeat(2000)}  `)).status).toBe(201);
    // Characters as people count them: 2000 emoji are 2000 characters.
    expect((await post(aliceToken, '🦋'.repeat(2000))).status).toBe(201);
    expect((await post(aliceToken, '🦋'.repeat(2001))).body.message).toBe('Comments can be at most 2000 characters.');
    const notJson = await call(postRoute, listPath(video.streamVideoId), {
      method: 'POST',
      body: '{"body":',
      headers: { 'content-type': 'application/json' },
      bearer: aliceToken,
      params: { streamVideoId: video.streamVideoId },
    });
    expect(notJson.status).toBe(400);
    expect((await list()).body.total).toBe(2);
  });

  it('stores script text verbatim and returns it as text', async () => {
    const nasty = '<script>alert("x")</script> <img src=x onerror=alert(1)> javascript:alert(1) \'; DROP TABLE comments; --';
    const comment = await posted(aliceToken, nasty);
    expect(comment.body).toBe(nasty);
    const [row] = await database.db.select().from(comments).where(eq(comments.id, comment._id));
    expect(row!.body).toBe(nasty);
    const listed = await list();
    expect((listed.body as unknown as Page).comments[0]!.body).toBe(nasty);
    expect(listed.headers.get('content-type')).toContain('application/json');
  });

  it('needs a login to post, edit or delete', async () => {
    const comment = await posted(aliceToken, 'mine');
    expect((await post(undefined, 'anonymous')).status).toBe(401);
    expect((await edit(undefined, comment._id, 'changed')).status).toBe(401);
    expect((await remove(undefined, comment._id)).status).toBe(401);
    // Reading needs no login.
    expect((await list()).status).toBe(200);
  });

  it('lets only the author edit, marking the comment edited', async () => {
    const comment = await posted(aliceToken, 'original');
    for (const token of [bobToken, ownerToken, adminToken]) {
      const refused = await edit(token, comment._id, 'hijacked');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('You can only edit your own comments.');
    }
    const unchanged = await edit(aliceToken, comment._id, '  original ');
    expect(unchanged.status).toBe(200);
    expect((unchanged.body.comment as CommentDto).editedAt).toBeNull();

    purged.length = 0;
    const edited = await edit(aliceToken, comment._id, 'changed\nmy mind');
    expect(edited.status).toBe(200);
    const updated = edited.body.comment as CommentDto;
    expect(updated).toMatchObject({ _id: comment._id, body: 'changed\nmy mind', createdAt: comment.createdAt });
    expect(Date.parse(updated.editedAt!)).toBeGreaterThanOrEqual(Date.parse(comment.createdAt));
    expect(purged).toEqual([`/video/${video.streamVideoId}`]);
    expect((await list()).body.comments).toEqual([updated]);

    expect((await edit(aliceToken, comment._id, '')).body.message).toBe('Write a comment first.');
    expect((await edit(aliceToken, comment._id, 'y'.repeat(2001))).body.message).toBe('Comments can be at most 2000 characters.');
  });

  it('lets the author, the video owner and admins delete; others get 403', async () => {
    const byAuthor = await posted(aliceToken, 'delete me myself');
    const byOwner = await posted(aliceToken, 'the owner removes this');
    const byAdmin = await posted(aliceToken, 'an admin removes this');
    expect(await database.db.select().from(notifications)).toHaveLength(3);

    const refused = await remove(bobToken, byAuthor._id);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You can only delete your own comments, or comments on your own videos.');

    purged.length = 0;
    for (const [token, comment] of [
      [aliceToken, byAuthor],
      [ownerToken, byOwner],
      [adminToken, byAdmin],
    ] as const) {
      const response = await remove(token, comment._id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
      expect((await remove(token, comment._id)).status).toBe(404);
    }
    expect(purged).toHaveLength(3);
    expect((await list()).body).toMatchObject({ comments: [], total: 0 });
    // The owner's notifications about them went with them.
    expect(await database.db.select().from(notifications)).toHaveLength(0);

    // The owner of another video has no say over comments here.
    const elsewhere = await insertVideo(database.db, bob);
    const onBobs = (await post(aliceToken, 'on bob’s video', elsewhere.streamVideoId)).body.comment as CommentDto;
    expect((await remove(ownerToken, onBobs._id)).status).toBe(403);
    expect((await remove(bobToken, onBobs._id)).status).toBe(200);
  });

  it('refuses comments from members the video owner blocked, and hides blocked members’ comments from the blocker', async () => {
    const earlier = await posted(aliceToken, 'said before the block');
    await database.db.insert(blocks).values({ blockerId: owner, blockedId: alice });
    const refused = await post(aliceToken, 'let me in');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You cannot comment on this video.');
    expect((await edit(aliceToken, earlier._id, 'sneaky edit')).status).toBe(403);
    // Blocking is one-way: the owner and others still comment, and the owner can still remove the old comment.
    expect((await post(ownerToken, 'my own video')).status).toBe(201);
    expect((await post(bobToken, 'hello')).status).toBe(201);

    const forOwner = (await list('', ownerToken)).body as unknown as Page;
    expect(forOwner.comments.map((c) => c.body)).toEqual(['hello', 'my own video']);
    expect(forOwner.total).toBe(2);
    const forVisitors = (await list()).body as unknown as Page;
    expect(forVisitors.comments.map((c) => c.body)).toEqual(['hello', 'my own video', 'said before the block']);
    expect(((await list('', bobToken)).body as unknown as Page).comments).toHaveLength(3);
    // The first page the (shared, cached) video page renders is the visitors' view.
    expect((await commentPage(video.id)).comments).toHaveLength(3);

    // A block the other way round (alice blocked the owner) does not stop alice commenting.
    await database.db.delete(blocks);
    await database.db.insert(blocks).values({ blockerId: alice, blockedId: owner });
    expect((await post(aliceToken, 'still allowed')).status).toBe(201);
    expect((await remove(ownerToken, earlier._id)).status).toBe(200);
  });

  it('hides the comments of banned members and refuses their calls', async () => {
    await posted(aliceToken, 'before the ban');
    await posted(bobToken, 'still here');
    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, alice));
    expect(((await list()).body as unknown as Page).comments.map((c) => c.body)).toEqual(['still here']);
    const refused = await post(aliceToken, 'after the ban');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Account is banned');
  });

  it('limits each member to 5 comments a minute and 60 a day, with a message and Retry-After', async () => {
    for (let i = 0; i < 5; i += 1) expect((await post(aliceToken, `burst ${i}`)).status).toBe(201);
    const tooFast = await post(aliceToken, 'one more');
    expect(tooFast.status).toBe(429);
    expect(tooFast.body.message).toBe('You are commenting too quickly. Please wait a moment before posting again.');
    const retryAfter = Number(tooFast.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(tooFast.body.retryAfter).toBe(retryAfter);
    // Others are not affected, and refused input does not count against the budget.
    expect((await post(bobToken, 'my turn')).status).toBe(201);
    expect((await post(bobToken, '')).status).toBe(400);

    // Past the minute window (simulated by forgetting the minute counter), the daily limit still holds.
    for (let i = 5; i < 60; i += 1) {
      if (i % 5 === 0) await database.db.delete(rateLimits).where(like(rateLimits.key, 'commentPerMinute%'));
      expect((await post(aliceToken, `steady ${i}`)).status).toBe(201);
    }
    await database.db.delete(rateLimits).where(like(rateLimits.key, 'commentPerMinute%'));
    const daily = await post(aliceToken, 'number 61');
    expect(daily.status).toBe(429);
    expect(daily.body.message).toBe('You have posted a lot of comments today. Please try again tomorrow.');
    expect(Number(daily.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await list()).body.total).toBe(61);
  });

  it('answers 404 for videos that are not public or unknown, and 400 for malformed ids', async () => {
    const pending = await insertVideo(database.db, owner, { moderationStatus: 'pending', publishedAt: null });
    const processing = await insertVideo(database.db, owner, { processingState: 'processing' });
    const hidden = await insertVideo(database.db, owner, { ownerBanned: true });
    for (const streamVideoId of ['bad id!', "x'--", 'a'.repeat(200), '%00']) {
      const read = await list('', undefined, streamVideoId);
      expect(read.status).toBe(400);
      expect(read.body.message).toBe('The video id is not valid.');
      expect(await post(aliceToken, 'hello?', streamVideoId)).toMatchObject({
        status: 400,
        body: { message: 'The video id is not valid.' },
      });
    }
    for (const streamVideoId of [pending.streamVideoId, processing.streamVideoId, hidden.streamVideoId, 'unknownVideo1']) {
      const read = await list('', undefined, streamVideoId);
      expect(read.status).toBe(404);
      expect(read.body.message).toBe('Video not found');
      expect((await post(aliceToken, 'hello?', streamVideoId)).status).toBe(404);
      // Even the owner cannot comment on an unpublished video.
      expect((await post(ownerToken, 'note to self', streamVideoId)).status).toBe(404);
    }
    expect(await database.db.select().from(comments)).toHaveLength(0);
  });

  it('answers 400 for malformed comment ids and 404 for unknown ones, never 500', async () => {
    for (const id of ['not-a-uuid', '123', "1' OR '1'='1", 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '%00']) {
      const edited = await edit(aliceToken, id, 'x');
      expect(edited.status).toBe(400);
      expect(edited.body.message).toBe('The comment id is not valid.');
      expect(await remove(aliceToken, id)).toMatchObject({ status: 400, body: { message: 'The comment id is not valid.' } });
    }
    for (const id of ['00000000-0000-0000-0000-000000000000', crypto.randomUUID()]) {
      const edited = await edit(aliceToken, id, 'x');
      expect(edited.status).toBe(404);
      expect(edited.body.message).toBe('Comment not found');
      expect((await remove(aliceToken, id)).status).toBe(404);
    }
  });
});
