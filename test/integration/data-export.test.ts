/**
 * "Download my data" (issue 11, point 3): the request, the job that builds
 * the ZIP, what is in it (and what is not: another member's data), who may
 * download it, one export at a time, reruns and crashes, failure, expiry.
 * The ZIP is opened with Info-ZIP's `unzip`, a reader independent of yazl.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
// @ts-expect-error -- s3rver ships no type declarations; the few members used are typed below.
import S3rverModule from 's3rver';

import { GET as getExport, POST as postExport } from '@/app/api/users/me/export/route';
import { GET as download } from '@/app/data-export/[exportId]/route';
import type { DataExportDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import {
  appeals,
  blocks,
  comments,
  dailyTasks,
  dataExports,
  follows,
  identityVerifications,
  jobs,
  moderationDecisions,
  notifications,
  paymentEvents,
  taskCompletions,
  users,
  videoLikes,
  watchHistory,
  type Job,
} from '@/lib/db/schema';
import { BUILD_DATA_EXPORT_JOB, buildDataExportJob, exportFileKey, sweepDataExports } from '@/lib/server/exports';
import { reset, resetLimiters } from '@/lib/server/rate-limit';
import { getMediaStorage, setMediaStorage, type MediaStorage } from '@/lib/server/storage';
import { S3MediaStorage } from '@/lib/server/storage/s3';
import { DATA_EXPORT_MESSAGES } from '@/lib/validation/exports';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-export-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const HOSTILE = `alice </script > \u{1F98B}${'\u{1F308}'.repeat(50)}`;
const BOB_SECRET = 'bob-only-comment-7f3a';
const PAYLOAD_SECRET = 'SIGNATURE-SECRET-9c1d';

/** The mail messages in the outbox to an address. */
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

