import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';

import { GET as feed } from '@/app/api/feed/following/route';
import { DELETE as unfollowRoute, GET as followStateRoute, POST as followRoute } from '@/app/api/users/[username]/follow/route';
import { GET as profileRoute } from '@/app/api/users/[username]/route';
import { GET as profileVideos } from '@/app/api/users/[username]/videos/route';
import { PUT as profileSettings } from '@/app/api/users/settings/profile/route';
import { installDatabase, queryRows } from '@/lib/db';
import { blocks, follows, notifications, users, videos } from '@/lib/db/schema';
import { resolveToken } from '@/lib/server/auth/session';
import { suggestCreators } from '@/lib/server/community/profiles';
import { resetLimiters } from '@/lib/server/rate-limit';
import { BIO_MAX, PROFILE_MESSAGES } from '@/lib/validation/community';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-follows-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Listed = { _id: string; title: string; uploader: { username: string } };
type Pagination = { page: number; limit: number; hasMore: boolean; nextCursor: string | null };

const followPath = (username: string) => `/api/users/${encodeURIComponent(username)}/follow`;
const named = (username: string) => ({ username });
const titles = (body: Record<string, unknown>) => (body.videos as Listed[]).map((video) => video.title);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe.each(ENGINES)('follows, profiles and the following feed on %s', (engine) => {
  let database: TestDatabase;
  const token: Record<string, string> = {};
  const id: Record<string, string> = {};
  const crowd: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) {
      token[name] = await verifiedMemberToken(database.db, name);
      id[name] = await userId(database.db, name);
    }
    for (let i = 0; i < 4; i += 1) crowd.push(await verifiedMemberToken(database.db, `crowd_${i}`));
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(follows);
    await database.db.delete(videos);
    await database.db.delete(notifications);
    await database.db.delete(blocks);
    await database.db.update(users).set({ bio: '', bannedAt: null });
  });

  const followRows = (follower: string, followee: string) =>
    database.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, id[follower]!), eq(follows.followeeId, id[followee]!)));
  const followNotifications = (recipient: string) =>
    database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, id[recipient]!), eq(notifications.type, 'follow')));
  const doFollow = (who: string, whom: string) =>
    call(followRoute, followPath(whom), { method: 'POST', bearer: token[who], params: named(whom) });
  const doUnfollow = (who: string, whom: string) =>
    call(unfollowRoute, followPath(whom), { method: 'DELETE', bearer: token[who], params: named(whom) });
  const profile = (who: string, whom: string) =>
    call(profileRoute, `/api/users/${encodeURIComponent(whom)}`, { bearer: token[who], params: named(whom) });

  it('follows and unfollows, both idempotent, answering the follower count', async () => {
    expect(await doFollow('alice', 'bob')).toMatchObject({ status: 200, body: { following: true, followers: 1 } });
    expect(await doFollow('alice', 'bob')).toMatchObject({ status: 200, body: { following: true, followers: 1 } });
    expect(await followRows('alice', 'bob')).toHaveLength(1);
    expect(await doFollow('carol', 'bob')).toMatchObject({ status: 200, body: { following: true, followers: 2 } });

    const state = await call(followStateRoute, followPath('bob'), { bearer: token.alice, params: named('bob') });
    expect(state).toMatchObject({ status: 200, body: { following: true, followers: 2 } });

    expect(await doUnfollow('alice', 'bob')).toMatchObject({ status: 200, body: { following: false, followers: 1 } });
    expect(await doUnfollow('alice', 'bob')).toMatchObject({ status: 200, body: { following: false, followers: 1 } });
    expect(await followRows('alice', 'bob')).toHaveLength(0);
    expect(await followRows('carol', 'bob')).toHaveLength(1);
    expect((await call(followStateRoute, followPath('bob'), { bearer: token.alice, params: named('bob') })).body).toEqual({
      following: false,
      followers: 1,
    });
  });

  it('finds members whatever the case of the name', async () => {
    expect(await doFollow('alice', 'BoB')).toMatchObject({ status: 200, body: { following: true, followers: 1 } });
    expect(await followRows('alice', 'bob')).toHaveLength(1);
    expect((await profile('alice', 'BOB')).body).toMatchObject({ user: { username: 'bob' } });
  });

  it('refuses following yourself, unknown or banned members, and visitors', async () => {
    expect(await doFollow('alice', 'alice')).toMatchObject({ status: 400, body: { message: 'You cannot follow yourself.' } });
    expect(await doFollow('alice', 'ALICE')).toMatchObject({ status: 400, body: { message: 'You cannot follow yourself.' } });
    expect(await doFollow('alice', 'nobody_here')).toMatchObject({ status: 404, body: { message: 'Member not found' } });
    expect(await doFollow('alice', 'not a name')).toMatchObject({ status: 404, body: { message: 'Member not found' } });
    expect(await doUnfollow('alice', 'nobody_here')).toMatchObject({ status: 404 });
    expect((await call(followRoute, followPath('bob'), { method: 'POST', params: named('bob') })).status).toBe(401);
    expect((await call(unfollowRoute, followPath('bob'), { method: 'DELETE', params: named('bob') })).status).toBe(401);
    expect((await call(followStateRoute, followPath('bob'), { params: named('bob') })).status).toBe(401);

    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, id.dave!));
    expect(await doFollow('alice', 'dave')).toMatchObject({ status: 404, body: { message: 'Member not found' } });
    expect((await profile('alice', 'dave')).status).toBe(404);
    expect(await database.db.select().from(follows)).toHaveLength(0);
  });

  it('refuses with 403 when the member has blocked you; unfollowing them still works', async () => {
    await doFollow('alice', 'bob');
    await database.db.insert(blocks).values({ blockerId: id.bob!, blockedId: id.alice! });
    await doUnfollow('alice', 'bob');
    const refused = await doFollow('alice', 'bob');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(PROFILE_MESSAGES.blocked);
    expect(await followRows('alice', 'bob')).toHaveLength(0);
    // The other direction is not refused here: alice did not block bob.
    expect((await doFollow('bob', 'alice')).status).toBe(200);
  });

  it('makes one row and one notification for 20 follows at once', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => doFollow('alice', 'carol')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers.every((answer) => answer.body.following === true && answer.body.followers === 1)).toBe(true);
    expect(await followRows('alice', 'carol')).toHaveLength(1);
    const told = await followNotifications('carol');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      senderId: id.alice,
      link: '/profile/alice',
      dedupeKey: `follow:${id.alice}:${id.carol}`,
      message: null,
      readAt: null,
    });
  });

  it('tells the followee once per pair, even after unfollowing and following again', async () => {
    await doFollow('alice', 'bob');
    await doUnfollow('alice', 'bob');
    await doFollow('alice', 'bob');
    expect(await followNotifications('bob')).toHaveLength(1);
    await doFollow('carol', 'bob');
    expect((await followNotifications('bob')).map((n) => n.senderId).sort()).toEqual([id.alice, id.carol].sort());
    expect(await followNotifications('alice')).toHaveLength(0);
  });

  it('lets many members follow one at once and counts them', async () => {
    const answers = await Promise.all([
      ...crowd.map((bearer) => call(followRoute, followPath('erin'), { method: 'POST', bearer, params: named('erin') })),
      ...crowd.map((bearer) => call(followRoute, followPath('erin'), { method: 'POST', bearer, params: named('erin') })),
    ]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect((await profile('alice', 'erin')).body).toMatchObject({ user: { counts: { followers: 4, following: 0 } } });
    expect(await followNotifications('erin')).toHaveLength(4);
  });

  it('answers the profile with its fields and counts (public videos only)', async () => {
    await database.db.update(users).set({ bio: 'Hello <b>there</b>' }).where(eq(users.id, id.bob!));
    await doFollow('alice', 'bob');
    await doFollow('carol', 'bob');
    await doFollow('bob', 'dave');
    await insertVideo(database.db, id.bob!, { title: 'public 1', likesCount: 3 });
    await insertVideo(database.db, id.bob!, { title: 'public 2', likesCount: 4 });
    await insertVideo(database.db, id.bob!, { title: 'pending', moderationStatus: 'pending', publishedAt: null, likesCount: 50 });
    await insertVideo(database.db, id.bob!, { title: 'processing', processingState: 'processing', likesCount: 50 });
    await insertVideo(database.db, id.bob!, { title: 'hidden', ownerBanned: true, likesCount: 50 });

    const seen = await profile('alice', 'bob');
    expect(seen.status).toBe(200);
    const user = seen.body.user as Record<string, unknown>;
    expect(Object.keys(user).sort()).toEqual([
      '_id',
      'bio',
      'counts',
      'createdAt',
      'isFollowing',
      'isSelf',
      'profilePhotoUrl',
      'rewards',
      'username',
    ]);
    expect(user).toMatchObject({
      _id: id.bob,
      username: 'bob',
      bio: 'Hello <b>there</b>',
      profilePhotoUrl: null,
      counts: { videos: 2, followers: 2, following: 1, likesReceived: 7 },
      rewards: { tasks: 0, streak: 0 },
      isFollowing: true,
      isSelf: false,
    });
    expect(new Date(user.createdAt as string).toISOString()).toBe(user.createdAt);
    expect(user).not.toHaveProperty('email');

    expect((await profile('dave', 'bob')).body).toMatchObject({ user: { isFollowing: false, isSelf: false } });
    expect((await profile('bob', 'bob')).body).toMatchObject({ user: { isFollowing: false, isSelf: true } });
    expect((await profile('alice', 'no_such_member')).status).toBe(404);
    expect((await call(profileRoute, '/api/users/bob', { params: named('bob') })).status).toBe(401);
  });

  it('lists a profile’s public videos newest first, by page and by cursor', async () => {
    for (let i = 0; i < 5; i += 1)
      await insertVideo(database.db, id.bob!, { title: `bob ${i}`, publishedAt: minutesAgo(10 - i) });
    await insertVideo(database.db, id.bob!, { title: 'bob pending', moderationStatus: 'pending', publishedAt: null });
    await insertVideo(database.db, id.carol!, { title: 'carol 1' });
    const videosOf = (query: string) =>
      call(profileVideos, `/api/users/bob/videos${query}`, { bearer: token.alice, params: named('bob') });

    const first = await videosOf('?limit=2');
    expect(first.status).toBe(200);
    expect(titles(first.body)).toEqual(['bob 4', 'bob 3']);
    const cursor = (first.body.pagination as Pagination).nextCursor!;
    const second = await videosOf(`?limit=2&page=2&cursor=${cursor}`);
    expect(titles(second.body)).toEqual(['bob 2', 'bob 1']);
    expect(titles((await videosOf('?limit=2&page=2')).body)).toEqual(['bob 2', 'bob 1']);
    const third = await videosOf(`?limit=2&page=3&cursor=${(second.body.pagination as Pagination).nextCursor}`);
    expect(titles(third.body)).toEqual(['bob 0']);
    expect(third.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await videosOf('?cursor=bm9wZQ')).status).toBe(400);
    // 30 February, which PostgreSQL refuses: a 400, not a 500.
    expect(
      (
        await videosOf(
          `?cursor=${Buffer.from('2026-02-30T00:00:00.000000Z|00000000-0000-0000-0000-000000000000').toString('base64url')}`,
        )
      ).status,
    ).toBe(400);
    expect((await call(profileVideos, '/api/users/ghost/videos', { bearer: token.alice, params: named('ghost') })).status).toBe(
      404,
    );
    expect((await call(profileVideos, '/api/users/bob/videos', { params: named('bob') })).status).toBe(401);
  });

  describe('the following feed', () => {
    const feedOf = (who: string, query = '') => call(feed, `/api/feed/following${query}`, { bearer: token[who] });

    it('shows only public videos of the creators the member follows, newest first', async () => {
      await doFollow('alice', 'bob');
      await doFollow('alice', 'carol');
      await doFollow('dave', 'alice');
      await insertVideo(database.db, id.bob!, { title: 'bob old', publishedAt: minutesAgo(30) });
      await insertVideo(database.db, id.carol!, { title: 'carol mid', publishedAt: minutesAgo(20) });
      await insertVideo(database.db, id.bob!, { title: 'bob new', publishedAt: minutesAgo(10) });
      await insertVideo(database.db, id.bob!, { title: 'bob pending', moderationStatus: 'pending', publishedAt: null });
      await insertVideo(database.db, id.bob!, { title: 'bob rejected', moderationStatus: 'rejected', publishedAt: null });
      await insertVideo(database.db, id.bob!, {
        title: 'bob processing',
        processingState: 'processing',
        publishedAt: minutesAgo(1),
      });
      await insertVideo(database.db, id.carol!, { title: 'carol hidden', ownerBanned: true, publishedAt: minutesAgo(1) });
      await insertVideo(database.db, id.dave!, { title: 'dave not followed', publishedAt: minutesAgo(1) });
      await insertVideo(database.db, id.alice!, { title: 'alice own', publishedAt: minutesAgo(1) });

      const answer = await feedOf('alice');
      expect(answer.status).toBe(200);
      expect(titles(answer.body)).toEqual(['bob new', 'carol mid', 'bob old']);
      expect(answer.body.pagination).toMatchObject({ page: 1, limit: 12, hasMore: false, nextCursor: null });
      expect((answer.body.videos as Listed[])[0]!.uploader.username).toBe('bob');

      expect(titles((await feedOf('dave')).body)).toEqual(['alice own']);
      expect(titles((await feedOf('erin')).body)).toEqual([]);

      await doUnfollow('alice', 'bob');
      expect(titles((await feedOf('alice')).body)).toEqual(['carol mid']);
    });

    it('pages by cursor and by number without gaps or repeats, ties included', async () => {
      await doFollow('alice', 'bob');
      await doFollow('alice', 'carol');
      await doFollow('alice', 'dave');
      const sameMoment = minutesAgo(5);
      const expected: string[] = [];
      // 9 per creator, interleaved in time; three share one exact timestamp (ties break on id).
      for (let i = 0; i < 9; i += 1) {
        for (const creator of ['bob', 'carol', 'dave']) {
          const at = i === 4 ? sameMoment : minutesAgo(100 - i * 10 - ['bob', 'carol', 'dave'].indexOf(creator));
          await insertVideo(database.db, id[creator]!, { title: `${creator} ${i}`, publishedAt: at });
        }
      }
      // Stored times carry microseconds that a JavaScript Date cannot: cursors must keep them exactly.
      await database.db.execute(
        sql`UPDATE videos SET published_at = published_at + interval '457 microseconds' WHERE title LIKE '% 3' OR title LIKE '% 4'`,
      );
      const order = await queryRows<{ title: string }>(
        database.db,
        sql`SELECT title FROM videos WHERE owner_id IN (${id.bob}, ${id.carol}, ${id.dave}) ORDER BY published_at DESC, id DESC`,
      );
      expected.push(...order.map((row) => row.title));
      expect(expected).toHaveLength(27);

      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 1;
      do {
        const answer = await feedOf('alice', `?limit=4&page=${page}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(answer.status).toBe(200);
        seen.push(...titles(answer.body));
        cursor = (answer.body.pagination as Pagination).nextCursor;
        expect((answer.body.pagination as Pagination).hasMore).toBe(cursor !== null);
        page += 1;
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(page - 1).toBe(7);

      // Page numbers without a cursor agree with the cursor walk.
      for (const n of [1, 3, 7])
        expect(titles((await feedOf('alice', `?limit=4&page=${n}`)).body)).toEqual(expected.slice((n - 1) * 4, n * 4));
    });

    it('matches the plain newest-first list when a few creators hold the newest videos (the query reads only the creators a page can need)', async () => {
      const creators = ['bob', 'carol', 'dave', 'erin'];
      for (const creator of creators) await doFollow('alice', creator);
      // Uneven creators: bob posts in bursts that fill whole pages, erin rarely; a few exact ties across creators.
      let minute = 0;
      const plan = [
        'bob',
        'bob',
        'bob',
        'carol',
        'bob',
        'dave',
        'dave',
        'bob',
        'bob',
        'carol',
        'erin',
        'bob',
        'dave',
        'carol',
        'carol',
        'carol',
        'bob',
        'erin',
      ];
      for (const [index, creator] of plan.entries()) {
        if (index % 5 !== 4) minute += 7; // every fifth shares the moment of the one before
        await insertVideo(database.db, id[creator]!, { title: `${creator} #${index}`, publishedAt: minutesAgo(minute) });
      }
      const expected = (
        await queryRows<{ title: string }>(
          database.db,
          sql`SELECT title FROM videos WHERE owner_id IN (${sql.join(
            creators.map((creator) => sql`${id[creator]}`),
            sql`, `,
          )}) ORDER BY published_at DESC, id DESC`,
        )
      ).map((row) => row.title);
      expect(expected).toHaveLength(plan.length);

      for (const limit of [1, 2, 3, 5]) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const answer = await feedOf('alice', `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
          expect(answer.status).toBe(200);
          seen.push(...titles(answer.body));
          cursor = (answer.body.pagination as Pagination).nextCursor;
        } while (cursor);
        expect(seen).toEqual(expected);
        for (let page = 1; page <= Math.min(20, Math.ceil(plan.length / limit)); page += 1) {
          expect(titles((await feedOf('alice', `?limit=${limit}&page=${page}`)).body)).toEqual(
            expected.slice((page - 1) * limit, page * limit),
          );
        }
      }
    });

    it('checks its query', async () => {
      expect((await feedOf('alice', '?limit=51')).body).toMatchObject({ message: 'limit must be at most 50' });
      expect((await feedOf('alice', '?page=21')).body).toMatchObject({ message: PROFILE_MESSAGES.deepPage });
      expect((await feedOf('alice', '?page=21&cursor=x')).status).toBe(400);
      expect((await feedOf('alice', '?cursor=bm9wZQ')).body).toMatchObject({
        message: 'The cursor is not valid. Start again from page 1.',
      });
      expect((await call(feed, '/api/feed/following')).status).toBe(401);
    });
  });

  describe('bio', () => {
    const setBio = (who: string, json: unknown) =>
      call(profileSettings, '/api/users/settings/profile', { method: 'PUT', bearer: token[who], json });

    it('stores plain text up to 500 characters, script text included, as text', async () => {
      const script = '<script>alert("hi")</script> & <img src=x onerror=alert(1)>';
      expect(await setBio('alice', { bio: script })).toMatchObject({ status: 200, body: { success: true, bio: script } });
      expect((await profile('bob', 'alice')).body).toMatchObject({ user: { bio: script } });

      expect(await setBio('alice', { bio: '  line one\r\nline two\n\n\n\nline three \u0000 ' })).toMatchObject({
        body: { bio: 'line one\nline two\n\nline three' },
      });
      const emoji = '🦋'.repeat(BIO_MAX);
      expect(await setBio('alice', { bio: emoji })).toMatchObject({ status: 200, body: { bio: emoji } });
      expect(await setBio('alice', { bio: 'a'.repeat(BIO_MAX) })).toMatchObject({ status: 200 });
      expect(await setBio('alice', { bio: '' })).toMatchObject({ status: 200, body: { bio: '' } });
    });

    it('refuses a bio that is too long or not text, and visitors', async () => {
      await setBio('alice', { bio: 'kept' });
      expect(await setBio('alice', { bio: 'a'.repeat(BIO_MAX + 1) })).toMatchObject({
        status: 400,
        body: { message: 'Your bio can be at most 500 characters.', field: 'bio' },
      });
      expect(await setBio('alice', { bio: '🦋'.repeat(BIO_MAX + 1) })).toMatchObject({ status: 400 });
      expect(await setBio('alice', { bio: 42 })).toMatchObject({ status: 400, body: { field: 'bio' } });
      expect(await setBio('alice', {})).toMatchObject({ status: 400 });
      expect((await call(profileSettings, '/api/users/settings/profile', { method: 'PUT', json: { bio: 'x' } })).status).toBe(
        401,
      );
      expect((await profile('bob', 'alice')).body).toMatchObject({ user: { bio: 'kept' } });
    });

    it('changes only the caller’s bio', async () => {
      await setBio('alice', { bio: 'alice here', username: 'bob', userId: id.bob });
      expect((await profile('carol', 'alice')).body).toMatchObject({ user: { bio: 'alice here' } });
      expect((await profile('carol', 'bob')).body).toMatchObject({ user: { bio: '' } });
    });
  });

  describe('authorisation', () => {
    it('follows as the caller only, whatever the body says', async () => {
      await call(followRoute, followPath('carol'), {
        method: 'POST',
        bearer: token.alice,
        params: named('carol'),
        json: { follower: 'bob', followerId: id.bob },
      });
      expect(await followRows('alice', 'carol')).toHaveLength(1);
      expect(await followRows('bob', 'carol')).toHaveLength(0);
    });

    it('unfollowing removes only the caller’s follow', async () => {
      await doFollow('alice', 'carol');
      await doFollow('bob', 'carol');
      await doUnfollow('alice', 'carol');
      expect(await followRows('alice', 'carol')).toHaveLength(0);
      expect(await followRows('bob', 'carol')).toHaveLength(1);
      // Bob "unfollowing" alice (whom he does not follow) touches nothing of alice's.
      await doFollow('alice', 'bob');
      await doUnfollow('bob', 'alice');
      expect(await followRows('alice', 'bob')).toHaveLength(1);
    });

    it('refuses cookie-authenticated follows from another site', async () => {
      const answer = await call(followRoute, followPath('carol'), {
        method: 'POST',
        cookie: `chrysalis_session=${token.alice}`,
        headers: { origin: 'https://evil.example' },
        params: named('carol'),
      });
      expect(answer.status).toBe(403);
      expect(await followRows('alice', 'carol')).toHaveLength(0);
    });
  });

  it('suggests the uploaders of top videos the member does not follow yet', async () => {
    await insertVideo(database.db, id.bob!, { title: 'bob top', views: 1000 });
    await insertVideo(database.db, id.bob!, { title: 'bob second', views: 900 });
    await insertVideo(database.db, id.carol!, { title: 'carol top', views: 500 });
    await insertVideo(database.db, id.dave!, { title: 'dave top', views: 100 });
    await insertVideo(database.db, id.alice!, { title: 'alice top', views: 5000 });
    await doFollow('alice', 'carol');
    const suggested = await suggestCreators(await resolveToken(token.alice!, 'bearer', false));
    expect(suggested.map((creator) => creator.username)).toEqual(['bob', 'dave']);
    expect(suggested[0]).toMatchObject({ _id: id.bob, videos: 2, followers: 0, profilePhotoUrl: null });
  });
});
