import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { GET as moderationQueue } from '@/app/api/admin/videos/route';
import { GET as mine } from '@/app/api/videos/mine/route';
import { GET as recent } from '@/app/api/videos/route';
import { GET as search } from '@/app/api/videos/search/route';
import { GET as top } from '@/app/api/videos/top/route';
import { GET as videoById } from '@/app/api/videos/[streamVideoId]/route';
import { POST as view } from '@/app/api/videos/[streamVideoId]/view/route';
import { installDatabase } from '@/lib/db';
import { notifications, videoLikes, videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-catalog-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36';
type Listed = {
  _id: string;
  streamVideoId: string;
  title: string;
  views: number;
  likedBy: string[];
  thumbnailUrl: string | null;
};

describe.each(ENGINES)('video lists, search, moderation and views on %s', (engine) => {
  let database: TestDatabase;
  let creator: string;
  let creatorToken: string;
  let adminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    creatorToken = await verifiedMemberToken(database.db, 'creator');
    memberToken = await verifiedMemberToken(database.db, 'watcher');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    creator = await userId(database.db, 'creator');
    // Their videos pass the approval gate (lib/server/trust/approval-gate.ts).
    await verifiedUploader(database.db, creator);
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
    await database.db.delete(notifications);
  });

  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const titles = (body: Record<string, unknown>) => (body.videos as Listed[]).map((video) => video.title);

  it('lists only processed, approved videos of members in good standing, newest first', async () => {
    await insertVideo(database.db, creator, { title: 'public old', publishedAt: minutesAgo(10) });
    await insertVideo(database.db, creator, { title: 'public new', publishedAt: minutesAgo(1) });
    await insertVideo(database.db, creator, { title: 'pending', moderationStatus: 'pending', publishedAt: null });
    await insertVideo(database.db, creator, { title: 'rejected', moderationStatus: 'rejected', publishedAt: null });
    await insertVideo(database.db, creator, { title: 'processing', processingState: 'processing' });
    await insertVideo(database.db, creator, { title: 'failed', processingState: 'failed' });
    await insertVideo(database.db, creator, { title: 'banned owner', ownerBanned: true });

    const list = await call(recent, '/api/videos?limit=12&page=1');
    expect(list.status).toBe(200);
    expect(titles(list.body)).toEqual(['public new', 'public old']);
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 12, hasMore: false });
    const [first] = list.body.videos as Listed[];
    expect(first).toMatchObject({ views: 0, likedBy: [], uploader: { username: 'creator' } });
    expect(first!.thumbnailUrl).toBe(`/media/videos/${first!.streamVideoId}/thumbnail.jpg`);
    expect(titles((await call(top, '/api/videos/top?limit=6')).body).sort()).toEqual(['public new', 'public old']);
    expect(titles((await call(search, '/api/videos/search?q=pending')).body)).toEqual([]);
  });

  it('pages by number and by cursor, and says when there is no more', async () => {
    for (let i = 0; i < 30; i += 1)
      await insertVideo(database.db, creator, { title: `clip ${String(i).padStart(2, '0')}`, publishedAt: minutesAgo(i) });
    const page1 = await call(recent, '/api/videos?limit=12&page=1');
    const page2 = await call(recent, '/api/videos?limit=12&page=2');
    const page3 = await call(recent, '/api/videos?limit=12&page=3');
    expect(titles(page1.body)).toEqual(Array.from({ length: 12 }, (_, i) => `clip ${String(i).padStart(2, '0')}`));
    expect(page1.body.pagination).toMatchObject({ hasMore: true });
    expect(titles(page3.body)).toHaveLength(6);
    expect(page3.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    const cursor = (page1.body.pagination as { nextCursor: string }).nextCursor;
    const byCursor = await call(recent, `/api/videos?limit=12&cursor=${cursor}`);
    expect(titles(byCursor.body)).toEqual(titles(page2.body));
    const sissyOnly = await call(recent, '/api/videos?limit=50&category=Beta');
    expect(titles(sissyOnly.body)).toEqual([]);
  });

  it.each([
    ['limit=abc', 'limit must be a number'],
    ['limit=0', 'limit must be at least 1'],
    ['limit=1000', 'limit must be at most 50'],
    ['page=1.5', 'page must be a whole number'],
    ['category=Unknown', 'category must be one of Sissy, Beta, Censor'],
    ['cursor=not-a-cursor', 'The cursor is not valid. Start again from page 1.'],
  ])('refuses %s with a clear 400', async (query, message) => {
    const response = await call(recent, `/api/videos?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('ranks Top Videos by views plus ten per like', async () => {
    const watcher = await userId(database.db, 'watcher');
    const liked = await insertVideo(database.db, creator, { title: 'liked', views: 5, likesCount: 1 });
    await database.db.insert(videoLikes).values({ videoId: liked.id, userId: watcher });
    await insertVideo(database.db, creator, { title: 'viewed', views: 12 });
    await insertVideo(database.db, creator, { title: 'quiet', views: 0 });
    const response = await call(top, '/api/videos/top?limit=2');
    expect(titles(response.body)).toEqual(['liked', 'viewed']);
    expect((response.body.videos as Listed[])[0]!.likedBy).toEqual([watcher]);
  });

  it('searches title, tags and description with prefixes and typos, best match first, public only', async () => {
    await insertVideo(database.db, creator, {
      title: 'Sissy transformation journey',
      tags: ['makeover'],
      description: 'A long story.',
    });
    await insertVideo(database.db, creator, {
      title: 'Evening walk',
      tags: ['outdoors'],
      description: 'Ends with a sissy transformation.',
    });
    await insertVideo(database.db, creator, { title: 'Makeover day', tags: ['beta'], description: '' });
    await insertVideo(database.db, creator, { title: 'Sissy secret', moderationStatus: 'pending', publishedAt: null });

    const q = async (query: string) => titles((await call(search, `/api/videos/search?q=${encodeURIComponent(query)}`)).body);
    expect(await q('sissy transformation')).toEqual(['Sissy transformation journey', 'Evening walk']);
    expect(await q('transf')).toEqual(['Sissy transformation journey', 'Evening walk']);
    expect(await q('makeover')).toEqual(expect.arrayContaining(['Makeover day', 'Sissy transformation journey']));
    expect(await q('sisy')).toContain('Sissy transformation journey');
    expect(await q('<script>alert(1)</script> & | ! :*')).toEqual([]);
    expect(await q('   ')).toEqual([]);
    const tooLong = await call(search, `/api/videos/search?q=${'a'.repeat(201)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Search for at most 200 characters');
  });

  it('finds a video the moment it is approved, although search results are reused for a few seconds', async () => {
    const q = async () => titles((await call(search, '/api/videos/search?q=orchid')).body);
    await insertVideo(database.db, creator, { title: 'Orchid one' });
    expect(await q()).toEqual(['Orchid one']);
    // Changed behind the service's back: the ranked ids are reused (the vanished video is simply left out).
    await database.db.delete(videos);
    const pending = await insertVideo(database.db, creator, {
      title: 'Orchid two',
      moderationStatus: 'pending',
      publishedAt: null,
    });
    expect(await q()).toEqual([]);
    // Approval purges public caches in this process: found at once.
    const approved = await call(moderate, `/api/admin/videos/${pending.streamVideoId}`, {
      method: 'PATCH',
      json: { action: 'approve' },
      bearer: adminToken,
      params: { streamVideoId: pending.streamVideoId },
    });
    expect(approved.status).toBe(200);
    expect(await q()).toEqual(['Orchid two']);
  });

  it('answers at most 1,000 results, best first, by page', async () => {
    await database.db.execute(sql`
      INSERT INTO videos (stream_video_id, owner_id, title, category, source_key, source_bytes, processing_state, moderation_status, published_at)
      SELECT 'cap' || n, ${creator}, 'Velvet clip ' || n, 'Beta', 'cap' || n || '.mp4', 1, 'ready', 'approved', now() - n * interval '1 minute'
      FROM generate_series(1, 1005) AS n`);
    const page = (n: number) => call(search, `/api/videos/search?q=velvet&limit=50&page=${n}`);
    const first = await page(1);
    expect(titles(first.body).slice(0, 2)).toEqual(['Velvet clip 1', 'Velvet clip 2']);
    const last = await page(20);
    expect(titles(last.body)).toHaveLength(50);
    expect(last.body.pagination).toMatchObject({ hasMore: false });
    expect(titles((await page(21)).body)).toEqual([]);
  });

  it('shows an unpublished video only to its owner and admins, with its status', async () => {
    const pending = await insertVideo(database.db, creator, { title: 'waiting', moderationStatus: 'pending', publishedAt: null });
    const params = { streamVideoId: pending.streamVideoId };
    expect((await call(videoById, '/api/videos/x', { params })).status).toBe(404);
    expect((await call(videoById, '/api/videos/x', { params, bearer: memberToken })).status).toBe(404);
    const owner = await call(videoById, '/api/videos/x', { params, bearer: creatorToken });
    expect(owner.body.video).toMatchObject({ title: 'waiting', status: 'ready', moderationStatus: 'pending' });
    const admin = await call(videoById, '/api/videos/x', { params, bearer: adminToken });
    expect(admin.status).toBe(200);
    expect((await call(videoById, '/api/videos/x', { params: { streamVideoId: '../../etc' } })).status).toBe(404);

    const own = await call(mine, '/api/videos/mine', { bearer: creatorToken });
    expect(own.body.videos).toEqual([
      expect.objectContaining({ title: 'waiting', moderationStatus: 'pending', status: 'ready' }),
    ]);
    expect((await call(mine, '/api/videos/mine')).status).toBe(401);
  });

  describe('moderation', () => {
    const decide = (streamVideoId: string, json: unknown, bearer?: string) =>
      call(moderate, `/api/admin/videos/${streamVideoId}`, { method: 'PATCH', json, bearer, params: { streamVideoId } });

    it('is for admins only: anonymous 401, members 403 with the spec message', async () => {
      const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
      expect((await decide(pending.streamVideoId, { action: 'approve' })).status).toBe(401);
      const member = await decide(pending.streamVideoId, { action: 'approve' }, memberToken);
      expect(member.status).toBe(403);
      expect(member.body.message).toBe('Forbidden: Admin access required');
      expect((await call(moderationQueue, '/api/admin/videos', { bearer: memberToken })).status).toBe(403);
      const [row] = await database.db.select().from(videos).where(eq(videos.id, pending.id));
      expect(row!.moderationStatus).toBe('pending');
    });

    it('approves: the video is published and the uploader is notified', async () => {
      const pending = await insertVideo(database.db, creator, {
        title: 'ready for review',
        moderationStatus: 'pending',
        publishedAt: null,
      });
      const queue = await call(moderationQueue, '/api/admin/videos?status=pending', { bearer: adminToken });
      expect(titles(queue.body)).toEqual(['ready for review']);
      expect(queue.body.counts).toMatchObject({ pending: 1 });

      const approved = await decide(pending.streamVideoId, { action: 'approve' }, adminToken);
      expect(approved.status).toBe(200);
      expect(approved.body.video).toMatchObject({ moderationStatus: 'approved' });
      expect(titles((await call(recent, '/api/videos')).body)).toEqual(['ready for review']);
      const [note] = await database.db.select().from(notifications).where(eq(notifications.recipientId, creator));
      expect(note).toMatchObject({ type: 'video_approved', link: `/video/${pending.streamVideoId}`, readAt: null });
      expect(note!.message).toContain('has been approved');

      const again = await decide(pending.streamVideoId, { action: 'approve' }, adminToken);
      expect(again.status).toBe(409);
    });

    it('rejects with a reason, which the uploader sees', async () => {
      const pending = await insertVideo(database.db, creator, {
        title: 'not this',
        moderationStatus: 'pending',
        publishedAt: null,
      });
      const noReason = await decide(pending.streamVideoId, { action: 'reject', reason: '  ' }, adminToken);
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toBe('Give a reason for the rejection');
      const badAction = await decide(pending.streamVideoId, { action: 'delete' }, adminToken);
      expect(badAction.status).toBe(400);
      expect(badAction.body.message).toBe('action must be approve or reject');

      const rejected = await decide(pending.streamVideoId, { action: 'reject', reason: 'Watermark of another site' }, adminToken);
      expect(rejected.body.video).toMatchObject({ moderationStatus: 'rejected', rejectionReason: 'Watermark of another site' });
      const [note] = await database.db.select().from(notifications).where(eq(notifications.recipientId, creator));
      expect(note).toMatchObject({ type: 'video_rejected' });
      expect(note!.message).toContain('Watermark of another site');
      const own = await call(mine, '/api/videos/mine', { bearer: creatorToken });
      expect(own.body.videos).toEqual([
        expect.objectContaining({ moderationStatus: 'rejected', rejectionReason: 'Watermark of another site' }),
      ]);
      expect(titles((await call(recent, '/api/videos')).body)).toEqual([]);
    });

    it('refuses to approve a video whose processing failed, and an unknown video is a 404', async () => {
      const failed = await insertVideo(database.db, creator, {
        processingState: 'failed',
        moderationStatus: 'pending',
        publishedAt: null,
      });
      const response = await decide(failed.streamVideoId, { action: 'approve' }, adminToken);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe('This video could not be processed, so it cannot be approved.');
      expect((await decide('nope', { action: 'approve' }, adminToken)).status).toBe(404);
    });

    it('lets only one of simultaneous approvals win, with one notification', async () => {
      const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
      const answers = await Promise.all([
        decide(pending.streamVideoId, { action: 'approve' }, adminToken),
        decide(pending.streamVideoId, { action: 'approve' }, adminToken),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(await database.db.select().from(notifications).where(eq(notifications.recipientId, creator))).toHaveLength(1);
    });
  });

  describe('views', () => {
    const play = (streamVideoId: string, options: { ip?: string; bearer?: string; userAgent?: string } = {}) =>
      call(view, `/api/videos/${streamVideoId}/view`, {
        method: 'POST',
        params: { streamVideoId },
        ip: options.ip,
        bearer: options.bearer,
        headers: { 'user-agent': options.userAgent ?? BROWSER },
      });

    it('counts once per viewer in the window, never for bots, and not for unpublished videos', async () => {
      const video = await insertVideo(database.db, creator);
      const results = await Promise.all(Array.from({ length: 20 }, () => play(video.streamVideoId, { ip: '198.51.100.1' })));
      expect(results.filter((result) => result.body.counted)).toHaveLength(1);
      expect((await play(video.streamVideoId, { ip: '198.51.100.2' })).body).toEqual({ counted: true, views: 2 });
      expect((await play(video.streamVideoId, { ip: '198.51.100.3', bearer: memberToken })).body.counted).toBe(true);
      expect((await play(video.streamVideoId, { ip: '198.51.100.4', bearer: memberToken })).body.counted).toBe(false);
      expect(
        (await play(video.streamVideoId, { userAgent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).body.counted,
      ).toBe(false);
      const [row] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(row!.views).toBe(3);

      const pending = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
      expect((await play(pending.streamVideoId)).status).toBe(404);
    });

    it('counts a visitor once per address, whatever User-Agent each request claims (Top Videos ranks by views)', async () => {
      const video = await insertVideo(database.db, creator);
      const answers = [];
      for (let i = 0; i < 20; i += 1)
        answers.push(
          await play(video.streamVideoId, {
            ip: '198.51.100.60',
            userAgent: `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + i}.0) Gecko/20100101 Firefox/${100 + i}.0`,
          }),
        );
      expect(answers.filter((answer) => answer.body.counted)).toHaveLength(1);
      // Nor by moving around an IPv6 /64.
      for (let i = 1; i <= 5; i += 1) await play(video.streamVideoId, { ip: `2001:db8:60:1::${i}` });
      const [row] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(row!.views).toBe(2);
    });
  });
});