/** Writes an original into local media storage, as the upload would. */
function storeOriginal(sourceKey: string, bytes: Buffer): void {
  const file = path.join(dataDir, 'media', 'originals', sourceKey);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

describe.each(ENGINES)('data export on %s', (engine) => {
  let database: TestDatabase;
  const tokens = {} as Record<'alice' | 'bob' | 'admin', string>;
  const ids = {} as Record<'alice' | 'bob' | 'carol' | 'dave' | 'admin', string>;
  const aliceOriginal = randomBytes(300_000);
  const alicePendingOriginal = randomBytes(50_000);
  const bobOriginal = Buffer.concat([Buffer.from('BOB-ORIGINAL-MARKER'), randomBytes(20_000)]);
  let aliceVideo: string;
  let alicePending: string;
  let aliceNoFile: string;
  let bobVideo: string;
  let work: string;

  const request = (bearer?: string) => call(postExport, '/api/users/me/export', { method: 'POST', bearer });
  const status = async (bearer: string) =>
    (await call(getExport, '/api/users/me/export', { bearer })).body.export as DataExportDto | null;
  const fetchZip = async (exportId: string, bearer?: string) => {
    const get = new NextRequest(new URL(`/data-export/${encodeURIComponent(exportId)}`, ORIGIN), {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });
    return download(get, { params: Promise.resolve({ exportId }) });
  };
  const jobFor = async (exportId: string): Promise<Job> => {
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, BUILD_DATA_EXPORT_JOB), sql`${jobs.payload}->>'exportId' = ${exportId}`));
    return job!;
  };
  /** Runs the export's job by hand, as its last attempt when told so. */
  const runJob = async (exportId: string, attempt: 'first' | 'last' = 'first') => {
    const job = await jobFor(exportId);
    await buildDataExportJob({ ...job, attempts: attempt === 'last' ? job.maxAttempts : 1 }, heldJobContext());
  };
  /** Saves a download to disk and lists the ZIP's entries. */
  const saveZip = async (response: Response) => {
    const file = path.join(work, `${randomBytes(4).toString('hex')}.zip`);
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
    const read = (name: string) => execFileSync('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 });
    const json = (name: string) => JSON.parse(read(name).toString('utf8'));
    // Every byte of every entry, to look for what must not be there.
    const everything = execFileSync('unzip', ['-p', file], { maxBuffer: 64 * 1024 * 1024 });
    return { file, listing, read, json, everything };
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    setMediaStorage(null);
    resetLimiters();
    work = mkdtempSync(path.join(dataDir, 'zips-'));
    rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
    const db = database.db;
    for (const name of ['alice', 'bob', 'admin'] as const) tokens[name] = await verifiedMemberToken(db, `exp_${name}`);
    await verifiedMemberToken(db, 'exp_carol');
    await verifiedMemberToken(db, 'exp_dave');
    for (const name of ['alice', 'bob', 'carol', 'dave', 'admin'] as const) ids[name] = await userId(db, `exp_${name}`);
    await promoteToAdmin(db, ids.admin);
    await db.update(users).set({ bio: HOSTILE, autoPlayVideos: false, tasks: 1, taskStreak: 1 }).where(eq(users.id, ids.alice));

    // Two members who interact, and a bystander pair, so the export must pick out exactly alice's side.
    const a1 = await insertVideo(db, ids.alice, { title: `Alice public ${HOSTILE}`, tags: ['velvet'] });
    const a2 = await insertVideo(db, ids.alice, {
      title: 'Alice rejected',
      moderationStatus: 'rejected',
      rejectionReason: 'Blurry',
      publishedAt: null,
    });
    const a3 = await insertVideo(db, ids.alice, { title: 'Alice without original' });
    const b1 = await insertVideo(db, ids.bob, { title: 'Bob private title', moderationStatus: 'pending', publishedAt: null });
    storeOriginal(a1.sourceKey, aliceOriginal);
    storeOriginal(a2.sourceKey, alicePendingOriginal);
    storeOriginal(b1.sourceKey, bobOriginal);
    [aliceVideo, alicePending, aliceNoFile, bobVideo] = [a1.streamVideoId, a2.streamVideoId, a3.streamVideoId, b1.streamVideoId];

    await db.insert(videoLikes).values([
      { videoId: b1.id, userId: ids.alice },
      { videoId: a1.id, userId: ids.bob },
    ]);
    await db.insert(watchHistory).values([
      { videoId: b1.id, userId: ids.alice, positionSeconds: 42.5 },
      { videoId: a1.id, userId: ids.bob, positionSeconds: 7 },
    ]);
    await db.insert(comments).values([
      { videoId: b1.id, authorId: ids.alice, body: 'Alice says hi' },
      { videoId: a1.id, authorId: ids.bob, body: BOB_SECRET },
    ]);
    await db.insert(follows).values([
      { followerId: ids.alice, followeeId: ids.bob },
      { followerId: ids.carol, followeeId: ids.alice },
      { followerId: ids.bob, followeeId: ids.dave },
    ]);
    await db.insert(blocks).values([
      { blockerId: ids.alice, blockedId: ids.dave },
      { blockerId: ids.bob, blockedId: ids.carol },
    ]);
    await db.insert(notifications).values([
      { recipientId: ids.alice, senderId: ids.bob, type: 'like', link: `/video/${aliceVideo}` },
      {
        recipientId: ids.alice,
        senderId: ids.admin,
        type: 'video_rejected',
        message: 'Your video "Alice rejected" was not approved. Reason: Blurry',
      },
      { recipientId: ids.bob, senderId: ids.alice, type: 'follow', message: 'bob-notification-text' },
    ]);
    await db.insert(identityVerifications).values([
      {
        userId: ids.alice,
        legalName: 'Alice Legal',
        dateOfBirth: '1990-01-01',
        status: 'rejected',
        rejectionReason: 'The photo is blurred.',
      },
      { userId: ids.alice, legalName: 'Alice Legal', dateOfBirth: '1990-01-01', status: 'approved' },
      { userId: ids.bob, legalName: 'Bob Legalname', dateOfBirth: '1991-02-02', status: 'approved' },
    ]);
    const appealUntil = new Date(Date.now() + 183 * 86_400_000);
    const [aliceDecision] = await db
      .insert(moderationDecisions)
      .values({
        subjectUserId: ids.alice,
        targetType: 'video',
        targetId: alicePending,
        targetLabel: 'Alice rejected',
        action: 'video_rejected',
        ground: 'standards-what-you-can-share',
        explanation: 'Blurry',
        source: 'moderation',
        decidedBy: ids.admin,
        appealUntil,
      })
      .returning();
    const [bobDecision] = await db
      .insert(moderationDecisions)
      .values({
        subjectUserId: ids.bob,
        targetType: 'account',
        targetId: ids.bob,
        action: 'account_banned',
        ground: 'standards-behaviour',
        explanation: 'bob-decision-text',
        source: 'moderation',
        appealUntil,
      })
      .returning();
    await db.insert(appeals).values([
      { decisionId: aliceDecision!.id, appellantId: ids.alice, statement: 'It is sharp on my screen.' },
      { decisionId: bobDecision!.id, appellantId: ids.bob, statement: 'bob-appeal-text' },
    ]);
    const [task] = await db.insert(dailyTasks).values({ description: 'Stretch for ten minutes.' }).returning();
    await db.insert(taskCompletions).values([
      { userId: ids.alice, day: '2026-11-20', taskId: task!.id },
      { userId: ids.bob, day: '2026-11-21', taskId: task!.id },
    ]);
    await db.insert(paymentEvents).values([
      {
        processor: 'verotel',
        dedupeKey: 'e1',
        event: 'purchase',
        saleId: 'SALE-ALICE',
        userId: ids.alice,
        priceAmount: '9.99',
        priceCurrency: 'EUR',
        outcome: 'applied',
        detail: 'Sale',
        payload: { signature: PAYLOAD_SECRET },
      },
      {
        processor: 'manual',
        dedupeKey: 'e2',
        event: 'grant',
        userId: ids.alice,
        outcome: 'applied',
        detail: '3 days granted by exp_admin: internal note',
      },
      { processor: 'verotel', dedupeKey: 'e3', event: 'purchase', saleId: 'SALE-BOB', userId: ids.bob, outcome: 'applied' },
    ]);
  });
  afterAll(() => database.destroy());

  it('needs a login, and a banned or cross-site caller is refused', async () => {
    expect((await request()).status).toBe(401);
    expect((await call(getExport, '/api/users/me/export')).status).toBe(401);
    const crossSite = await call(postExport, '/api/users/me/export', {
      method: 'POST',
      cookie: `chrysalis_session=${tokens.alice}`,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(await status(tokens.alice)).toBeNull();
  });

  it('builds a ZIP of everything of the member and nothing of anyone else, emails them, and lets only them download it', async () => {
    const asked = await request(tokens.alice);
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(DATA_EXPORT_MESSAGES.requested);
    const pending = asked.body.export as DataExportDto;
    expect(pending).toMatchObject({ status: 'pending', downloadUrl: null, expiresAt: null });

    // Asking twice: one at a time.
    const again = await request(tokens.alice);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('An export is already being prepared.');

    await runJob(pending._id);
    const ready = (await status(tokens.alice))!;
    expect(ready.status).toBe('ready');
    expect(ready.downloadUrl).toBe(`/data-export/${pending._id}`);
    const days = (new Date(ready.expiresAt!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // Stored under exports/{userId}/, never under the public media routes' prefixes.
    expect(await getMediaStorage().stat(exportFileKey(ids.alice, pending._id))).toMatchObject({ size: ready.sizeBytes });

    // The email, with the login-only link.
    const mails = mailTo('exp_alice@example.org');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.replace(/=\r?\n/g, '')).toContain(`${ORIGIN}/data-export/${pending._id}`);
    // Where to ask for a new one, and where to log other devices out: addresses of pages (issue 36).
    expect(mails[0]!.replace(/=\r?\n/g, '')).toContain(`${ORIGIN}/settings#data`);
    expect(mails[0]!.replace(/=\r?\n/g, '')).toContain(`${ORIGIN}/settings/security`);

    // Asking while it is ready and unexpired.
    const whileReady = await request(tokens.alice);
    expect(whileReady.status).toBe(409);
    expect(whileReady.body.message).toMatch(
      /^Your data export is ready to download\. You can ask for a fresh one from .+ UTC\.$/,
    );
    expect(new Date(ready.renewableAt!).getTime() - new Date(ready.readyAt!).getTime()).toBe(24 * 3_600_000);

    const response = await fetchZip(pending._id, tokens.alice);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="chrysalis-data-exp_alice-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(Number(response.headers.get('content-length'))).toBe(ready.sizeBytes);
    const zip = await saveZip(response);

    expect(zip.listing).toEqual(
      [
        'README.txt',
        'blocks.json',
        'comments.json',
        'daily-tasks.json',
        'decisions.json',
        'follows.json',
        'history.json',
        'likes.json',
        'notifications.json',
        'payments.json',
        'playlists.json',
        'profile.json',
        'verification.json',
        'videos.json',
        `videos/${aliceVideo}/original.mp4`,
        `videos/${alicePending}/original.mp4`,
      ].sort(),
    );
    expect(zip.read('README.txt').toString()).toContain('follows.json');
    expect(zip.read(`videos/${aliceVideo}/original.mp4`).equals(aliceOriginal)).toBe(true);
    expect(zip.read(`videos/${alicePending}/original.mp4`).equals(alicePendingOriginal)).toBe(true);

    const profile = zip.json('profile.json');
    expect(profile).toMatchObject({
      username: 'exp_alice',
      email: 'exp_alice@example.org',
      dateOfBirth: '1990-01-01',
      bio: HOSTILE,
      settings: { autoPlayVideos: false, historyPaused: false },
      emailVerified: true,
      vip: { isVIP: false, vipUntil: null },
    });
    expect(profile.createdAt).toEqual(expect.any(String));
    expect(JSON.stringify(profile)).not.toMatch(/password|token|argon/i);

    const videosJson = zip.json('videos.json') as {
      streamVideoId: string;
      title: string;
      moderationStatus: string;
      rejectionReason: string | null;
      originalFile: string | null;
    }[];
    expect(videosJson.map((video) => video.streamVideoId).sort()).toEqual([aliceVideo, alicePending, aliceNoFile].sort());
    expect(videosJson.find((video) => video.streamVideoId === alicePending)).toMatchObject({
      moderationStatus: 'rejected',
      rejectionReason: 'Blurry',
      originalFile: `videos/${alicePending}/original.mp4`,
    });
    expect(videosJson.find((video) => video.streamVideoId === aliceNoFile)!.originalFile).toBeNull();
    expect(videosJson.find((video) => video.streamVideoId === aliceVideo)!.title).toBe(`Alice public ${HOSTILE}`);

    expect(zip.json('comments.json')).toEqual([
      expect.objectContaining({ body: 'Alice says hi', video: expect.objectContaining({ streamVideoId: bobVideo }) }),
    ]);
    expect(zip.json('likes.json')).toEqual([expect.objectContaining({ streamVideoId: bobVideo })]);
    // Her own history only: where she stopped in Bob's video, not Bob's place in hers.
    expect(zip.json('history.json')).toEqual([
      {
        streamVideoId: bobVideo,
        url: expect.stringContaining(`/video/${bobVideo}`),
        positionSeconds: 42.5,
        finished: false,
        watchedAt: expect.any(String),
      },
    ]);
    expect(zip.json('follows.json')).toEqual({
      following: [expect.objectContaining({ username: 'exp_bob' })],
      followers: [expect.objectContaining({ username: 'exp_carol' })],
    });
    expect(zip.json('blocks.json')).toEqual([expect.objectContaining({ username: 'exp_dave' })]);
    const notificationsJson = zip.json('notifications.json') as { type: string; text: string; sender: string | null }[];
    expect(notificationsJson).toHaveLength(2);
    expect(notificationsJson.find((n) => n.type === 'like')).toMatchObject({
      sender: 'exp_bob',
      text: 'exp_bob liked your video',
    });
    // Moderation speaks as the site: the deciding admin is not named.
    expect(notificationsJson.find((n) => n.type === 'video_rejected')).toMatchObject({ sender: null });
    expect(zip.json('daily-tasks.json')).toMatchObject({
      tasksCompleted: 1,
      history: [{ day: '2026-11-20', task: 'Stretch for ten minutes.' }],
    });
    const payments = zip.json('payments.json') as { events: { saleId: string | null; detail: string | null }[] };
    expect(payments.events.map((event) => event.saleId)).toEqual(['SALE-ALICE', null]);
    expect(payments.events[1]!.detail).toBeNull();

    // Her identity verifications (the documents stay sealed on the server) and the decisions about her, with her appeal; the deciding admin unnamed.
    expect(zip.json('verification.json')).toEqual([
      expect.objectContaining({
        status: 'rejected',
        legalName: 'Alice Legal',
        dateOfBirth: '1990-01-01',
        rejectionReason: 'The photo is blurred.',
      }),
      expect.objectContaining({ status: 'approved', documentsStored: { idDocument: false, selfie: false } }),
    ]);
    expect(zip.json('decisions.json')).toEqual([
      expect.objectContaining({
        decision: 'video_rejected',
        about: { type: 'video', id: alicePending, label: 'Alice rejected' },
        ground: 'standards-what-you-can-share',
        automated: false,
        appeals: [expect.objectContaining({ statement: 'It is sharp on my screen.', status: 'open' })],
      }),
    ]);
    expect(zip.read('README.txt').toString()).toContain('verification.json');

    // Nothing of bob's own (or carol's, or dave's) beyond their usernames where the relation is alice's.
    const all = zip.everything.toString('latin1');
    for (const absent of [
      'exp_bob@example.org',
      'exp_carol@example.org',
      BOB_SECRET,
      'Bob private title',
      'BOB-ORIGINAL-MARKER',
      'SALE-BOB',
      'bob-notification-text',
      '2026-11-21',
      PAYLOAD_SECRET,
      'internal note',
      'exp_admin',
      'Bob Legalname',
      'bob-decision-text',
      'bob-appeal-text',
      ids.admin,
    ]) {
      expect(all).not.toContain(absent);
    }
  });

  it('answers 404 to everyone but the member (another member, an admin, bad ids) and 401 to visitors', async () => {
    const ready = (await status(tokens.alice))!;
    expect((await fetchZip(ready._id)).status).toBe(401);
    for (const caller of [tokens.bob, tokens.admin]) {
      const response = await fetchZip(ready._id, caller);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toBe(DATA_EXPORT_MESSAGES.notFound);
    }
    for (const id of ['not-a-uuid', '../../originals/x', `${ready._id}\u0000`, crypto.randomUUID()])
      expect((await fetchZip(id, tokens.alice)).status).toBe(404);
    // Bob has no export of his own, and alice's is not his.
    expect(await status(tokens.bob)).toBeNull();
  });

  it('runs again without harm: a ready export only sends a missing email; a crash half-way is rebuilt whole', async () => {
    const ready = (await status(tokens.alice))!;
    const key = exportFileKey(ids.alice, ready._id);
    await runJob(ready._id);
    expect(mailTo('exp_alice@example.org')).toHaveLength(1);

    // A crash after the email was due but before it was recorded: the rerun sends it once.
    await database.db.update(dataExports).set({ notifiedAt: null }).where(eq(dataExports.id, ready._id));
    await runJob(ready._id);
    expect(mailTo('exp_alice@example.org')).toHaveLength(2);
    await runJob(ready._id);
    expect(mailTo('exp_alice@example.org')).toHaveLength(2);

    // A crash mid-build: a half-written work file and a truncated object, the row still pending.
    await database.db.update(dataExports).set({ status: 'pending', notifiedAt: null }).where(eq(dataExports.id, ready._id));
    const half = path.join(dataDir, 'work', 'exports', `${ready._id}.zip`);
    mkdirSync(path.dirname(half), { recursive: true });
    writeFileSync(half, 'PK\u0003\u0004 half a zip');
    writeFileSync(path.join(dataDir, 'media', key), 'PK\u0003\u0004 truncated');
    await runJob(ready._id);
    const zip = await saveZip(await fetchZip(ready._id, tokens.alice));
    expect(zip.listing).toContain(`videos/${aliceVideo}/original.mp4`);
    expect(zip.read(`videos/${aliceVideo}/original.mp4`).equals(aliceOriginal)).toBe(true);
    execFileSync('unzip', ['-tq', zip.file]);
  });

  it('a day after it is ready, a fresh export replaces the old one and its file', async () => {
    const ready = (await status(tokens.alice))!;
    const oldKey = exportFileKey(ids.alice, ready._id);
    expect(ready.canRenew).toBe(false);
    // 23 hours old: still too young to replace.
    await database.db
      .update(dataExports)
      .set({ readyAt: new Date(Date.now() - 23 * 3_600_000) })
      .where(eq(dataExports.id, ready._id));
    expect((await request(tokens.alice)).status).toBe(409);
    await database.db
      .update(dataExports)
      .set({ readyAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(dataExports.id, ready._id));
    expect((await status(tokens.alice))!.canRenew).toBe(true);
    const fresh = await request(tokens.alice);
    expect(fresh.status).toBe(202);
    const freshExport = fresh.body.export as DataExportDto;
    expect(freshExport.status).toBe('pending');
    expect(await getMediaStorage().stat(oldKey)).toBeNull();
    expect((await fetchZip(ready._id, tokens.alice)).status).toBe(404);
    await runJob(freshExport._id);
    expect((await status(tokens.alice))!.status).toBe('ready');
  });

  it('expires: the link stops working, the sweep deletes the file and the row, and the member can ask again', async () => {
    const ready = (await status(tokens.alice))!;
    const key = exportFileKey(ids.alice, ready._id);
    await database.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, ready._id));
    expect((await fetchZip(ready._id, tokens.alice)).status).toBe(404);
    expect(await status(tokens.alice)).toBeNull();
    expect((await sweepDataExports(database.db)).removed).toBe(1);
    expect(await getMediaStorage().stat(key)).toBeNull();
    expect(await database.db.select().from(dataExports).where(eq(dataExports.userId, ids.alice))).toHaveLength(0);
    expect((await sweepDataExports(database.db)).removed).toBe(0);
  });

  it('after the last failed attempt the member sees why and can try again; simultaneous requests make one export', async () => {
    const real = getMediaStorage();
    const broken: MediaStorage = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      read: async () => {
        throw new Error('storage is away');
      },
    });
    const asked = await request(tokens.alice);
    expect(asked.status).toBe(202);
    const id = (asked.body.export as DataExportDto)._id;
    setMediaStorage(broken);
    try {
      await expect(runJob(id)).rejects.toThrow('storage is away');
      expect((await status(tokens.alice))!.status).toBe('pending');
      await expect(runJob(id, 'last')).rejects.toThrow('storage is away');
    } finally {
      setMediaStorage(real);
    }
    const failed = (await status(tokens.alice))!;
    expect(failed).toMatchObject({ status: 'failed', error: DATA_EXPORT_MESSAGES.failed, downloadUrl: null });
    expect((await fetchZip(id, tokens.alice)).status).toBe(404);

    // Alice has built several exports in this file: the race is about one export, not about her daily budget (member-budgets.test.ts).
    await reset('dataExportsPerMember', ids.alice);
    const answers = await Promise.all(Array.from({ length: 5 }, () => request(tokens.alice)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409, 409, 409, 409]);
    expect(
      answers
        .filter((answer) => answer.status === 409)
        .every((answer) => answer.body.message === DATA_EXPORT_MESSAGES.alreadyPending),
    ).toBe(true);
    expect(await database.db.select().from(dataExports).where(eq(dataExports.userId, ids.alice))).toHaveLength(1);
  });

  it('an export withdrawn before its job runs leaves no file behind', async () => {
    const asked = await request(tokens.bob);
    const id = (asked.body.export as DataExportDto)._id;
    const job = await jobFor(id);
    await database.db.delete(dataExports).where(eq(dataExports.id, id));
    await buildDataExportJob(job, heldJobContext());
    expect(await getMediaStorage().stat(exportFileKey(ids.bob, id))).toBeNull();
  });
});

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer: import('node:http').Server;
}
const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;

