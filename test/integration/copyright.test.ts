import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { POST as adminLawsuit } from '@/app/api/admin/copyright/takedowns/[id]/lawsuit/route';
import { PATCH as decide } from '@/app/api/admin/reports/[id]/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { POST as counterNotice } from '@/app/api/copyright/counter-notices/route';
import { POST as lawsuit } from '@/app/api/copyright/lawsuits/route';
import { POST as dmca } from '@/app/api/copyright/notices/route';
import { GET as videoById } from '@/app/api/videos/[streamVideoId]/route';
import { getConfig } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import {
  adminAuditLog,
  copyrightTakedowns,
  jobs,
  moderationDecisions,
  notifications,
  reports,
  users,
  videos,
} from '@/lib/db/schema';
import { addBusinessDays } from '@/lib/format/business-days';
import { resetLimiters } from '@/lib/server/rate-limit';
import { counterNoticeForClaimant, RESTORE_JOB, restoreAfterCounterNotice } from '@/lib/server/trust/copyright';
import { TRUST_EMAIL_JOB, TRUST_MAIL_JOB_HANDLERS } from '@/lib/server/trust/mail';
import { TAKEDOWN_BLOCKER } from '@/lib/server/trust/notice-checks';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-copyright-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const EVIL = `</script ><b>x</b>\u0000${'🦋'.repeat(50)}`;

