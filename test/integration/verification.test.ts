/**
 * Verified uploaders (issue 12, item 1): a member submits their legal name,
 * date of birth, ID and selfie; an admin reviews them (approve, or reject
 * with a reason the member reads, then a resubmission); documents are shown
 * only to admins, each view audited; a video is approved only when its
 * uploader is verified; documents are kept or deleted by the retention rules
 * after the account ends; production without VERIFICATION_KEY refuses.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import sharp from 'sharp';

import { GET as getDocument } from '@/app/api/admin/documents/[id]/route';
import { GET as getOne, PATCH as review } from '@/app/api/admin/verifications/[id]/route';
import { GET as listQueue } from '@/app/api/admin/verifications/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { GET as moderationQueue } from '@/app/api/admin/videos/route';
import { GET as mine, POST as submit } from '@/app/api/users/me/verification/route';
import { DELETE as deleteAccountRoute } from '@/app/api/users/settings/account/route';
import type { ModerationVideoDto, MyVerificationDto, VerificationDetailDto, VerificationSummaryDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { installDatabase, queryRows } from '@/lib/db';
import {
  adminAuditLog,
  identityVerifications,
  jobs,
  moderationDecisions,
  notifications,
  privateDocuments,
} from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import {
  DOCUMENT_TOO_LARGE_MESSAGE,
  DOCUMENT_TYPES_MESSAGE,
  VERIFICATION_UNAVAILABLE_MESSAGE,
} from '@/lib/server/trust/documents';
import { ALL_JOB_HANDLERS } from '@/lib/server/jobs/handlers';
import {
  schedulePrivateDocumentSweep,
  SWEEP_PRIVATE_DOCUMENTS,
  sweepPrivateDocuments,
  sweepPrivateDocumentsJob,
} from '@/lib/server/verification/retention';
import { VERIFICATION_MESSAGES } from '@/lib/validation/verification';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-verification-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const HOSTILE_NAME = 'Alex </script > Example\u0000 \u{1F98B}';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** A real photo, so what an admin is served can be compared byte for byte. */
const photo = (color: string) =>
  sharp({ create: { width: 64, height: 40, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

function mailTo(address: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((file) => readFileSync(path.join(dir, file), 'utf8')).filter((raw) => raw.includes(`To: ${address}`));
}

describe.each(ENGINES)('verified uploaders on %s', (engine) => {
  let database: TestDatabase;
  const tokens = {} as Record<'alice' | 'bob' | 'admin' | 'other', string>;
  const ids = {} as Record<'alice' | 'bob' | 'admin' | 'other', string>;
  let idPhoto: Buffer;
  let selfiePhoto: Buffer;

  const form = (
    fields: {
      legalName?: string;
      dateOfBirth?: string;
      idDocument?: Uint8Array | null;
      selfie?: Uint8Array | null;
      idName?: string;
      selfieName?: string;
    } = {},
  ) => {
    const data = new FormData();
    data.set('legalName', fields.legalName ?? 'Alice Example');
    data.set('dateOfBirth', fields.dateOfBirth ?? '1994-05-17');
    if (fields.idDocument !== null)
      data.set(
        'idDocument',
        new File([new Uint8Array(fields.idDocument ?? idPhoto)], fields.idName ?? 'id.jpg', { type: 'image/jpeg' }),
      );
    if (fields.selfie !== null)
      data.set(
        'selfie',
        new File([new Uint8Array(fields.selfie ?? selfiePhoto)], fields.selfieName ?? 'selfie.jpg', { type: 'image/jpeg' }),
      );
    return data;
  };
  const send = (bearer: string | undefined, data: FormData) =>
    call(submit, '/api/users/me/verification', { method: 'POST', bearer, form: data });
  const status = async (bearer: string) =>
    (await call(mine, '/api/users/me/verification', { bearer })).body.verification as MyVerificationDto;
  const decide = (id: string, json: unknown, bearer?: string) =>
    call(review, `/api/admin/verifications/${id}`, { method: 'PATCH', json, bearer, params: { id } });
  const detail = (id: string, bearer?: string) => call(getOne, `/api/admin/verifications/${id}`, { bearer, params: { id } });
  /** The document route's raw answer (bytes and headers). */
  const fetchDocument = (id: string, bearer?: string) =>
    getDocument(
      new NextRequest(new URL(`/api/admin/documents/${id}`, ORIGIN), {
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      }),
      {
        params: Promise.resolve({ id }),
      },
    );
  const counts = async () => ({
    documents: (await database.db.select().from(privateDocuments)).length,
    verifications: (await database.db.select().from(identityVerifications)).length,
  });
  const approveVideo = (streamVideoId: string) =>
    call(moderate, `/api/admin/videos/${streamVideoId}`, {
      method: 'PATCH',
      json: { action: 'approve' },
      bearer: tokens.admin,
      params: { streamVideoId },
    });

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    idPhoto = await photo('#336699');
    selfiePhoto = await photo('#993366');
    for (const name of ['alice', 'bob', 'admin', 'other'] as const) {
      tokens[name] = await verifiedMemberToken(database.db, `ver_${name}`);
      ids[name] = await userId(database.db, `ver_${name}`);
    }
    await promoteToAdmin(database.db, ids.admin);
  }, 60_000);
  afterAll(() => database.destroy());

  it('is for members: visitors get 401, a member who never sent anything sees "none"', async () => {
    expect((await call(mine, '/api/users/me/verification')).status).toBe(401);
    expect((await send(undefined, form())).status).toBe(401);
    expect(await status(tokens.alice)).toMatchObject({ status: 'none', available: true, rejectionReason: null });
  });

  it('refuses bad submissions with a clear sentence, and stores nothing', async () => {
    const cases: [FormData, number, string, string | undefined][] = [
      [form({ idDocument: null }), 400, VERIFICATION_MESSAGES.idDocumentRequired, 'idDocument'],
      [form({ selfie: null }), 400, VERIFICATION_MESSAGES.selfieRequired, 'selfie'],
      [form({ dateOfBirth: '2015-01-01' }), 400, 'You must be at least 18 years old', 'dateOfBirth'],
      [form({ dateOfBirth: '1990-02-30' }), 400, 'Enter a valid date of birth', 'dateOfBirth'],
      [form({ legalName: ' ' }), 400, 'Enter your full legal name, as on your ID.', 'legalName'],
      [form({ legalName: '\u{1F308}'.repeat(2000) }), 400, 'Your legal name must be at most 200 characters.', 'legalName'],
      // A text file named .jpg: the type comes from the bytes, not the name.
      [
        form({ idDocument: Buffer.from('just some text, honestly a photo'), idName: 'passport.jpg' }),
        400,
        DOCUMENT_TYPES_MESSAGE,
        'idDocument',
      ],
      [form({ selfie: PDF, selfieName: 'selfie.pdf' }), 400, 'This must be a photo (JPEG, PNG or WebP).', 'selfie'],
      [form({ idDocument: new Uint8Array(0), idName: 'empty.jpg' }), 400, DOCUMENT_TYPES_MESSAGE, 'idDocument'],
      [
        form({ idDocument: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(11 * 1024 * 1024)]) }),
        413,
        DOCUMENT_TOO_LARGE_MESSAGE,
        'idDocument',
      ],
    ];
    for (const [data, expected, message, field] of cases) {
      const answer = await send(tokens.alice, data);
      expect({ status: answer.status, message: answer.body.message, field: answer.body.field }).toEqual({
        status: expected,
        message,
        field,
      });
    }
    const tooLarge = await send(tokens.alice, form({ idDocument: Buffer.alloc(22 * 1024 * 1024, 1) }));
    expect(tooLarge.status).toBe(413);
    expect(await counts()).toEqual({ documents: 0, verifications: 0 });
    expect(await status(tokens.alice)).toMatchObject({ status: 'none' });
  });

  it('takes a good submission: sealed documents, one under review at a time', async () => {
    const sent = await send(tokens.alice, form({ legalName: HOSTILE_NAME, idDocument: PDF, idName: 'id.pdf' }));
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ message: VERIFICATION_MESSAGES.submitted, verification: { status: 'pending' } });
    const again = await send(tokens.alice, form());
    expect(again).toMatchObject({ status: 409, body: { message: VERIFICATION_MESSAGES.alreadyPending } });
    expect(await counts()).toEqual({ documents: 2, verifications: 1 });
    const [row] = await database.db.select().from(identityVerifications).where(eq(identityVerifications.userId, ids.alice));
    // Control characters are gone; the rest is kept as typed (React escapes it on the page).
    expect(row).toMatchObject({
      status: 'pending',
      provider: 'manual',
      legalName: 'Alex </script > Example \u{1F98B}',
      dateOfBirth: '1994-05-17',
    });
    const stored = await database.db.select().from(privateDocuments).where(eq(privateDocuments.ownerId, ids.alice));
    expect(stored.map((doc) => doc.mediaType).sort()).toEqual(['application/pdf', 'image/jpeg']);
    for (const doc of stored)
      expect(
        Buffer.from(doc.sealed).includes(doc.mediaType === 'application/pdf' ? PDF.subarray(0, 16) : selfiePhoto.subarray(0, 64)),
      ).toBe(false);
    expect(await status(tokens.alice)).toMatchObject({ status: 'pending', submittedAt: expect.any(String) });
  });

  it('gates approval: an unverified uploader’s video cannot be approved, and the queue says so', async () => {
    const video = await insertVideo(database.db, ids.alice, {
      title: 'Waiting for ID',
      moderationStatus: 'pending',
      publishedAt: null,
    });
    const refused = await approveVideo(video.streamVideoId);
    expect(refused).toMatchObject({
      status: 409,
      body: { message: 'The uploader has not verified their identity yet, so this video cannot be approved.' },
    });
    const queue = await call(moderationQueue, '/api/admin/videos?status=pending', { bearer: tokens.admin });
    const listed = (queue.body.videos as ModerationVideoDto[]).find((item) => item.streamVideoId === video.streamVideoId);
    expect(listed?.uploaderVerification).toBe('pending');
  });

  it('lists submissions for admins only, pending oldest first', async () => {
    expect((await send(tokens.bob, form({ legalName: 'Bob Example' }))).status).toBe(201);
    expect((await call(listQueue, '/api/admin/verifications')).status).toBe(401);
    expect((await call(listQueue, '/api/admin/verifications', { bearer: tokens.alice })).status).toBe(403);
    const queue = await call(listQueue, '/api/admin/verifications?status=pending', { bearer: tokens.admin });
    expect((queue.body.verifications as VerificationSummaryDto[]).map((item) => item.member._id)).toEqual([ids.alice, ids.bob]);
    expect(queue.body.counts).toEqual({ pending: 2, approved: 0, rejected: 0 });
    expect((await call(listQueue, '/api/admin/verifications?status=nope', { bearer: tokens.admin })).status).toBe(400);
  });

  it('serves documents to admins only, never the bytes to anyone else, and audits every view', async () => {
    const [row] = await database.db.select().from(identityVerifications).where(eq(identityVerifications.userId, ids.bob));
    const shown = await detail(row!.id, tokens.admin);
    const verification = shown.body.verification as VerificationDetailDto;
    expect(verification).toMatchObject({
      legalName: 'Bob Example',
      dateOfBirth: '1994-05-17',
      idDocument: { mediaType: 'image/jpeg' },
      selfie: { mediaType: 'image/jpeg' },
    });
    expect(verification.age).toBeGreaterThanOrEqual(31);
    const selfieId = verification.selfie!._id;

    expect((await detail(row!.id, tokens.bob)).status).toBe(403);
    for (const bearer of [undefined, tokens.bob, tokens.other]) {
      const answer = await fetchDocument(selfieId, bearer);
      expect([401, 403]).toContain(answer.status);
      expect(Buffer.from(await answer.arrayBuffer()).includes(selfiePhoto.subarray(0, 64))).toBe(false);
    }
    const before = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'document.view'));
    expect(before).toHaveLength(0);

    for (let view = 0; view < 2; view += 1) {
      const answer = await fetchDocument(selfieId, tokens.admin);
      expect(answer.status).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(selfiePhoto)).toBe(true);
      expect(
        Object.fromEntries(
          ['content-type', 'cache-control', 'x-content-type-options', 'content-security-policy'].map((name) => [
            name,
            answer.headers.get(name),
          ]),
        ),
      ).toEqual({
        'content-type': 'image/jpeg',
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
      });
      expect(answer.headers.get('content-disposition')).toMatch(/^inline;/);
    }
    const views = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'document.view'));
    expect(views).toHaveLength(2);
    expect(views[0]).toMatchObject({
      adminId: ids.admin,
      targetType: 'document',
      targetId: selfieId,
      summary: 'Viewed the selfie of ver_bob',
    });

    // A PDF is an attachment, never rendered in the admin's tab.
    const [alice] = await database.db.select().from(identityVerifications).where(eq(identityVerifications.userId, ids.alice));
    const pdf = await fetchDocument(alice!.idDocumentId!, tokens.admin);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await pdf.arrayBuffer()).equals(PDF)).toBe(true);

    // Ids that are not documents: the same 404, and no audit entry.
    for (const id of [crypto.randomUUID(), 'not-a-uuid', row!.id])
      expect((await fetchDocument(id, tokens.admin)).status).toBe(404);
    expect(await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'document.view'))).toHaveLength(3);
    expect((await detail(crypto.randomUUID(), tokens.admin)).status).toBe(404);
    expect((await detail('../../etc', tokens.admin)).status).toBe(404);
  });

  it('rejects with a reason the member reads, a statement of reasons and an email; then the member sends new documents', async () => {
    const [row] = await database.db.select().from(identityVerifications).where(eq(identityVerifications.userId, ids.alice));
    expect(await decide(row!.id, { action: 'reject', reason: '  ' }, tokens.admin)).toMatchObject({
      status: 400,
      body: { message: VERIFICATION_MESSAGES.reasonRequired },
    });
    expect((await decide(row!.id, { action: 'reject', reason: 'Blurry' }, tokens.alice)).status).toBe(403);
    const reason = 'The ID is unreadable or cut off. Please send a sharp photo of the whole document.';
    const rejected = await decide(row!.id, { action: 'reject', reason }, tokens.admin);
    expect(rejected).toMatchObject({
      status: 200,
      body: { message: VERIFICATION_MESSAGES.rejected, verification: { status: 'rejected', rejectionReason: reason } },
    });
    expect(await decide(row!.id, { action: 'approve' }, tokens.admin)).toMatchObject({
      status: 409,
      body: { message: VERIFICATION_MESSAGES.alreadyReviewed },
    });

    const seen = await status(tokens.alice);
    expect(seen).toMatchObject({
      status: 'rejected',
      rejectionReason: reason,
      decisionLink: expect.stringMatching(/^\/decisions\/[0-9a-f-]{36}$/),
    });
    const [decision] = await database.db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.subjectUserId, ids.alice));
    expect(decision).toMatchObject({
      action: 'verification_rejected',
      ground: 'standards-verification',
      targetType: 'verification',
      targetId: row!.id,
      explanation: reason,
      decidedBy: ids.admin,
      automated: false,
    });
    expect(seen.decisionLink).toBe(`/decisions/${decision!.id}`);
    const [note] = await database.db.select().from(notifications).where(eq(notifications.recipientId, ids.alice));
    expect(note).toMatchObject({ type: 'site_notice', link: `/decisions/${decision!.id}` });
    expect(note!.message).toContain(reason);
    expect(mailTo('ver_alice@example.org').some((mail) => mail.includes('was not approved') && mail.includes('/verify'))).toBe(
      true,
    );
    const [audit] = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'verification.reject'));
    expect(audit).toMatchObject({ targetType: 'verification', targetId: row!.id });

    // Resubmission: allowed after a rejection, and it is a new row (the old one is kept as history).
    expect((await send(tokens.alice, form())).status).toBe(201);
    const resent = await database.db.select().from(identityVerifications).where(eq(identityVerifications.userId, ids.alice));
    expect(resent.map((item) => item.status).sort()).toEqual(['pending', 'rejected']);
    const fresh = resent.find((item) => item.status === 'pending')!;
    expect(((await detail(fresh.id, tokens.admin)).body.verification as VerificationDetailDto).history).toEqual([
      expect.objectContaining({ _id: row!.id, status: 'rejected' }),
    ]);
  });

  it('approves: the member is verified and told, their videos can be approved, and they cannot submit again', async () => {
    const [pending] = await database.db
      .select()
      .from(identityVerifications)
      .where(and(eq(identityVerifications.userId, ids.alice), eq(identityVerifications.status, 'pending')));
    const approved = await decide(pending!.id, { action: 'approve' }, tokens.admin);
    expect(approved).toMatchObject({
      status: 200,
      body: { message: VERIFICATION_MESSAGES.approved, verification: { status: 'approved' } },
    });
    expect(await status(tokens.alice)).toMatchObject({ status: 'approved', rejectionReason: null, decisionLink: null });
    expect(await send(tokens.alice, form())).toMatchObject({
      status: 409,
      body: { message: VERIFICATION_MESSAGES.alreadyApproved },
    });
    // Told by email; the bell keeps only the rejection (which needs the member to act).
    expect(mailTo('ver_alice@example.org').some((mail) => mail.includes('Your identity is verified'))).toBe(true);
    expect(await database.db.select().from(notifications).where(eq(notifications.recipientId, ids.alice))).toHaveLength(1);
    expect(await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'verification.approve'))).toHaveLength(
      1,
    );

    const [video] = await queryRows<{ stream_video_id: string }>(
      database.db,
      sql`SELECT stream_video_id FROM videos WHERE owner_id = ${ids.alice} AND title = 'Waiting for ID'`,
    );
    expect((await approveVideo(video!.stream_video_id)).status).toBe(200);
  });

  it('keeps the records the law requires after the account ends, and the sweep deletes the rest when due', async () => {
    const { verificationRetentionDays, recordsRetentionYears } = getConfig();
    expect([verificationRetentionDays, recordsRetentionYears]).toEqual([30, 7]);
    // Alice published a video: her approved ID and name are 2257 records. Bob never published.
    for (const name of ['alice', 'bob'] as const) {
      const gone = await call(deleteAccountRoute, '/api/users/settings/account', {
        method: 'DELETE',
        bearer: tokens[name],
        json: { currentPassword: `ver_${name}-password-1`, username: `ver_${name}` },
      });
      expect(gone.status).toBe(200);
    }
    const daysLeft = async (table: 'private_documents' | 'identity_verifications', where: ReturnType<typeof sql>) =>
      (
        await queryRows<{ days: number }>(
          database.db,
          sql`SELECT round(extract(epoch FROM delete_after - now()) / 86400)::int AS days FROM ${sql.raw(table)} WHERE ${where} ORDER BY 1`,
        )
      ).map((row) => row.days);
    const sevenYears = [2556, 2557, 2558];
    const aliceRows = await daysLeft('identity_verifications', sql`user_id = ${ids.alice}`);
    expect(aliceRows[0]).toBe(30); // the rejected submission
    expect(sevenYears).toContain(aliceRows[1]); // the approved one
    const [approvedRow] = await database.db
      .select()
      .from(identityVerifications)
      .where(and(eq(identityVerifications.userId, ids.alice), eq(identityVerifications.status, 'approved')));
    expect(sevenYears).toContain((await daysLeft('private_documents', sql`id = ${approvedRow!.idDocumentId}`))[0]);
    expect(await daysLeft('private_documents', sql`id = ${approvedRow!.selfieDocumentId}`)).toEqual([30]);
    expect(await daysLeft('private_documents', sql`owner_id = ${ids.bob}`)).toEqual([30, 30]);
    expect(await daysLeft('identity_verifications', sql`user_id = ${ids.bob}`)).toEqual([30]);

    // Nothing is due yet.
    expect(await sweepPrivateDocuments(database.db)).toEqual({ documents: 0, verifications: 0, performers: 0 });
    // 31 days on: everything but alice's records goes.
    await database.db.execute(sql`UPDATE private_documents SET delete_after = delete_after - interval '31 days'`);
    await database.db.execute(sql`UPDATE identity_verifications SET delete_after = delete_after - interval '31 days'`);
    expect(await sweepPrivateDocuments(database.db)).toEqual({ documents: 5, verifications: 2, performers: 0 });
    const left = await database.db.select().from(identityVerifications);
    expect(left).toEqual([
      expect.objectContaining({
        id: approvedRow!.id,
        legalName: 'Alice Example',
        idDocumentId: approvedRow!.idDocumentId,
        selfieDocumentId: null,
      }),
    ]);
    expect((await database.db.select().from(privateDocuments)).map((doc) => doc.id)).toEqual([approvedRow!.idDocumentId]);
    // Seven years on, the records go too.
    await database.db.execute(sql`UPDATE private_documents SET delete_after = now() - interval '1 second'`);
    await database.db.execute(sql`UPDATE identity_verifications SET delete_after = now() - interval '1 second'`);
    expect(await sweepPrivateDocuments(database.db)).toEqual({ documents: 1, verifications: 1, performers: 0 });
    expect(await counts()).toEqual({ documents: 0, verifications: 0 });
  });

  it('runs the sweep as a recurring job: one queued run per slot however often start-up asks, each run queueing the next', async () => {
    await schedulePrivateDocumentSweep(database.db);
    await schedulePrivateDocumentSweep(database.db);
    const queued = async () => database.db.select().from(jobs).where(eq(jobs.type, SWEEP_PRIVATE_DOCUMENTS.type));
    expect(await queued()).toHaveLength(1);
    const [first] = await queued();
    await sweepPrivateDocumentsJob(first!, heldJobContext());
    const runs = (await queued()).map((job) => job.runAt.getTime()).sort();
    expect(runs).toHaveLength(2);
    expect(runs[1]! - runs[0]!).toBe(SWEEP_PRIVATE_DOCUMENTS.everyMs);
    expect(ALL_JOB_HANDLERS[SWEEP_PRIVATE_DOCUMENTS.type]).toBe(sweepPrivateDocumentsJob);
  });

  it('refuses in production without VERIFICATION_KEY: the status says unavailable, a submission is a 503', async () => {
    const config = getConfig();
    const saved = { nodeEnv: config.nodeEnv, verificationKey: config.verificationKey };
    Object.assign(config, { nodeEnv: 'production', verificationKey: undefined });
    try {
      expect(await status(tokens.other)).toMatchObject({ status: 'none', available: false });
      expect(await send(tokens.other, form())).toMatchObject({
        status: 503,
        body: { message: VERIFICATION_UNAVAILABLE_MESSAGE },
      });
      expect(await counts()).toEqual({ documents: 0, verifications: 0 });
    } finally {
      Object.assign(config, saved);
    }
  });
});