describe('data export into S3 storage (s3rver)', () => {
  let database: TestDatabase;
  let s3rver: S3rverInstance;
  let storage: S3MediaStorage;
  let token: string;
  let memberId: string;
  // One part: multipart uploads are covered by the storage contract suite (storage.test.ts).
  const original = randomBytes(1024 * 1024 + 17);

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(dataDir, 's3-'));
    s3rver = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dir, 'bucket'),
      configureBuckets: [{ name: 'exports-test' }],
    });
    const { port } = await s3rver.run();
    storage = new S3MediaStorage(
      {
        bucket: 'exports-test',
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'site',
      },
      dir,
    );
    setMediaStorage(storage);
    database = await createTestDatabase(ENGINES[0]!);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, 's3_exporter');
    memberId = await userId(database.db, 's3_exporter');
    const video = await insertVideo(database.db, memberId, { title: 'Stored in a bucket' });
    const file = path.join(dir, 'original.mp4');
    writeFileSync(file, original);
    await storage.putFile(`originals/${video.sourceKey}`, file, 'video/mp4');
  });
  afterAll(async () => {
    setMediaStorage(null);
    storage.client.destroy();
    await database.destroy();
    s3rver.httpServer.closeAllConnections();
    await s3rver.close();
  });

  it('streams the originals from the bucket into the ZIP, stores it privately under exports/{userId}/, serves it, and the sweep deletes it', async () => {
    const asked = await call(postExport, '/api/users/me/export', { method: 'POST', bearer: token });
    const id = (asked.body.export as DataExportDto)._id;
    const [job] = await database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'exportId' = ${id}`);
    await buildDataExportJob(job!, heldJobContext());
    const key = exportFileKey(memberId, id);
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: 'exports-test', Key: `site/${key}` }));
    expect(head).toMatchObject({ ContentType: 'application/zip', CacheControl: 'private, no-store' });

    const response = await download(
      new NextRequest(new URL(`/data-export/${id}`, ORIGIN), { headers: { authorization: `Bearer ${token}` } }),
      { params: Promise.resolve({ exportId: id }) },
    );
    expect(response.status).toBe(200);
    const file = path.join(dataDir, `s3-${id}.zip`);
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const [video] = JSON.parse(execFileSync('unzip', ['-p', file, 'videos.json'], { encoding: 'utf8' })) as {
      originalFile: string;
    }[];
    expect(execFileSync('unzip', ['-p', file, video!.originalFile], { maxBuffer: 32 * 1024 * 1024 }).equals(original)).toBe(true);

    await database.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, id));
    expect((await sweepDataExports(database.db)).removed).toBe(1);
    expect(await storage.stat(key)).toBeNull();
  });
});
