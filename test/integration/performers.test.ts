/**
 * Performer records and withdrawal of consent (decision 015): saving them
 * (every bad input a clear 400 and nothing stored), who may read and write
 * them, the approval gate, records kept after deletion, and a withdrawal
 * that hides the video from every public surface until an admin resolves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';

import { POST as resolveWithdrawal } from '@/app/api/admin/consent-withdrawals/[id]/route';
import { GET as moderationList } from '@/app/api/admin/videos/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { POST as withdraw } from '@/app/api/consent-withdrawals/route';
import { GET as feed } from '@/app/api/videos/route';
import { DELETE as deleteVideoRoute, GET as videoRoute } from '@/app/api/videos/[streamVideoId]/route';
import { GET as readPerformers, PUT as savePerformers } from '@/app/api/videos/[streamVideoId]/performers/route';
import { GET as searchRoute } from '@/app/api/videos/search/route';
import { GET as rssFeed } from '@/app/feed.xml/route';
import type { ModerationVideoDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import {
  adminAuditLog,
  consentWithdrawals,
  jobs,
  moderationDecisions,
  notifications,
  privateDocuments,
  users,
  videoPerformers,
  videos,
  type User,
} from '@/lib/db/schema';
import { startSession } from '@/lib/server/auth/session';
import { TRUST_EMAIL_JOB, type TrustEmail } from '@/lib/server/trust/mail';
import { sweepPrivateDocuments } from '@/lib/server/verification/retention';
import { resetLimiters } from '@/lib/server/rate-limit';
import { RELEASE_STATEMENTS } from '@/lib/trust/performers';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { sitemapEntries } from '../helpers/sitemap';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-performers-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const ALL_STATEMENTS = RELEASE_STATEMENTS.map((statement) => statement.id);

const coPerformer = (overrides: Record<string, unknown> = {}) => ({
  legalName: 'Samantha Doe',
  stageName: 'Sam Star',
  dateOfBirth: '1995-06-15',
  consent: 'release_form',
  release: { signature: 'Samantha Doe', signedOn: '2026-01-02', statements: ALL_STATEMENTS },
  ...overrides,
});

function recordsForm(
  records: Record<string, unknown>,
  files: Record<string, Buffer | null> = { 'coPerformers.0.idDocument': PNG },
): FormData {
  const form = new FormData();
  form.set('records', JSON.stringify({ recordedOn: '2026-01-01', uploaderAppears: true, coPerformers: [], ...records }));
  for (const [name, bytes] of Object.entries(files))
    if (bytes) form.set(name, new File([new Uint8Array(bytes)], name.endsWith('releaseDocument') ? 'release.pdf' : 'id.png'));
  return form;
}

describe.each(ENGINES)('performer records on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let otherToken: string;
  let adminToken: string;
  let ownerId: string;
  let ip = 0;
  const nextIp = () => `198.51.100.${(ip += 1)}`;

  const pending = (fields: Partial<typeof videos.$inferInsert> = {}) =>
    insertVideo(database.db, ownerId, {
      moderationStatus: 'pending',
      publishedAt: null,
      performersDeclaredAt: null,
      recordedOn: null,
      ...fields,
    });
  const put = (streamVideoId: string, form: FormData, bearer: string | undefined = ownerToken) =>
    call(savePerformers, `/api/videos/${streamVideoId}/performers`, { method: 'PUT', form, bearer, params: { streamVideoId } });
  const get = (streamVideoId: string, bearer?: string) =>
    call(readPerformers, `/api/videos/${streamVideoId}/performers`, { bearer, params: { streamVideoId } });
  const approve = (streamVideoId: string) =>
    call(moderate, `/api/admin/videos/${streamVideoId}`, {
      method: 'PATCH',
      json: { action: 'approve' },
      bearer: adminToken,
      params: { streamVideoId },
    });
  const rowsOf = (videoId: string) => database.db.select().from(videoPerformers).where(eq(videoPerformers.videoId, videoId));
  const documentCount = async () => (await database.db.select({ id: privateDocuments.id }).from(privateDocuments)).length;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    ownerToken = await verifiedMemberToken(database.db, 'uploader');
    otherToken = await verifiedMemberToken(database.db, 'stranger');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    ownerId = await userId(database.db, 'uploader');
    // The gate's first check is the uploader's identity (decision 014); these tests are about the records after it.
    await verifiedUploader(database.db, ownerId);
  });
  afterAll(() => database.destroy());

  describe('saving', () => {
    it('saves the uploader and a co-performer with the release form, their ID sealed, and lets the video be approved', async () => {
      const video = await pending();
      expect((await approve(video.streamVideoId)).body.message).toBe(
        'The uploader has not declared who appears in this video yet (performer records are missing), so it cannot be approved.',
      );
      const response = await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('The performer records are saved. Your video can now be reviewed.');
      expect(response.body.records).toMatchObject({
        complete: true,
        recordedOn: '2026-01-01',
        uploaderAppears: true,
        coPerformers: [
          {
            legalName: 'Samantha Doe',
            stageName: 'Sam Star',
            dateOfBirth: '1995-06-15',
            ageAtRecording: 30,
            consent: 'release_form',
            idDocumentUrl: null,
          },
        ],
      });
      const rows = await rowsOf(video.id);
      expect(rows).toHaveLength(2);
      const [document] = await database.db.select().from(privateDocuments).where(eq(privateDocuments.id, rows[1]!.idDocumentId!));
      expect(document).toMatchObject({ purpose: 'performer_id', mediaType: 'image/png', ownerId });
      expect(Buffer.from(document!.sealed).includes(PNG.subarray(8, 24))).toBe(false);
      expect((await approve(video.streamVideoId)).status).toBe(200);
    });

    it('takes "Only me" and a signed PDF release instead of the form', async () => {
      const only = await pending();
      expect((await put(only.streamVideoId, recordsForm({}, {}))).status).toBe(200);
      const pdf = await pending();
      const response = await put(
        pdf.streamVideoId,
        recordsForm(
          { uploaderAppears: false, coPerformers: [coPerformer({ consent: 'signed_pdf', release: undefined })] },
          { 'coPerformers.0.idDocument': PDF, 'coPerformers.0.releaseDocument': PDF },
        ),
      );
      expect(response.status).toBe(200);
      expect((await rowsOf(pdf.id))[0]).toMatchObject({ isUploader: false, consentType: 'signed_pdf', releaseSignature: null });
    });

    it.each([
      [
        'nobody',
        { uploaderAppears: false },
        'List everyone who appears in the video: choose "Only me", add a co-performer, or both.',
      ],
      ['no recording date', { recordedOn: '' }, 'Enter the date the video was recorded.'],
      ['an impossible recording date', { recordedOn: '2026-02-30' }, 'Enter the date the video was recorded.'],
      ['a recording date in the future', { recordedOn: '2999-01-01' }, 'The recording date cannot be in the future.'],
      ['a missing legal name', { coPerformers: [coPerformer({ legalName: '  ' })] }, 'Sam Star: enter their legal name.'],
      [
        'a missing stage name',
        { coPerformers: [coPerformer({ stageName: undefined })] },
        'Samantha Doe: enter their stage name (the name they use on screen).',
      ],
      ['a missing date of birth', { coPerformers: [coPerformer({ dateOfBirth: '' })] }, 'Sam Star: enter their date of birth.'],
      [
        'no consent type',
        { coPerformers: [coPerformer({ consent: 'handshake' })] },
        'Sam Star: choose how they consented: the release form here, or an uploaded signed release.',
      ],
      [
        'a release without signature',
        { coPerformers: [coPerformer({ release: { signature: '', signedOn: '2026-01-02', statements: ALL_STATEMENTS } })] },
        'Sam Star: type their full legal name as the signature of the release.',
      ],
      [
        'a release without date',
        { coPerformers: [coPerformer({ release: { signature: 'S', signedOn: '', statements: ALL_STATEMENTS } })] },
        'Sam Star: enter the date the release was signed.',
      ],
      [
        'an unticked statement',
        {
          coPerformers: [
            coPerformer({ release: { signature: 'S', signedOn: '2026-01-02', statements: ['adult', 'filmed', 'withdrawal'] } }),
          ],
        },
        'Sam Star: tick every statement of the release; missing: “I agree to this video being published on Chrysalis.”',
      ],
      [
        'under 18 on the recording date',
        { coPerformers: [coPerformer({ dateOfBirth: '2008-01-02' })] },
        'Sam Star was under 18 on the recording date (2026-01-01). Everyone in a video must have been 18 or older when it was recorded.',
      ],
      [
        'a second performer under 18',
        { coPerformers: [coPerformer(), coPerformer({ stageName: 'Kid', dateOfBirth: '2010-05-05' })] },
        'Kid was under 18 on the recording date (2026-01-01). Everyone in a video must have been 18 or older when it was recorded.',
      ],
    ])('refuses %s with a clear 400 and stores nothing', async (_case, records, message) => {
      const video = await pending();
      const before = await documentCount();
      const response = await put(
        video.streamVideoId,
        recordsForm(records as Record<string, unknown>, { 'coPerformers.0.idDocument': PNG, 'coPerformers.1.idDocument': PNG }),
      );
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
      expect(await rowsOf(video.id)).toHaveLength(0);
      expect(await documentCount()).toBe(before);
      const [after] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(after!.performersDeclaredAt).toBeNull();
    });

    it('counts 18 from the birthday itself: 18 on the day is fine, the day before is not', async () => {
      expect(
        (await put((await pending()).streamVideoId, recordsForm({ coPerformers: [coPerformer({ dateOfBirth: '2008-01-01' })] })))
          .status,
      ).toBe(200);
      expect(
        (await put((await pending()).streamVideoId, recordsForm({ coPerformers: [coPerformer({ dateOfBirth: '2008-01-02' })] })))
          .status,
      ).toBe(400);
    });

    it('refuses missing documents, a .txt renamed .pdf, and a release PDF that is not one, naming the performer; nothing half-stored', async () => {
      const video = await pending();
      const before = await documentCount();
      const missingId = await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }, {}));
      expect(missingId.body).toMatchObject({
        message: 'Sam Star: attach a photo or PDF of their ID document.',
        field: 'coPerformers.0.idDocument',
      });
      const missingRelease = await put(
        video.streamVideoId,
        recordsForm({ coPerformers: [coPerformer({ consent: 'signed_pdf' })] }),
      );
      expect(missingRelease.body.message).toBe('Sam Star: attach their signed release (a PDF or a photo of it).');
      const text = Buffer.from('just some text, not a PDF\n');
      const fake = await put(
        video.streamVideoId,
        recordsForm({ coPerformers: [coPerformer()] }, { 'coPerformers.0.idDocument': text }),
      );
      expect(fake.status).toBe(400);
      expect(fake.body.message).toBe('Sam Star: Documents must be a photo (JPEG, PNG or WebP) or a PDF.');
      // The first performer's documents are stored before the second's fake release is found: the transaction takes them back.
      const second = await put(
        video.streamVideoId,
        recordsForm(
          { coPerformers: [coPerformer(), coPerformer({ stageName: 'Jo', consent: 'signed_pdf' })] },
          { 'coPerformers.0.idDocument': PNG, 'coPerformers.1.idDocument': PNG, 'coPerformers.1.releaseDocument': text },
        ),
      );
      expect(second.body.message).toBe('Jo: Documents must be a photo (JPEG, PNG or WebP) or a PDF.');
      expect(await rowsOf(video.id)).toHaveLength(0);
      expect(await documentCount()).toBe(before);
    });

    it('refuses unreadable records, NUL bytes and markup are stored as plain text', async () => {
      const video = await pending();
      const broken = new FormData();
      broken.set('records', '{not json');
      expect((await put(video.streamVideoId, broken)).body.message).toBe(
        'The performer records could not be read. Please try again.',
      );
      expect((await put(video.streamVideoId, new FormData())).status).toBe(400);
      const tricky = coPerformer({ legalName: 'Sam\u0000 </script >Doe', stageName: '🦋'.repeat(100) });
      const response = await put(video.streamVideoId, recordsForm({ coPerformers: [tricky] }));
      expect(response.status).toBe(200);
      expect((await rowsOf(video.id))[1]!.legalName).toBe('Sam </script >Doe');
      expect(
        (await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer({ stageName: '🦋'.repeat(101) })] }))).status,
      ).toBe(400);
    });

    it('replaces earlier records and their documents when saved again', async () => {
      const video = await pending();
      await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      const first = (await rowsOf(video.id))[1]!.idDocumentId!;
      expect((await put(video.streamVideoId, recordsForm({}, {}))).status).toBe(200);
      expect(await rowsOf(video.id)).toHaveLength(1);
      expect(await database.db.select().from(privateDocuments).where(eq(privateDocuments.id, first))).toHaveLength(0);
    });
  });

  describe('who may read and write them', () => {
    it('refuses visitors (401), strangers (404 for a pending video, 403 for a public one), someone else’s id and admins’ writes', async () => {
      const hidden = await pending();
      const shown = await insertVideo(database.db, ownerId, { title: 'Public one' });
      expect((await put(hidden.streamVideoId, recordsForm({}, {}), '')).status).toBe(401);
      expect((await get(hidden.streamVideoId)).status).toBe(401);
      expect((await put(hidden.streamVideoId, recordsForm({}, {}), otherToken)).status).toBe(404);
      expect((await get(hidden.streamVideoId, otherToken)).status).toBe(404);
      expect((await get(shown.streamVideoId, otherToken)).body.message).toBe(
        'You can only see the performer records of your own videos.',
      );
      expect((await put(shown.streamVideoId, recordsForm({}, {}), otherToken)).status).toBe(403);
      expect((await put('no-such-video', recordsForm({}, {}))).status).toBe(404);
      expect((await put('../../etc', recordsForm({}, {}))).status).toBe(404);
      const byAdmin = await put(hidden.streamVideoId, recordsForm({}, {}), adminToken);
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body.message).toBe('Only the uploader can declare who appears in their video.');
      expect(await rowsOf(hidden.id)).toHaveLength(0);
    });

    it('lets the owner read them without document links and an admin with links to the audited document route', async () => {
      const video = await pending();
      await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      const mine = await get(video.streamVideoId, ownerToken);
      expect(mine.status).toBe(200);
      expect(
        (mine.body.records as { coPerformers: { idDocumentUrl: string | null }[] }).coPerformers[0]!.idDocumentUrl,
      ).toBeNull();
      const admin = await get(video.streamVideoId, adminToken);
      const [row] = (await rowsOf(video.id)).filter((r) => !r.isUploader);
      expect((admin.body.records as { coPerformers: { idDocumentUrl: string }[] }).coPerformers[0]!.idDocumentUrl).toBe(
        `/api/admin/documents/${row!.idDocumentId}`,
      );
    });

    it('treats an admin whose session did not pass the second factor as a stranger (a stolen password reads no legal names)', async () => {
      const video = await pending();
      await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      const shown = await insertVideo(database.db, ownerId, { title: 'Public, with records' });
      await promoteToAdmin(database.db, await userId(database.db, 'stranger'));
      const [stranger] = await database.db.select().from(users).where(eq(users.username, 'stranger'));
      // A login with the password only: the session an attacker with the admin's password gets.
      const passwordOnly = (await startSession(stranger as User)).token;
      try {
        const hidden = await get(video.streamVideoId, passwordOnly);
        expect([hidden.status, hidden.body.message]).toEqual([404, 'Video not found']);
        const open = await get(shown.streamVideoId, passwordOnly);
        expect([open.status, open.body.message]).toEqual([403, 'You can only see the performer records of your own videos.']);
      } finally {
        await database.db.update(users).set({ isAdmin: false }).where(eq(users.username, 'stranger'));
      }
    });

    it('locks the records of a public video', async () => {
      const shown = await insertVideo(database.db, ownerId, { title: 'Already public' });
      const response = await put(shown.streamVideoId, recordsForm({}, {}));
      expect(response.status).toBe(409);
      expect(response.body.message).toMatch(/^This video is public, so its performer records can no longer be changed/);
    });
  });

  describe('the approval gate', () => {
    it('refuses records changed by hand to a performer under 18 or without an ID, and shows the reasons in the moderation queue', async () => {
      const video = await pending({ title: 'Gate check' });
      await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      const [row] = (await rowsOf(video.id)).filter((r) => !r.isUploader);
      await database.db.update(videoPerformers).set({ dateOfBirth: '2010-01-01' }).where(eq(videoPerformers.id, row!.id));
      expect((await approve(video.streamVideoId)).body.message).toBe(
        'Sam Star was under 18 on the recording date (2026-01-01), so the video cannot be approved.',
      );
      await database.db
        .update(videoPerformers)
        .set({ dateOfBirth: '1990-01-01', idDocumentId: null })
        .where(eq(videoPerformers.id, row!.id));
      expect((await approve(video.streamVideoId)).body.message).toMatch(/^The performer record of Sam Star is incomplete/);
      let item: ModerationVideoDto | undefined;
      for (let page = 1; !item && page < 20; page += 1) {
        const list = await call(moderationList, `/api/admin/videos?status=pending&limit=24&page=${page}`, { bearer: adminToken });
        expect(list.status).toBe(200);
        item = (list.body.videos as ModerationVideoDto[]).find((v) => v.streamVideoId === video.streamVideoId);
      }
      if (!item) throw new Error('not in the queue');
      expect(item.approvalBlockers[0]).toMatch(/^The performer record of Sam Star is incomplete/);
      expect(item.performerRecords).toMatchObject({
        complete: true,
        recordedOn: '2026-01-01',
        coPerformers: [{ stageName: 'Sam Star', ageAtRecording: 36 }],
      });
      const [stillPending] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(stillPending!.moderationStatus).toBe('pending');
    });
  });

  describe('deletion keeps the records (18 U.S.C. 2257)', () => {
    it('keeps the performer rows and documents of a deleted video with a delete_after seven years on', async () => {
      const video = await pending();
      await put(video.streamVideoId, recordsForm({ coPerformers: [coPerformer()] }));
      const response = await call(deleteVideoRoute, `/api/videos/${video.streamVideoId}`, {
        method: 'DELETE',
        bearer: ownerToken,
        params: { streamVideoId: video.streamVideoId },
      });
      expect(response.status).toBe(200);
      expect(await database.db.select().from(videos).where(eq(videos.id, video.id))).toHaveLength(0);
      const rows = await rowsOf(video.id);
      expect(rows).toHaveLength(2);
      const years = (rows[0]!.deleteAfter!.getTime() - Date.now()) / (365.25 * 86_400_000);
      expect(years).toBeGreaterThan(6.9);
      expect(years).toBeLessThan(7.1);
      const [document] = await database.db.select().from(privateDocuments).where(eq(privateDocuments.id, rows[1]!.idDocumentId!));
      expect(document!.deleteAfter).not.toBeNull();

      // Seven years on, the hourly sweep deletes the records and their documents; not a day before.
      await sweepPrivateDocuments(database.db);
      expect(await rowsOf(video.id)).toHaveLength(2);
      await database.db.execute(
        sql`UPDATE video_performers SET delete_after = now() - interval '1 second' WHERE video_id = ${video.id}`,
      );
      await database.db.execute(
        sql`UPDATE private_documents SET delete_after = now() - interval '1 second' WHERE id = ${rows[1]!.idDocumentId!}`,
      );
      expect(await sweepPrivateDocuments(database.db)).toMatchObject({ performers: 2 });
      expect(await rowsOf(video.id)).toHaveLength(0);
      expect(
        await database.db.select().from(privateDocuments).where(eq(privateDocuments.id, rows[1]!.idDocumentId!)),
      ).toHaveLength(0);
    });
  });

  describe('withdrawal of consent', () => {
    const send = (json: Record<string, unknown>, address = nextIp()) =>
      call(withdraw, '/api/consent-withdrawals', {
        json: {
          legalName: 'Samantha Doe',
          dateOfBirth: '1995-06-15',
          email: 'sam@example.org',
          statement: 'I appear in this video and withdraw my consent.',
          ...json,
        },
        ip: address,
      });
    /** Trust mail queued for an address, oldest first (lib/server/trust/mail.ts sends it from the worker). */
    const mailTo = async (address: string) =>
      (await database.db.select().from(jobs).where(eq(jobs.type, TRUST_EMAIL_JOB)).orderBy(jobs.createdAt))
        .map((job) => job.payload as unknown as TrustEmail)
        .filter((email) => email.to === address);
    const THANKS =
      'Thank you. If that video is on Chrysalis, it is now hidden while we review your request. We will write to you at the email address you gave.';

    it('hides a public video at once from every public surface, tells the uploader why, and blocks approval', async () => {
      const video = await insertVideo(database.db, ownerId, { title: 'Orchid withdrawal' });
      expect(
        (await call(videoRoute, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(200);
      const response = await send({ video: `${ORIGIN}/video/${video.streamVideoId}` });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ message: THANKS });

      expect(
        (await call(videoRoute, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(404);
      const list = await call(feed, '/api/videos?limit=100');
      expect(JSON.stringify(list.body)).not.toContain(video.streamVideoId);
      const search = await call(searchRoute, '/api/videos/search?q=orchid');
      expect(JSON.stringify(search.body)).not.toContain(video.streamVideoId);
      expect(await (await rssFeed()).text()).not.toContain(video.streamVideoId);
      expect(JSON.stringify(await sitemapEntries())).not.toContain(video.streamVideoId);

      const [withdrawal] = await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, video.id));
      expect(withdrawal).toMatchObject({ status: 'open', legalName: 'Samantha Doe', email: 'sam@example.org' });
      const [decision] = await database.db
        .select()
        .from(moderationDecisions)
        .where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(decision).toMatchObject({
        action: 'video_hidden',
        ground: 'standards-age-and-consent',
        automated: true,
        source: 'consent',
        subjectUserId: ownerId,
      });
      const [notice] = await database.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.recipientId, ownerId), eq(notifications.link, `/decisions/${decision!.id}`)));
      expect(notice!.type).toBe('site_notice');

      expect((await approve(video.streamVideoId)).body.message).toBe(
        'A performer has withdrawn consent for this video. Confirm or dismiss the withdrawal before approving it.',
      );
      const records = await put(video.streamVideoId, recordsForm({}, {}));
      expect(records.status).toBe(409);

      // A second withdrawal adds a row but no second statement to the uploader.
      await send({ video: video.streamVideoId });
      expect(
        await database.db.select().from(moderationDecisions).where(eq(moderationDecisions.targetId, video.streamVideoId)),
      ).toHaveLength(1);
      expect(await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, video.id))).toHaveLength(2);
    });

    it('answers the same for an unknown video and a pending one, stores nothing for the unknown', async () => {
      const hidden = await pending({ title: 'Secret pending' });
      const unknown = await send({ video: `${ORIGIN}/video/doesnotexist1`, email: 'same-answer@example.org' });
      const known = await send({ video: `/video/${hidden.streamVideoId}`, email: 'same-answer@example.org' });
      expect(unknown.status).toBe(202);
      expect(known.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      // The emailed acknowledgement says the same too, word for word: it quotes nothing the sender gave.
      const [unknownMail, knownMail] = await mailTo('same-answer@example.org');
      expect(unknownMail!.subject).toBe('We received your withdrawal of consent');
      expect(knownMail).toEqual(unknownMail);
      expect(JSON.stringify(unknownMail)).not.toContain('doesnotexist1');
      expect(
        await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.streamVideoId, 'doesnotexist1')),
      ).toHaveLength(0);
      expect(await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, hidden.id))).toHaveLength(
        1,
      );
    });

    it.each([
      [
        'no video link',
        { video: 'hello there' },
        'Paste the link of the video (for example https://chrysalis.example/video/abc123).',
      ],
      [
        'a link to another page',
        { video: 'https://elsewhere.example/profile/x' },
        'Paste the link of the video (for example https://chrysalis.example/video/abc123).',
      ],
      ['no legal name', { video: 'abc', legalName: '' }, 'Enter your legal name.'],
      ['an impossible date of birth', { video: 'abc', dateOfBirth: '1990-13-01' }, 'Enter your date of birth.'],
      ['a bad email', { video: 'abc', email: 'not-an-email' }, 'Enter an email address where we can reach you.'],
      [
        'an empty statement',
        { video: 'abc', statement: ' ' },
        'Tell us in a sentence or two that you appear in this video and withdraw your consent.',
      ],
    ])('refuses %s with a clear 400', async (_case, json, message) => {
      const response = await send(json);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    });

    it('is rate limited per address like reports', async () => {
      const address = '192.0.2.200';
      for (let i = 0; i < 10; i += 1) expect((await send({ video: `unknown${i}` }, address)).status).toBe(202);
      const limited = await send({ video: 'unknown-more' }, address);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^You have sent a lot of requests in a short time/);
    });

    it('confirm: the video is rejected for good with a statement of reasons, audited; the withdrawal cannot be resolved twice', async () => {
      const video = await insertVideo(database.db, ownerId, { title: 'To be removed' });
      await send({ video: video.streamVideoId, email: 'confirm@example.org' });
      const [row] = await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, video.id));
      const resolve = (json: unknown, bearer: string | undefined = adminToken, id = row!.id) =>
        call(resolveWithdrawal, `/api/admin/consent-withdrawals/${id}`, { json, bearer, params: { id } });
      expect((await resolve({ action: 'confirm' }, '')).status).toBe(401);
      expect((await resolve({ action: 'confirm' }, ownerToken)).status).toBe(403);
      expect((await resolve({ action: 'delete' })).status).toBe(400);
      expect((await resolve({ action: 'confirm' }, adminToken, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
      expect((await resolve({ action: 'confirm' }, adminToken, 'not-a-uuid')).status).toBe(404);
      const confirmed = await resolve({ action: 'confirm', note: 'The ID matches the performer.' });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.message).toBe('Withdrawal confirmed: the video is removed and its uploader told why.');
      const [after] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(after).toMatchObject({
        moderationStatus: 'rejected',
        rejectionReason: 'A performer withdrew their consent to this video.',
      });
      const decisions = await database.db
        .select()
        .from(moderationDecisions)
        .where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(decisions.map((d) => d.action).sort()).toEqual(['video_hidden', 'video_removed']);
      const [audit] = await database.db
        .select()
        .from(adminAuditLog)
        .where(eq(adminAuditLog.action, 'consent_withdrawal.confirm'));
      expect(audit!.targetId).toBe(video.streamVideoId);
      expect((await resolve({ action: 'dismiss' })).body.message).toBe('This withdrawal was already confirmed.');
      // The person who withdrew hears the outcome, with the note.
      const outcome = (await mailTo('confirm@example.org')).at(-1)!;
      expect(outcome.subject).toBe('The video is removed');
      expect(outcome.lines).toEqual([
        expect.stringContaining('The video is removed from Chrysalis for good.'),
        'Our note: The ID matches the performer.',
      ]);
      // Removed for good: approving it again is refused.
      expect((await approve(video.streamVideoId)).body.message).toBe(
        'A performer’s withdrawal of consent to this video was confirmed, so it cannot be published again.',
      );
    });

    it('dismiss: the withdrawal closes and the video can be approved again through the gate', async () => {
      const video = await insertVideo(database.db, ownerId, { title: 'Wrong person' });
      await send({ video: video.streamVideoId, email: 'dismiss@example.org' });
      const [row] = await database.db.select().from(consentWithdrawals).where(eq(consentWithdrawals.videoId, video.id));
      const dismissed = await call(resolveWithdrawal, `/api/admin/consent-withdrawals/${row!.id}`, {
        json: { action: 'dismiss', note: 'Not in the video.' },
        bearer: adminToken,
        params: { id: row!.id },
      });
      expect(dismissed.status).toBe(200);
      const outcome = (await mailTo('dismiss@example.org')).at(-1)!;
      expect(outcome.subject).toBe('We reviewed your withdrawal of consent');
      expect(outcome.lines[0]).toContain('we dismissed it');
      expect(outcome.url).toBe(`/withdraw-consent?video=${video.streamVideoId}`);
      expect((await approve(video.streamVideoId)).status).toBe(200);
      expect(
        (await call(videoRoute, `/api/videos/${video.streamVideoId}`, { params: { streamVideoId: video.streamVideoId } })).status,
      ).toBe(200);
    });
  });
});