describe.each(ENGINES)('copyright takedowns on %s', (engine) => {
  let database: TestDatabase;
  let uploaderToken: string;
  let uploaderId: string;
  let otherToken: string;
  let adminToken: string;
  let address = 0;
  const nextIp = () => `198.51.100.${(address += 1) % 250}`;

  const NOTICE = {
    work: 'My film “Dawn” (2025), on my own site',
    name: 'Rita Owner',
    address: '1 Main St\nSpringfield',
    phone: '+1 (555) 010-0000',
    email: 'rita@example.org',
    signature: 'Rita Owner',
    goodFaith: true,
    perjury: true,
  };
  const COUNTER = {
    material: 'My video “Dawn”, at /video/…',
    name: 'Alex Uploader',
    address: '2 Side St, London',
    phone: '+44 20 7946 0000',
    signature: 'Alex Uploader',
    mistake: true,
    jurisdiction: true,
  };
  const sendDmca = (fields: Record<string, unknown>) =>
    call(dmca, '/api/copyright/notices', { method: 'POST', ip: nextIp(), json: { ...NOTICE, ...fields } });
  const sendCounter = (fields: Record<string, unknown>, bearer = uploaderToken) =>
    call(counterNotice, '/api/copyright/counter-notices', { method: 'POST', bearer, json: { ...COUNTER, ...fields } });
  const statusOf = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!.moderationStatus;
  const takedownOf = async (videoId: string) =>
    (await database.db.select().from(copyrightTakedowns).where(eq(copyrightTakedowns.videoId, videoId)))[0]!;
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
  /** The message's text as a reader sees it: quoted-printable unfolded, base64 parts (nodemailer's choice for mostly non-ASCII text) decoded. */
  const unfold = (raw: string) =>
    raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') +
    [...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/g)]
      .map((match) => Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'))
      .join('\n');
  async function takenDown(title = 'Dawn remix') {
    const video = await insertVideo(database.db, uploaderId, { title });
    const response = await sendDmca({ video: `${ORIGIN}/video/${video.streamVideoId}` });
    expect(response.status).toBe(201);
    return video;
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    uploaderToken = await verifiedMemberToken(database.db, 'uploader');
    uploaderId = await userId(database.db, 'uploader');
    // A restore after a counter-notice goes through the gate, which needs a verified uploader (decision 014).
    await verifiedUploader(database.db, uploaderId);
    otherToken = await verifiedMemberToken(database.db, 'other');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
  });
  afterAll(() => database.destroy());

  describe('notices', () => {
    it.each([
      ['no signature', { signature: '' }, 'signature', 'Type your full name as your signature'],
      ['no work', { work: ' ' }, 'work', 'Describe the copyrighted work'],
      ['no address', { address: '' }, 'address', 'Enter your postal address'],
      ['no phone', { phone: '' }, 'phone', 'Enter a phone number we can reach you on'],
      [
        'a phone that is not one',
        { phone: 'call me maybe' },
        'phone',
        'That phone number is not valid: use digits, spaces and + ( ) - only',
      ],
      ['no good-faith statement', { goodFaith: false }, 'goodFaith', 'Please confirm the declaration of good faith'],
      [
        'no statement under penalty of perjury',
        { perjury: undefined },
        'perjury',
        'Please confirm the statement under penalty of perjury',
      ],
      [
        'a bad URL',
        { video: 'https://elsewhere.example/video/abc' },
        'video',
        'Enter the address of one video on this site (the link of its page, for example /video/abc123) or its id.',
      ],
    ])('answer 400 for %s, and nothing is taken down', async (_name, fields, field, message) => {
      const video = await insertVideo(database.db, uploaderId);
      const response = await sendDmca({ video: video.streamVideoId, ...fields });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message, field });
      expect(await statusOf(video.id)).toBe('approved');
      expect(await database.db.select().from(copyrightTakedowns).where(eq(copyrightTakedowns.videoId, video.id))).toHaveLength(0);
    });

    it('a valid notice takes the video down, queues it as a copyright notice, records the statement of reasons and tells the uploader', async () => {
      await database.db.delete(jobs);
      rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
      const video = await insertVideo(database.db, uploaderId, { title: 'Dawn remix' });
      const response = await sendDmca({ video: `${ORIGIN}/video/${video.streamVideoId}`, name: EVIL });
      expect(response.status).toBe(201);
      expect(await statusOf(video.id)).toBe('pending');
      expect(
        (await call(videoById, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(404);
      const [row] = await database.db
        .select()
        .from(reports)
        .where(eq(reports.id, response.body.reference as string));
      expect(row).toMatchObject({ reason: 'copyright', source: 'notice', heldVideo: true, notifierEmail: 'rita@example.org' });
      const takedown = await takedownOf(video.id);
      expect(takedown).toMatchObject({ status: 'active', uploaderId, claimantPhone: '+1 (555) 010-0000' });
      expect(takedown.claimantName).not.toContain('\u0000');
      const [decision] = await database.db
        .select()
        .from(moderationDecisions)
        .where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(decision).toMatchObject({
        action: 'video_taken_down',
        ground: 'law-copyright-dmca',
        automated: true,
        source: 'copyright',
      });
      const [note] = await database.db.select().from(notifications).where(eq(notifications.recipientId, uploaderId));
      expect(note!.link).toBe(`/decisions/${decision!.id}`);
      await runMailJobs();
      const toUploader = outbox(dataDir).filter((m) => m.to.includes('uploader@example.org'));
      expect(toUploader).toHaveLength(1);
      expect(unfold(toUploader[0]!.raw)).toContain(`/copyright/counter-notice?video=${video.streamVideoId}`);

      const approve = await call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        json: { action: 'approve' },
        bearer: adminToken,
        params: { streamVideoId: video.streamVideoId },
      });
      expect(approve).toMatchObject({ status: 409, body: { message: TAKEDOWN_BLOCKER } });
    });
  });

  describe('counter-notices', () => {
    it('are refused for someone else’s video (404), a video not taken down (409), bad input (400) and visitors (401)', async () => {
      const video = await takenDown();
      const notTaken = await insertVideo(database.db, uploaderId);
      expect((await sendCounter({ video: video.streamVideoId }, otherToken)).status).toBe(404);
      expect(await sendCounter({ video: notTaken.streamVideoId })).toMatchObject({
        status: 409,
        body: { message: 'This video was not taken down.' },
      });
      expect((await sendCounter({ video: '../x' })).status).toBe(404);
      expect(await sendCounter({ video: video.streamVideoId, jurisdiction: false })).toMatchObject({
        status: 400,
        body: { field: 'jurisdiction', message: 'Please consent to the court’s jurisdiction and to accept service' },
      });
      expect(await sendCounter({ video: video.streamVideoId, mistake: undefined })).toMatchObject({
        status: 400,
        body: { field: 'mistake' },
      });
      expect(await sendCounter({ video: video.streamVideoId, name: '\u0000' })).toMatchObject({
        status: 400,
        body: { field: 'name' },
      });
      const visitor = await call(counterNotice, '/api/copyright/counter-notices', {
        method: 'POST',
        json: { ...COUNTER, video: video.streamVideoId },
      });
      expect(visitor.status).toBe(401);
      expect((await takedownOf(video.id)).status).toBe('active');
    });

    it('is forwarded to the claimant, schedules the restore and cannot be sent twice; the restore waits for its time', async () => {
      await database.db.delete(jobs);
      rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
      const video = await takenDown();
      const response = await sendCounter({ video: video.streamVideoId, material: `${'🦋'.repeat(2000)}` });
      expect(response.status).toBe(201);
      const takedown = await takedownOf(video.id);
      expect(takedown.status).toBe('counter_noticed');
      // 10 to 14 business days (17 U.S.C. 512(g)(2)(C)): two calendar weeks from a weekday, 12 or 13 days from a weekend.
      const waitDays = getConfig().trust.counterNoticeWaitBusinessDays;
      expect(waitDays).toBeGreaterThanOrEqual(10);
      expect(takedown.restoreAt).toEqual(addBusinessDays(takedown.counterAt!, waitDays));
      const days = (takedown.restoreAt!.getTime() - takedown.counterAt!.getTime()) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(waitDays + 2);
      expect(days).toBeLessThanOrEqual(waitDays + 6);
      const [job] = await database.db.select().from(jobs).where(eq(jobs.type, RESTORE_JOB));
      expect(job!.runAt.getTime()).toBe(takedown.restoreAt!.getTime());

      const again = await sendCounter({ video: video.streamVideoId });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/^You have already sent a counter-notice/);

      await runMailJobs();
      const forwarded = outbox(dataDir).filter(
        (m) => m.to.includes('rita@example.org') && unfold(m.raw).includes('/copyright/lawsuit?token='),
      );
      expect(forwarded).toHaveLength(1);
      // The mail carries our words and the link; the counter-notice itself is on the page the link opens.
      expect(forwarded[0]!.text).not.toContain('Alex Uploader');
      const linked = decodeURIComponent(/\/copyright\/lawsuit\?token=([A-Za-z0-9_%-]+)/.exec(unfold(forwarded[0]!.raw))![1]!);
      expect(await counterNoticeForClaimant(linked)).toMatchObject({
        name: 'Alex Uploader',
        phone: COUNTER.phone,
        status: 'counter_noticed',
      });
      expect(await counterNoticeForClaimant(`${linked}x`)).toBeNull();

      expect(await restoreAfterCounterNotice(takedown.id, new Date(takedown.restoreAt!.getTime() - 60_000))).toBe('not-due');
      expect(await statusOf(video.id)).toBe('pending');
      expect(await restoreAfterCounterNotice(takedown.id, new Date(takedown.restoreAt!.getTime() + 1000))).toBe('restored');
      expect(await statusOf(video.id)).toBe('approved');
      expect((await takedownOf(video.id)).status).toBe('restored');
      const [restored] = await database.db
        .select()
        .from(moderationDecisions)
        .where(and(eq(moderationDecisions.targetId, video.streamVideoId), eq(moderationDecisions.action, 'video_restored')));
      expect(restored).toBeDefined();
      // A rerun of the job changes nothing.
      expect(await restoreAfterCounterNotice(takedown.id, new Date(takedown.restoreAt!.getTime() + 2000))).toBe('skipped');

      // Too late for a lawsuit once restored.
      const token = /\/copyright\/lawsuit\?token=([A-Za-z0-9_%-]+)/.exec(unfold(forwarded[0]!.raw))![1]!;
      const late = await call(lawsuit, '/api/copyright/lawsuits', {
        method: 'POST',
        json: { token: decodeURIComponent(token), details: 'Case 1' },
      });
      expect(late.status).toBe(409);
    });

    it('a lawsuit reported through the claimant’s link stops the restore; the link cannot be reused or forged', async () => {
      await database.db.delete(jobs);
      rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
      const video = await takenDown('Lawsuit clip');
      expect((await sendCounter({ video: video.streamVideoId })).status).toBe(201);
      await runMailJobs();
      const mail = outbox(dataDir).find(
        (m) => m.to.includes('rita@example.org') && unfold(m.raw).includes('/copyright/lawsuit?token='),
      )!;
      const token = decodeURIComponent(/\/copyright\/lawsuit\?token=([A-Za-z0-9_%-]+)/.exec(unfold(mail.raw))![1]!);
      const forged = await call(lawsuit, '/api/copyright/lawsuits', {
        method: 'POST',
        json: { token: `${token}x`, details: 'Case 1' },
      });
      expect(forged).toMatchObject({
        status: 400,
        body: { message: 'This link is not valid. Open the whole link from the email we sent you.' },
      });
      expect((await call(lawsuit, '/api/copyright/lawsuits', { method: 'POST', json: { token, details: '' } })).status).toBe(400);
      const filed = await call(lawsuit, '/api/copyright/lawsuits', {
        method: 'POST',
        json: { token, details: 'Case 1:26-cv-00042, S.D.N.Y.' },
      });
      expect(filed.status).toBe(200);
      const reused = await call(lawsuit, '/api/copyright/lawsuits', { method: 'POST', json: { token, details: 'again' } });
      expect(reused).toMatchObject({
        status: 409,
        body: { message: 'You have already told us about the lawsuit. The video stays down.' },
      });
      const takedown = await takedownOf(video.id);
      expect(takedown).toMatchObject({ status: 'lawsuit', lawsuitDetails: 'Case 1:26-cv-00042, S.D.N.Y.' });
      expect(await restoreAfterCounterNotice(takedown.id, new Date(takedown.restoreAt!.getTime() + 1000))).toBe('skipped');
      expect(await statusOf(video.id)).toBe('pending');
    });

    it('an admin can record a lawsuit, audited; not on a takedown without a counter-notice', async () => {
      const video = await takenDown('Admin lawsuit clip');
      const takedown = await takedownOf(video.id);
      const early = await call(adminLawsuit, `/api/admin/copyright/takedowns/${takedown.id}/lawsuit`, {
        method: 'POST',
        json: { details: 'Case 2' },
        bearer: adminToken,
        params: { id: takedown.id },
      });
      expect(early.status).toBe(409);
      expect((await sendCounter({ video: video.streamVideoId })).status).toBe(201);
      const byMember = await call(adminLawsuit, `/api/admin/copyright/takedowns/${takedown.id}/lawsuit`, {
        method: 'POST',
        json: { details: 'Case 2' },
        bearer: uploaderToken,
        params: { id: takedown.id },
      });
      expect(byMember.status).toBe(403);
      const ok = await call(adminLawsuit, `/api/admin/copyright/takedowns/${takedown.id}/lawsuit`, {
        method: 'POST',
        json: { details: 'Case 2' },
        bearer: adminToken,
        params: { id: takedown.id },
      });
      expect(ok.status).toBe(200);
      expect((await takedownOf(video.id)).status).toBe('lawsuit');
      const audit = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'copyright.lawsuit'));
      expect(audit).toHaveLength(1);
    });
  });

  describe('admin decisions and strikes', () => {
    it('dismissing a DMCA notice withdraws the takedown and restores the video', async () => {
      const video = await takenDown('Wrongly claimed');
      const takedown = await takedownOf(video.id);
      const response = await call(decide, `/api/admin/reports/${takedown.reportId}`, {
        method: 'PATCH',
        json: { action: 'dismiss', note: 'The uploader owns it.' },
        bearer: adminToken,
        params: { id: takedown.reportId! },
      });
      expect(response.status).toBe(200);
      expect((await takedownOf(video.id)).status).toBe('withdrawn');
      expect(await statusOf(video.id)).toBe('approved');
    });

    it('upheld takedowns are strikes; at the third the account ends with a statement of reasons', async () => {
      const [before] = await database.db.select().from(users).where(eq(users.id, uploaderId));
      expect(before!.bannedAt).toBeNull();
      for (let strike = 1; strike <= 3; strike += 1) {
        const video = await takenDown(`Infringing ${strike}`);
        const takedown = await takedownOf(video.id);
        const response = await call(decide, `/api/admin/reports/${takedown.reportId}`, {
          method: 'PATCH',
          json: { action: 'remove' },
          bearer: adminToken,
          params: { id: takedown.reportId! },
        });
        expect(response.status).toBe(200);
        expect((await takedownOf(video.id)).status).toBe('upheld');
        const [member] = await database.db.select().from(users).where(eq(users.id, uploaderId));
        if (strike < 3) expect(member!.bannedAt).toBeNull();
        else {
          expect(member!.bannedAt).not.toBeNull();
          expect(response.body.outcome).toMatch(/closed the uploader's account/);
        }
      }
      const [terminated] = await database.db
        .select()
        .from(moderationDecisions)
        .where(and(eq(moderationDecisions.subjectUserId, uploaderId), eq(moderationDecisions.action, 'account_terminated')));
      expect(terminated).toMatchObject({ ground: 'law-copyright-dmca', targetType: 'account' });
    });
  });
});
