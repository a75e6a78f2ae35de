import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as adminReports } from '@/app/api/admin/reports/route';
import { POST as report } from '@/app/api/reports/route';
import type { AdminReportDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import { comments, reports, users, videos } from '@/lib/db/schema';
import { addBusinessDays } from '@/lib/format/business-days';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-reports-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const THANKS = 'Thank you. Our moderators will review this report.';

describe.each(ENGINES)('reports on %s', (engine) => {
  let database: TestDatabase;
  let creatorId: string;
  let reporterToken: string;
  let reporterId: string;
  let adminToken: string;
  let video: { id: string; streamVideoId: string };
  let commentId: string;
  // Every test reports from its own address, so the per-address budget only matters where a test spends it.
  let address = 0;
  const nextIp = () => `198.51.100.${(address += 1)}`;

  const send = (
    json: unknown,
    options: { bearer?: string; ip?: string; cookie?: string; headers?: Record<string, string> } = {},
  ) => call(report, '/api/reports', { method: 'POST', json, ip: options.ip ?? nextIp(), ...options });
  const rowsFor = (targetId: string) => database.db.select().from(reports).where(eq(reports.targetId, targetId));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, 'creator');
    reporterToken = await verifiedMemberToken(database.db, 'reporter');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    creatorId = await userId(database.db, 'creator');
    reporterId = await userId(database.db, 'reporter');
    video = await insertVideo(database.db, creatorId, { title: 'Reported clip' });
    const [comment] = await database.db
      .insert(comments)
      .values({ videoId: video.id, authorId: creatorId, body: 'A   comment\nthat someone\tfinds rude' })
      .returning();
    commentId = comment!.id;
  });
  afterAll(() => database.destroy());
  beforeEach(() => database.db.delete(reports));

  describe('filing', () => {
    it('lets a visitor report a video: 201 with the thank-you message, stored with a keyed hash and no address', async () => {
      const response = await send(
        { targetType: 'video', target: video.streamVideoId, reason: 'copyright', details: 'This is my video from another site.' },
        { ip: '203.0.113.77' },
      );
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ message: THANKS });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const [row] = await rowsFor(video.id);
      expect(row).toMatchObject({
        targetType: 'video',
        reason: 'copyright',
        details: 'This is my video from another site.',
        reporterId: null,
        status: 'open',
      });
      expect(row!.reporterKey).toMatch(/^a:[0-9a-f]{32}$/);
      expect(row!.reporterKey).not.toContain('203.0.113.77');
    });

    it('stores a member report with m:{memberId} and the member as reporter', async () => {
      const response = await send(
        { targetType: 'video', target: video.streamVideoId, reason: 'spam' },
        { bearer: reporterToken },
      );
      expect(response.status).toBe(201);
      const [row] = await rowsFor(video.id);
      expect(row).toMatchObject({ reporterId, reporterKey: `m:${reporterId}`, details: '' });
    });

    it('needs a login for comments and profiles (401), and accepts them from members', async () => {
      const anonymousComment = await send({ targetType: 'comment', target: commentId, reason: 'harassment' });
      expect(anonymousComment.status).toBe(401);
      expect(anonymousComment.body.message).toBe('Please log in to report comments and profiles.');
      expect((await send({ targetType: 'profile', target: 'creator', reason: 'spam' })).status).toBe(401);
      // A dead or forged token is a visitor too.
      expect((await send({ targetType: 'profile', target: 'creator', reason: 'spam' }, { bearer: 'not-a-token' })).status).toBe(
        401,
      );
      expect(await database.db.select().from(reports)).toHaveLength(0);

      expect(
        (await send({ targetType: 'comment', target: commentId, reason: 'harassment' }, { bearer: reporterToken })).status,
      ).toBe(201);
      expect((await send({ targetType: 'profile', target: 'CREATOR', reason: 'spam' }, { bearer: reporterToken })).status).toBe(
        201,
      );
      expect(await rowsFor(commentId)).toHaveLength(1);
      expect(await rowsFor(creatorId)).toMatchObject([{ targetType: 'profile', reason: 'spam' }]);
    });

    it('refuses reporting yourself', async () => {
      const response = await send(
        { targetType: 'profile', target: 'reporter', reason: 'other', details: 'me' },
        { bearer: reporterToken },
      );
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('You cannot report yourself.');
    });

    it.each([
      ['no reason', { targetType: 'video', target: 'x' }, 'reason', 'Choose a reason for the report'],
      ['an unknown reason', { targetType: 'video', target: 'x', reason: 'boring' }, 'reason', 'Choose a reason for the report'],
      [
        'an unknown target type',
        { targetType: 'playlist', target: 'x', reason: 'spam' },
        'targetType',
        'targetType must be one of video, comment, profile',
      ],
      ['no target', { targetType: 'video', reason: 'spam' }, 'target', 'Say what you are reporting'],
      ['a blank target', { targetType: 'video', target: '   ', reason: 'spam' }, 'target', 'Say what you are reporting'],
      [
        '"other" without details',
        { targetType: 'video', target: 'x', reason: 'other' },
        'details',
        'Please describe the problem when you choose “Something else”.',
      ],
      [
        '"other" with blank details',
        { targetType: 'video', target: 'x', reason: 'other', details: ' \n ' },
        'details',
        'Please describe the problem when you choose “Something else”.',
      ],
      [
        'details over 2000 characters',
        { targetType: 'video', target: 'x', reason: 'spam', details: 'x'.repeat(2001) },
        'details',
        'Details must be at most 2000 characters',
      ],
      [
        'details that are not text',
        { targetType: 'video', target: 'x', reason: 'spam', details: 42 },
        'details',
        'details must be text',
      ],
    ])('answers 400 with a message for %s', async (_name, body, field, message) => {
      const response = await send(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message, field });
    });

    it('answers 400, never 500, for malformed bodies and ids', async () => {
      expect(
        (
          await call(report, '/api/reports', {
            method: 'POST',
            body: '{"targetType":',
            headers: { 'content-type': 'application/json' },
            ip: nextIp(),
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call(report, '/api/reports', {
            method: 'POST',
            body: '[1,2]',
            headers: { 'content-type': 'application/json' },
            ip: nextIp(),
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call(report, '/api/reports', {
            method: 'POST',
            body: 'reason=spam',
            headers: { 'content-type': 'text/plain' },
            ip: nextIp(),
          })
        ).status,
      ).toBe(415);
      const badVideo = await send({ targetType: 'video', target: '../etc/passwd', reason: 'spam' });
      expect(badVideo).toMatchObject({ status: 400, body: { message: 'That is not a valid video id.', field: 'target' } });
      const badComment = await send({ targetType: 'comment', target: 'not-a-uuid', reason: 'spam' }, { bearer: reporterToken });
      expect(badComment).toMatchObject({ status: 400, body: { message: 'That is not a valid comment id.' } });
      const badName = await send(
        { targetType: 'profile', target: 'no spaces allowed', reason: 'spam' },
        { bearer: reporterToken },
      );
      expect(badName).toMatchObject({ status: 400, body: { message: 'That is not a valid username.' } });
    });

    it('answers 404 for targets that do not exist or cannot be seen', async () => {
      expect(await send({ targetType: 'video', target: 'NoSuchVideo123', reason: 'spam' })).toMatchObject({
        status: 404,
        body: { message: 'Video not found' },
      });
      const pending = await insertVideo(database.db, creatorId, { moderationStatus: 'pending', publishedAt: null });
      expect((await send({ targetType: 'video', target: pending.streamVideoId, reason: 'spam' })).status).toBe(404);
      const missingComment = await send(
        { targetType: 'comment', target: crypto.randomUUID(), reason: 'spam' },
        { bearer: reporterToken },
      );
      expect(missingComment).toMatchObject({ status: 404, body: { message: 'Comment not found' } });
      expect(
        await send({ targetType: 'profile', target: 'nobody_here', reason: 'spam' }, { bearer: reporterToken }),
      ).toMatchObject({ status: 404, body: { message: 'Member not found' } });
      expect(await database.db.select().from(reports)).toHaveLength(0);
    });

    it('keeps one open report per reporter and target: a repeat answers 200 "You have already reported this."', async () => {
      const body = { targetType: 'video', target: video.streamVideoId, reason: 'spam' };
      expect((await send(body, { ip: '203.0.113.5' })).status).toBe(201);
      const again = await send({ ...body, reason: 'illegal' }, { ip: '203.0.113.5' });
      expect(again).toMatchObject({ status: 200, body: { message: 'You have already reported this.' } });
      expect((await send(body, { bearer: reporterToken })).status).toBe(201);
      expect((await send(body, { bearer: reporterToken })).body.message).toBe('You have already reported this.');
      // Racing duplicates still make one row.
      const raced = await Promise.all([1, 2, 3].map(() => send(body, { ip: '203.0.113.6' })));
      expect(raced.map((r) => r.status).sort()).toEqual([200, 200, 201]);
      expect(await rowsFor(video.id)).toHaveLength(3);

      // Once moderators have dealt with it, the same reporter can report again.
      await database.db
        .update(reports)
        .set({ status: 'dismissed', resolvedAt: new Date() })
        .where(eq(reports.reporterKey, `m:${reporterId}`));
      expect((await send(body, { bearer: reporterToken })).status).toBe(201);
    });

    it('limits visitors to 10 reports an hour per address and members to 20 per account, with a clear 429', async () => {
      const targets = await Promise.all(Array.from({ length: 21 }, () => insertVideo(database.db, creatorId)));
      for (const target of targets.slice(0, 10)) {
        expect(
          (await send({ targetType: 'video', target: target.streamVideoId, reason: 'spam' }, { ip: '203.0.113.200' })).status,
        ).toBe(201);
      }
      const limited = await send(
        { targetType: 'video', target: targets[10]!.streamVideoId, reason: 'spam' },
        { ip: '203.0.113.200' },
      );
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(
        'You have sent a lot of reports in a short time. Please wait a while before sending another.',
      );
      expect(limited.body.retryAfter).toBeGreaterThan(3000);
      expect(limited.headers.get('retry-after')).toBe(String(limited.body.retryAfter));
      // Another address is not affected, and a member on the spent address counts against their account instead.
      expect(
        (await send({ targetType: 'video', target: targets[10]!.streamVideoId, reason: 'spam' }, { ip: '203.0.113.201' })).status,
      ).toBe(201);
      expect(
        (
          await send(
            { targetType: 'video', target: targets[10]!.streamVideoId, reason: 'spam' },
            { ip: '203.0.113.200', bearer: reporterToken },
          )
        ).status,
      ).toBe(201);

      const memberToken = await verifiedMemberToken(database.db, 'busy_reporter');
      for (const target of targets.slice(0, 20)) {
        expect(
          (await send({ targetType: 'video', target: target.streamVideoId, reason: 'spam' }, { bearer: memberToken })).status,
        ).toBe(201);
      }
      const memberLimited = await send(
        { targetType: 'video', target: targets[20]!.streamVideoId, reason: 'spam' },
        { bearer: memberToken },
      );
      expect(memberLimited.status).toBe(429);
      await database.db.delete(videos).where(eq(videos.title, 'A video'));
    });

    it('refuses banned members, and takes a cookie on a report from another site for nobody', async () => {
      const bannedToken = await verifiedMemberToken(database.db, 'banned_one');
      await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.username, 'banned_one'));
      const banned = await send({ targetType: 'video', target: video.streamVideoId, reason: 'spam' }, { bearer: bannedToken });
      expect(banned).toMatchObject({ status: 403, body: { message: 'Account is banned' } });
      const crossSite = await send(
        { targetType: 'video', target: video.streamVideoId, reason: 'spam' },
        { cookie: `chrysalis_session=${reporterToken}`, headers: { origin: 'https://evil.example' } },
      );
      // Anyone may report a video, so it is taken, but as an anonymous report: the member's cookie was not believed.
      expect(crossSite.status).toBe(201);
      const [stored] = await database.db.select().from(reports).where(eq(reports.targetId, video.id));
      expect(stored?.reporterId).toBeNull();
      const crossSiteComment = await send(
        { targetType: 'comment', target: crypto.randomUUID(), reason: 'spam' },
        { cookie: `chrysalis_session=${reporterToken}`, headers: { origin: 'https://evil.example' } },
      );
      expect(crossSiteComment).toMatchObject({ status: 403, body: { message: 'This request did not come from this site.' } });
      const sameSite = await send(
        { targetType: 'video', target: video.streamVideoId, reason: 'spam' },
        { cookie: `chrysalis_session=${reporterToken}`, headers: { origin: ORIGIN } },
      );
      expect(sameSite.status).toBe(201);
    });
  });

  describe('the admin queue', () => {
    const list = (query = '', bearer: string | null = adminToken) =>
      call(adminReports, `/api/admin/reports${query}`, { bearer: bearer ?? undefined });

    it('is for admins only: anonymous 401, members 403 with the spec message', async () => {
      expect((await list('', null)).status).toBe(401);
      const member = await list('', reporterToken);
      expect(member).toMatchObject({ status: 403, body: { message: 'Forbidden: Admin access required' } });
    });

    it('lists open reports with age, due date 7 business days on (48 hours for minors), target summaries, soonest due first', async () => {
      // Monday 2025-01-06 09:00 UTC: due Wednesday 2025-01-15, long overdue.
      const old = new Date('2025-01-06T09:00:00Z');
      await database.db
        .insert(reports)
        .values({ targetType: 'video', targetId: video.id, reason: 'spam', reporterKey: 'a:old', createdAt: old });
      expect(
        (
          await send(
            { targetType: 'comment', target: commentId, reason: 'harassment', details: 'Rude.' },
            { bearer: reporterToken },
          )
        ).status,
      ).toBe(201);
      expect(
        (await send({ targetType: 'profile', target: 'creator', reason: 'underage' }, { bearer: reporterToken })).status,
      ).toBe(201);
      expect(
        (await send({ targetType: 'video', target: video.streamVideoId, reason: 'copyright' }, { bearer: reporterToken })).status,
      ).toBe(201);

      const response = await list('?status=open');
      expect(response.status).toBe(200);
      expect(response.body.counts).toEqual({ open: 4, resolved: 0, dismissed: 0 });
      expect(response.body.pagination).toEqual({ page: 1, limit: 25, hasMore: false });
      const listed = response.body.reports as AdminReportDto[];
      // Soonest due first (decision 016): the overdue one, then the possible minor (48 hours), then the rest by age.
      expect(listed.map((r) => `${r.targetType}:${r.reason}`)).toEqual([
        'video:spam',
        'profile:underage',
        'comment:harassment',
        'video:copyright',
      ]);

      const [oldest, urgent, comment, fresh] = listed as [AdminReportDto, AdminReportDto, AdminReportDto, AdminReportDto];
      expect(urgent).toMatchObject({
        urgent: true,
        reasonLabel: 'Involves someone under 18',
        target: { type: 'profile', username: 'creator', link: '/profile/creator' },
        reporter: { username: 'reporter' },
      });
      expect(new Date(urgent.dueAt).getTime() - new Date(urgent.createdAt).getTime()).toBe(48 * 3_600_000);
      expect(oldest).toMatchObject({
        urgent: false,
        createdAt: '2025-01-06T09:00:00.000Z',
        dueAt: '2025-01-15T09:00:00.000Z',
        overdue: true,
        reporter: null,
        reportsOnTarget: 2,
        target: {
          type: 'video',
          streamVideoId: video.streamVideoId,
          title: 'Reported clip',
          uploader: { username: 'creator' },
          link: `/video/${video.streamVideoId}`,
        },
      });
      expect(oldest.age).toMatch(/^1 year ago$|months ago$/);
      expect(oldest.ageHours).toBeGreaterThan(24 * 300);
      expect(comment).toMatchObject({
        details: 'Rude.',
        target: {
          type: 'comment',
          excerpt: 'A comment that someone finds rude',
          author: { username: 'creator' },
          video: { streamVideoId: video.streamVideoId },
        },
      });
      expect(comment.target && comment.target.link).toBe(`/video/${video.streamVideoId}#comment-${commentId}`);
      expect(fresh.age).toMatch(/^just now$|seconds? ago$/);
      expect(fresh.ageHours).toBe(0);
      expect(fresh.overdue).toBe(false);
      expect(fresh.dueAt).toBe(addBusinessDays(fresh.createdAt, 7).toISOString());
      expect(new Date(fresh.dueAt).getTime() - new Date(fresh.createdAt).getTime()).toBeGreaterThanOrEqual(9 * 86_400_000);
    });

    it('pages, filters by status, shows deleted targets as null and refuses bad queries', async () => {
      const extra = await insertVideo(database.db, creatorId, { title: 'Soon deleted' });
      for (let i = 0; i < 3; i += 1)
        await database.db
          .insert(reports)
          .values({ targetType: 'video', targetId: extra.id, reason: 'spam', reporterKey: `a:${i}` });
      await database.db.insert(reports).values({
        targetType: 'video',
        targetId: video.id,
        reason: 'spam',
        reporterKey: 'a:done',
        status: 'resolved',
        resolvedAt: new Date(),
        resolutionNote: 'Removed',
      });
      await database.db.delete(videos).where(eq(videos.id, extra.id));

      const page1 = await list('?limit=2');
      expect((page1.body.reports as AdminReportDto[]).map((r) => r.target)).toEqual([null, null]);
      expect(page1.body.pagination).toEqual({ page: 1, limit: 2, hasMore: true });
      expect((await list('?limit=2&page=2')).body.pagination).toEqual({ page: 2, limit: 2, hasMore: false });
      const resolved = await list('?status=resolved');
      expect(resolved.body.reports).toMatchObject([{ status: 'resolved', resolutionNote: 'Removed', overdue: false }]);
      expect(resolved.body.counts).toEqual({ open: 3, resolved: 1, dismissed: 0 });

      expect(await list('?status=closed')).toMatchObject({
        status: 400,
        body: { message: 'status must be one of open, resolved, dismissed' },
      });
      expect(await list('?page=0')).toMatchObject({ status: 400, body: { message: 'page must be at least 1' } });
      expect((await list('?limit=abc')).status).toBe(400);
    });
  });
});
