import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { GET as adminReports } from '@/app/api/admin/reports/route';
import { PATCH as decide } from '@/app/api/admin/reports/[id]/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { GET as feed } from '@/app/feed.xml/route';
import { POST as sendNotice } from '@/app/api/notices/route';
import { POST as report } from '@/app/api/reports/route';
import { GET as videoById } from '@/app/api/videos/[streamVideoId]/route';
import { GET as recent } from '@/app/api/videos/route';
import { GET as search } from '@/app/api/videos/search/route';
import type { AdminReportDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import { jobs, moderationDecisions, notifications, reports, users, videos } from '@/lib/db/schema';
import { listReports } from '@/lib/server/reports/list';
import { resetLimiters } from '@/lib/server/rate-limit';
import { TRUST_EMAIL_JOB, TRUST_MAIL_JOB_HANDLERS } from '@/lib/server/trust/mail';
import { URGENT_NOTICE_BLOCKER } from '@/lib/server/trust/notice-checks';
import { parseVideoReference } from '@/lib/trust/video-reference';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { sitemapEntries } from '../helpers/sitemap';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-notices-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
process.env.ADMIN_ALERT_EMAIL = 'alerts@example.org';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const EVIL = `</script ><script>alert(1)</script>\u0000${'🏳️‍🌈'.repeat(10)}`;
const EMOJI_2000 = '🦋'.repeat(2000);

describe('parseVideoReference', () => {
  it.each([
    ['abc123', 'abc123'],
    [`${ORIGIN}/video/abc123`, 'abc123'],
    [`${ORIGIN}/video/abc123/`, 'abc123'],
    [`${ORIGIN}/embed/abc123?autoplay=1#t=3`, 'abc123'],
    ['localhost:3999/video/abc123', 'abc123'],
    ['/video/abc_-9', 'abc_-9'],
  ])('reads %s', (input, id) => expect(parseVideoReference(input, ORIGIN)).toBe(id));
  it.each([
    'https://evil.example/video/abc123',
    `${ORIGIN}/profile/abc123`,
    `${ORIGIN}/video/abc123/extra`,
    `${ORIGIN}/video/../admin`,
    'javascript:alert(1)',
    `http://user:pass@localhost:3999/video/abc`,
    'two words',
    '',
    'x'.repeat(501),
  ])('refuses %s', (input) => expect(parseVideoReference(input, ORIGIN)).toBeNull());
});

describe.each(ENGINES)('notices from anyone on %s', (engine) => {
  let database: TestDatabase;
  let creatorId: string;
  let adminToken: string;
  let memberToken: string;
  let address = 0;
  const nextIp = () => `198.51.100.${(address += 1) % 250}`;

  const notice = (fields: Record<string, unknown>, ip = nextIp()) =>
    call(sendNotice, '/api/notices', {
      method: 'POST',
      ip,
      json: {
        reason: 'non_consensual',
        details: 'This is me; I never agreed to this being posted.',
        name: 'Jo Doe',
        email: 'jo@example.org',
        signature: 'Jo Doe',
        goodFaith: true,
        ...fields,
      },
    });
  const statusOf = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!.moderationStatus;
  const listed = async () => {
    const response = await call(adminReports, '/api/admin/reports?status=open', { bearer: adminToken });
    return response.body.reports as AdminReportDto[];
  };
  async function runMailJobs() {
    const queued = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, TRUST_EMAIL_JOB), eq(jobs.status, 'queued')));
    for (const job of queued) {
      await TRUST_MAIL_JOB_HANDLERS[TRUST_EMAIL_JOB]!(job, heldJobContext());
      await database.db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, job.id));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    await verifiedMemberToken(database.db, 'creator');
    memberToken = await verifiedMemberToken(database.db, 'viewer');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    creatorId = await userId(database.db, 'creator');
    // Approval after a dismissed notice goes through the gate, which needs a verified uploader (decision 014).
    await verifiedUploader(database.db, creatorId);
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(reports);
    await database.db.delete(notifications);
  });

  describe('bad input', () => {
    it.each([
      ['no declaration of good faith', { goodFaith: false }, 'goodFaith', 'Please confirm the declaration of good faith'],
      ['a missing declaration', { goodFaith: undefined }, 'goodFaith', 'Please confirm the declaration of good faith'],
      ['no signature', { signature: '  ' }, 'signature', 'Type your full name as your signature'],
      ['no name', { name: '' }, 'name', 'Enter your name'],
      ['no email', { email: '' }, 'email', 'Enter an email address we can reply to'],
      ['a bad email', { email: 'jo@' }, 'email', 'That email address is not valid'],
      ['no explanation', { details: '\u0000 ' }, 'details', 'Explain why the video should come down'],
      ['an unknown reason', { reason: 'boring' }, 'reason', 'Choose what is wrong with the video'],
      [
        'copyright (the DMCA form instead)',
        { reason: 'copyright' },
        'reason',
        'Copyright complaints need the fields the law asks for. Please use the copyright notice form at /copyright/notice.',
      ],
      ['no video', { video: '' }, 'video', 'Enter the address of the video'],
      ['details over 2000 characters', { details: `${EMOJI_2000}x` }, 'details', 'Details must be at most 2000 characters'],
    ])('answers 400 for %s and stores nothing', async (_name, fields, field, message) => {
      const video = await insertVideo(database.db, creatorId);
      const response = await notice({ video: video.streamVideoId, ...fields });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message, field });
      expect(await database.db.select().from(reports)).toHaveLength(0);
      expect(await statusOf(video.id)).toBe('approved');
    });

    it.each([
      ['another site', 'https://evil.example/video/abc'],
      ['a page that is not a video', `${ORIGIN}/profile/creator`],
      ['a path with extra parts', `${ORIGIN}/video/abc/def`],
    ])('answers 400 for the address of %s', async (_name, video) => {
      const response = await notice({ video });
      expect(response).toMatchObject({
        status: 400,
        body: {
          field: 'video',
          message: 'Enter the address of one video on this site (the link of its page, for example /video/abc123) or its id.',
        },
      });
    });

    it('answers 404 for a video that does not exist or is not public', async () => {
      expect((await notice({ video: 'NoSuchVideo' })).status).toBe(404);
      const pending = await insertVideo(database.db, creatorId, { moderationStatus: 'pending', publishedAt: null });
      const response = await notice({ video: pending.streamVideoId });
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('We could not find a public video at that address. It may already have been removed.');
    });

    it('stores NUL-free text and 2,000 emoji as sent, and script tags as plain text', async () => {
      const video = await insertVideo(database.db, creatorId);
      const response = await notice({
        video: `${ORIGIN}/video/${video.streamVideoId}?t=1`,
        reason: 'other',
        details: EMOJI_2000,
        name: EVIL,
        signature: EVIL,
      });
      expect(response.status).toBe(201);
      const [row] = await database.db
        .select()
        .from(reports)
        .where(eq(reports.id, response.body.reference as string));
      expect(row!.details).toBe(EMOJI_2000);
      expect(row!.notifierName).not.toContain('\u0000');
      expect(row!.notifierName).toContain('</script >');
    });

    it('refuses a second notice from the same sender on the same video (409) and limits each address', async () => {
      const video = await insertVideo(database.db, creatorId);
      expect((await notice({ video: video.streamVideoId, reason: 'other' }, '203.0.113.50')).status).toBe(201);
      const again = await notice({ video: video.streamVideoId, reason: 'other' }, '203.0.113.50');
      expect(again).toMatchObject({
        status: 409,
        body: { message: 'You have already sent a notice about this video. We will tell you what we decide.' },
      });
      const ip = '203.0.113.60';
      for (let i = 0; i < 10; i += 1) await notice({ video: 'NoSuchVideo' }, ip);
      const limited = await notice({ video: video.streamVideoId, reason: 'other' }, ip);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Too many notices were sent from your network/);
    });
  });

  describe('urgent notices', () => {
    it('hide the video at once everywhere, record an automated statement of reasons and tell the uploader with its link', async () => {
      const video = await insertVideo(database.db, creatorId, { title: 'Unique orchid clip' });
      const response = await notice({ video: `${ORIGIN}/video/${video.streamVideoId}` });
      expect(response.status).toBe(201);
      expect(response.body.message).toBe(
        'Thank you. We have received your notice and emailed you a reference. We will tell you what we decide.',
      );
      expect(await statusOf(video.id)).toBe('pending');

      expect(
        (await call(videoById, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(404);
      expect(JSON.stringify((await call(recent, '/api/videos')).body)).not.toContain(video.streamVideoId);
      expect(JSON.stringify((await call(search, '/api/videos/search?q=orchid')).body)).not.toContain(video.streamVideoId);
      expect(await (await feed()).text()).not.toContain(video.streamVideoId);
      expect(JSON.stringify(await sitemapEntries())).not.toContain(video.streamVideoId);

      const [decision] = await database.db
        .select()
        .from(moderationDecisions)
        .where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(decision).toMatchObject({
        action: 'video_hidden',
        automated: true,
        ground: 'law-take-it-down',
        source: 'notice',
        subjectUserId: creatorId,
        decidedBy: null,
      });
      const [note] = await database.db.select().from(notifications).where(eq(notifications.recipientId, creatorId));
      expect(note).toMatchObject({ type: 'site_notice', link: `/decisions/${decision!.id}` });

      const [row] = await database.db
        .select()
        .from(reports)
        .where(eq(reports.id, response.body.reference as string));
      expect(row).toMatchObject({
        source: 'notice',
        reason: 'non_consensual',
        heldVideo: true,
        notifierEmail: 'jo@example.org',
        notifierSignature: 'Jo Doe',
      });
      expect(row!.dueAt!.getTime() - row!.createdAt.getTime()).toBe(48 * 3_600_000);
    });

    it('the underage ground is child protection; an in-app report with the same reason holds the video too', async () => {
      const video = await insertVideo(database.db, creatorId);
      const response = await call(report, '/api/reports', {
        method: 'POST',
        json: { targetType: 'video', target: video.streamVideoId, reason: 'underage' },
        bearer: memberToken,
        ip: nextIp(),
      });
      expect(response.status).toBe(201);
      expect(await statusOf(video.id)).toBe('pending');
      const [decision] = await database.db
        .select()
        .from(moderationDecisions)
        .where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(decision).toMatchObject({ action: 'video_hidden', ground: 'law-child-protection', source: 'report' });
    });

    it('an in-app report for spam does not hide the video and is due in 7 business days', async () => {
      const video = await insertVideo(database.db, creatorId);
      expect(
        (
          await call(report, '/api/reports', {
            method: 'POST',
            json: { targetType: 'video', target: video.streamVideoId, reason: 'spam' },
            ip: nextIp(),
          })
        ).status,
      ).toBe(201);
      expect(await statusOf(video.id)).toBe('approved');
      const [row] = await database.db.select().from(reports).where(eq(reports.targetId, video.id));
      expect(row!.dueAt!.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(9 * 86_400_000);
    });

    it('mail: the sender gets an acknowledgement with the reference, admins an alert; the outcome follows the decision', async () => {
      await database.db.delete(jobs);
      rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
      const video = await insertVideo(database.db, creatorId);
      const response = await notice({ video: video.streamVideoId, email: 'Sender@Example.org' });
      await runMailJobs();
      const reference = response.body.reference as string;
      const toSender = outbox(dataDir).filter((m) => m.to.includes('sender@example.org'));
      expect(toSender).toHaveLength(1);
      expect(toSender[0]!.raw.replace(/=\r?\n/g, '')).toContain(reference);
      const alerts = outbox(dataDir).filter((m) => m.to.includes('alerts@example.org'));
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.raw.replace(/=\r?\n/g, '')).toContain('/admin/reports');

      const decided = await call(decide, `/api/admin/reports/${reference}`, {
        method: 'PATCH',
        json: { action: 'remove', note: 'Confirmed with the person shown.' },
        bearer: adminToken,
        params: { id: reference },
      });
      expect(decided.status).toBe(200);
      await runMailJobs();
      const outcome = outbox(dataDir).filter((m) => m.to.includes('sender@example.org'));
      expect(outcome).toHaveLength(2);
      expect(outcome[1]!.raw.replace(/=\r?\n/g, '')).toContain('We removed the content.');
    });

    it('a non-urgent notice sends no admin alert', async () => {
      await database.db.delete(jobs);
      rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
      const video = await insertVideo(database.db, creatorId);
      expect((await notice({ video: video.streamVideoId, reason: 'illegal' })).status).toBe(201);
      await runMailJobs();
      expect(outbox(dataDir).filter((m) => m.to.includes('alerts@example.org'))).toHaveLength(0);
      expect(await statusOf(video.id)).toBe('approved');
    });
  });

  describe('deciding', () => {
    it('refuses approval while the urgent notice is open (the approval gate)', async () => {
      const video = await insertVideo(database.db, creatorId);
      await notice({ video: video.streamVideoId });
      const approve = await call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        json: { action: 'approve' },
        bearer: adminToken,
        params: { streamVideoId: video.streamVideoId },
      });
      expect(approve.status).toBe(409);
      expect(approve.body.message).toBe(URGENT_NOTICE_BLOCKER);
      expect(await statusOf(video.id)).toBe('pending');
    });

    it('dismissing a notice that held the video makes it public again', async () => {
      const video = await insertVideo(database.db, creatorId);
      const { body } = await notice({ video: video.streamVideoId });
      const id = body.reference as string;
      const response = await call(decide, `/api/admin/reports/${id}`, {
        method: 'PATCH',
        json: { action: 'dismiss', note: 'Not the person shown.' },
        bearer: adminToken,
        params: { id },
      });
      expect(response.status).toBe(200);
      expect(response.body.outcome).toBe('dismissed; the video is public again');
      expect(await statusOf(video.id)).toBe('approved');
      expect(
        (await call(videoById, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(200);
    });

    it('dismissing a report that did not hold the video leaves a video held for another reason where it is', async () => {
      const video = await insertVideo(database.db, creatorId, { moderationStatus: 'pending' });
      const [row] = await database.db
        .insert(reports)
        .values({ targetType: 'video', targetId: video.id, reason: 'spam', reporterKey: 'm:x', dueAt: new Date() })
        .returning();
      await call(decide, `/api/admin/reports/${row!.id}`, {
        method: 'PATCH',
        json: { action: 'dismiss' },
        bearer: adminToken,
        params: { id: row!.id },
      });
      expect(await statusOf(video.id)).toBe('pending');
    });

    it('removing records a statement of reasons (video_removed) linked from the uploader’s notification', async () => {
      const video = await insertVideo(database.db, creatorId, { title: 'To be removed' });
      const { body } = await notice({ video: video.streamVideoId, reason: 'illegal' });
      const id = body.reference as string;
      expect(
        (
          await call(decide, `/api/admin/reports/${id}`, {
            method: 'PATCH',
            json: { action: 'remove', note: 'Shows a crime.' },
            bearer: adminToken,
            params: { id },
          })
        ).status,
      ).toBe(200);
      const [decision] = await database.db
        .select()
        .from(moderationDecisions)
        .where(and(eq(moderationDecisions.targetId, video.streamVideoId), eq(moderationDecisions.action, 'video_removed')));
      expect(decision).toMatchObject({ ground: 'law-illegal-content', automated: false, source: 'notice' });
      const [note] = await database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.recipientId, creatorId), eq(notifications.type, 'video_rejected')));
      expect(note!.link).toBe(`/decisions/${decision!.id}`);
    });
  });

  describe('the queue', () => {
    it('orders open items by due time, shows the clock, marks overdue ones and shows senders to admins', async () => {
      const now = Date.parse('2026-06-10T12:00:00Z');
      const a = await insertVideo(database.db, creatorId, { title: 'A' });
      const b = await insertVideo(database.db, creatorId, { title: 'B' });
      const c = await insertVideo(database.db, creatorId, { title: 'C' });
      const at = (iso: string) => new Date(iso);
      await database.db.insert(reports).values([
        {
          targetType: 'video',
          targetId: a.id,
          reason: 'spam',
          reporterKey: 'k1',
          createdAt: at('2026-06-01T12:00:00Z'),
          dueAt: at('2026-06-12T12:00:00Z'),
        },
        {
          targetType: 'video',
          targetId: b.id,
          reason: 'non_consensual',
          reporterKey: 'k2',
          source: 'notice',
          notifierName: 'Jo',
          notifierEmail: 'jo@example.org',
          notifierSignature: 'Jo',
          createdAt: at('2026-06-09T10:00:00Z'),
          dueAt: at('2026-06-11T10:00:00Z'),
        },
        {
          targetType: 'video',
          targetId: c.id,
          reason: 'other',
          details: 'x',
          reporterKey: 'k3',
          createdAt: at('2026-05-30T09:00:00Z'),
          dueAt: at('2026-06-08T09:00:00Z'),
        },
      ]);
      const admin = (await database.db.select().from(users).where(eq(users.username, 'moderator')))[0]!;
      const { reports: list } = await listReports(
        { kind: 'member', user: admin, secondFactor: true } as never,
        'open',
        { page: 1, limit: 20 },
        now,
      );
      expect(list.map((r) => r.target?.type === 'video' && r.target.title)).toEqual(['C', 'B', 'A']);
      expect(list.map((r) => [r.overdue, r.clock])).toEqual([
        [true, 'overdue by 2 days 3 hours'],
        [false, '22 hours left'],
        [false, '2 days left'],
      ]);
      expect(list[1]!.notifier).toEqual({ name: 'Jo', email: 'jo@example.org', signature: 'Jo' });
      expect(list[0]!.notifier).toBeNull();
      // The API answers admins only.
      expect((await call(adminReports, '/api/admin/reports?status=open', { bearer: memberToken })).status).toBe(403);
      expect((await listed()).length).toBe(3);
    });
  });
});
