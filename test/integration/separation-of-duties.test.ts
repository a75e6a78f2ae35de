/**
 * Separation of duties: an admin never clears their own case. Admin A tries
 * to pass their own identity verification, decide an appeal about a decision
 * about them, dismiss reports about their video and their profile, dismiss a
 * withdrawal of consent to their video and approve their own video while
 * another admin exists; each is refused with 403 and what to do, and admin B
 * then decides the same thing. Taking their own content down stays theirs,
 * and the one admin of a site approves their own videos (audited as such).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { PATCH as decideAppealRoute } from '@/app/api/admin/appeals/[id]/route';
import { POST as resolveWithdrawalRoute } from '@/app/api/admin/consent-withdrawals/[id]/route';
import { PATCH as decideReportRoute } from '@/app/api/admin/reports/[id]/route';
import { PATCH as reviewVerificationRoute } from '@/app/api/admin/verifications/[id]/route';
import { PATCH as moderateRoute } from '@/app/api/admin/videos/[streamVideoId]/route';
import { installDatabase } from '@/lib/db';
import {
  adminAuditLog,
  appeals,
  consentWithdrawals,
  identityVerifications,
  moderationDecisions,
  reports,
  users,
  videos,
} from '@/lib/db/schema';
import { OWN_CASE_MESSAGES } from '@/lib/server/admin/duties';
import { resetLimiters } from '@/lib/server/rate-limit';
import { storePrivateDocument } from '@/lib/server/trust/documents';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-duties-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

describe.each(ENGINES)('separation of duties on %s', (engine) => {
  let database: TestDatabase;
  let db: TestDatabase['db'];
  const token = { a: '', b: '' };
  const id = { a: '', b: '' };
  let counter = 0;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    db = database.db;
    for (const name of ['a', 'b'] as const) {
      token[name] = await verifiedMemberToken(db, `duties${name}`);
      id[name] = await userId(db, `duties${name}`);
      await promoteToAdmin(db, id[name]);
    }
    await verifiedUploader(db, id.a);
  }, 120_000);
  afterAll(() => database.destroy());

  async function reportOn(targetType: 'video' | 'profile', targetId: string): Promise<string> {
    const [row] = await db
      .insert(reports)
      .values({ targetType, targetId, reason: 'spam', details: '', reporterKey: `duties-${counter++}` })
      .returning({ id: reports.id });
    return row!.id;
  }

  it("refuses an admin's own identity verification; another admin decides it", async () => {
    const idDocumentId = await storePrivateDocument(db, {
      ownerId: id.a,
      purpose: 'verification_id',
      bytes: JPEG,
      field: 'idDocument',
    });
    const selfieDocumentId = await storePrivateDocument(db, {
      ownerId: id.a,
      purpose: 'verification_selfie',
      bytes: JPEG,
      field: 'selfie',
    });
    const [row] = await db
      .insert(identityVerifications)
      .values({ userId: id.a, legalName: 'Admin A', dateOfBirth: '1990-01-01', idDocumentId, selfieDocumentId })
      .returning({ id: identityVerifications.id });
    const request = (bearer: string) =>
      call(reviewVerificationRoute, `/api/admin/verifications/${row!.id}`, {
        method: 'PATCH',
        bearer,
        params: { id: row!.id },
        json: { action: 'approve' },
      });

    const own = await request(token.a);
    expect([own.status, own.body.message]).toEqual([403, OWN_CASE_MESSAGES.verification]);
    const [still] = await db.select().from(identityVerifications).where(eq(identityVerifications.id, row!.id));
    expect(still!.status).toBe('pending');
    expect((await request(token.b)).status).toBe(200);
  });

  it('refuses an appeal about a decision about the admin; another admin decides it', async () => {
    const [decision] = await db
      .insert(moderationDecisions)
      .values({
        subjectUserId: id.a,
        targetType: 'video',
        targetId: `duties${counter++}`,
        targetLabel: 'A video',
        action: 'video_rejected',
        ground: 'standards-what-you-can-share',
        explanation: 'Not in our categories',
        source: 'moderation',
        automated: true,
        appealUntil: new Date(Date.now() + 86_400_000),
      })
      .returning({ id: moderationDecisions.id });
    const [appeal] = await db
      .insert(appeals)
      .values({ decisionId: decision!.id, appellantId: id.a, statement: 'Please look again.' })
      .returning({ id: appeals.id });
    const request = (bearer: string) =>
      call(decideAppealRoute, `/api/admin/appeals/${appeal!.id}`, {
        method: 'PATCH',
        bearer,
        params: { id: appeal!.id },
        json: { outcome: 'reverse', note: 'It fits.' },
      });

    const own = await request(token.a);
    expect([own.status, own.body.message]).toEqual([403, OWN_CASE_MESSAGES.appeal]);
    expect((await request(token.b)).status).toBe(200);
  });

  it("refuses dismissing reports about the admin's video or profile; another admin dismisses them; removing their own video stays theirs", async () => {
    const video = await insertVideo(db, id.a);
    const request = (bearer: string, reportId: string, action: 'dismiss' | 'remove') =>
      call(decideReportRoute, `/api/admin/reports/${reportId}`, {
        method: 'PATCH',
        bearer,
        params: { id: reportId },
        json: { action },
      });

    for (const reportId of [await reportOn('video', video.id), await reportOn('profile', id.a)]) {
      const own = await request(token.a, reportId, 'dismiss');
      expect([own.status, own.body.message]).toEqual([403, OWN_CASE_MESSAGES.report]);
      const [row] = await db.select().from(reports).where(eq(reports.id, reportId));
      expect(row!.status).toBe('open');
      expect((await request(token.b, reportId, 'dismiss')).status).toBe(200);
    }

    const removal = await request(token.a, await reportOn('video', video.id), 'remove');
    expect(removal.status).toBe(200);
    const [gone] = await db.select().from(videos).where(eq(videos.id, video.id));
    expect(gone!.moderationStatus).toBe('rejected');
  });

  it("refuses dismissing a withdrawal of consent to the admin's video; another admin dismisses it", async () => {
    const video = await insertVideo(db, id.a);
    const [withdrawal] = await db
      .insert(consentWithdrawals)
      .values({
        videoId: video.id,
        streamVideoId: video.streamVideoId,
        videoTitle: video.title,
        legalName: 'Sam Doe',
        dateOfBirth: '1990-01-01',
        email: 'sam@example.org',
        statement: 'I appear in it and withdraw.',
        senderKey: `a:duties${counter++}`,
      })
      .returning({ id: consentWithdrawals.id });
    const request = (bearer: string) =>
      call(resolveWithdrawalRoute, `/api/admin/consent-withdrawals/${withdrawal!.id}`, {
        method: 'POST',
        bearer,
        params: { id: withdrawal!.id },
        json: { action: 'dismiss' },
      });

    const own = await request(token.a);
    expect([own.status, own.body.message]).toEqual([403, OWN_CASE_MESSAGES.withdrawal]);
    expect((await request(token.b)).status).toBe(200);
  });

  it("refuses approving the admin's own video while another admin exists; that admin approves it", async () => {
    const video = await insertVideo(db, id.a, { moderationStatus: 'pending', publishedAt: null });
    const request = (bearer: string) =>
      call(moderateRoute, `/api/admin/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        bearer,
        params: { streamVideoId: video.streamVideoId },
        json: { action: 'approve' },
      });

    const own = await request(token.a);
    expect([own.status, own.body.message]).toEqual([403, OWN_CASE_MESSAGES.video]);
    const [still] = await db.select().from(videos).where(eq(videos.id, video.id));
    expect(still!.moderationStatus).toBe('pending');
    expect((await request(token.b)).status).toBe(200);
  });

  it('lets the one admin of a site approve their own video, audited as self-approved', async () => {
    await db.update(users).set({ isAdmin: false }).where(eq(users.id, id.b));
    try {
      const video = await insertVideo(db, id.a, { moderationStatus: 'pending', publishedAt: null });
      const approved = await call(moderateRoute, `/api/admin/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        bearer: token.a,
        params: { streamVideoId: video.streamVideoId },
        json: { action: 'approve' },
      });
      expect(approved.status).toBe(200);
      const [entry] = await db
        .select()
        .from(adminAuditLog)
        .where(and(eq(adminAuditLog.action, 'video.approve'), eq(adminAuditLog.targetId, video.streamVideoId)));
      expect(entry!.details).toMatchObject({ selfApproved: true });
    } finally {
      await promoteToAdmin(db, id.b);
    }
  });
});
