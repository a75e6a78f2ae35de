/**
 * Deleting an account, and editing and deleting videos (issue 11, points 2
 * and 4): who may, what goes, what stays exact, what is kept, and the purge
 * job that removes the files, killed half-way and run again.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';
// @ts-expect-error -- s3rver ships no type declarations; the few members used are typed below.
import S3rverModule from 's3rver';

import { POST as login } from '@/app/api/auth/login/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as register } from '@/app/api/auth/register/route';
import { POST as follow } from '@/app/api/users/[username]/follow/route';
import { DELETE as deleteAccountRoute } from '@/app/api/users/settings/account/route';
import { PUT as changePassword } from '@/app/api/users/settings/password/route';
import { POST as comment } from '@/app/api/videos/[streamVideoId]/comments/route';
import { POST as like } from '@/app/api/videos/[streamVideoId]/like/route';
import { DELETE as deleteVideoRoute, GET as videoById, PATCH as editVideoRoute } from '@/app/api/videos/[streamVideoId]/route';
import { GET as recent } from '@/app/api/videos/route';
import { POST as report } from '@/app/api/reports/route';
import { installDatabase, queryRows } from '@/lib/db';
import {
  adminAuditLog,
  comments,
  follows,
  jobs,
  notifications,
  paymentEvents,
  reports,
  sessions,
  signUpHolds,
  users,
  videoLikes,
  videos,
  type Job,
  type Video,
} from '@/lib/db/schema';
import { PURGE_MEDIA_JOB, purgeMedia } from '@/lib/server/deletion/purge';
import { resetLimiters } from '@/lib/server/rate-limit';
import { setMediaStorage, type MediaStorage } from '@/lib/server/storage';
import { LocalMediaStorage } from '@/lib/server/storage/local';
import { S3MediaStorage } from '@/lib/server/storage/s3';
import { DELETE_ACCOUNT_MESSAGES } from '@/lib/validation/deletion';

import { call, ORIGIN, outbox, registrationForm } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-deletion-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const mediaRoot = path.join(dataDir, 'media');
const file = (key: string) => path.join(mediaRoot, key);

/** The files a processed video has in storage, written for real. */
function storeVideoFiles(video: Pick<Video, 'id' | 'sourceKey'>): string[] {
  const keys = [
    `originals/${video.sourceKey}`,
    `videos/${video.id}/web.mp4`,
    `videos/${video.id}/thumbnail.jpg`,
    `videos/${video.id}/hls/360p/seg_00000.ts`,
    `videos/${video.id}/hls/master.m3u8`,
  ];
  for (const key of keys) {
    mkdirSync(path.dirname(file(key)), { recursive: true });
    writeFileSync(file(key), 'x');
  }
  return keys;
}

const purgeJobs = (db: TestDatabase['db']) => db.select().from(jobs).where(eq(jobs.type, PURGE_MEDIA_JOB));

/** Runs every queued purge job by hand, as a worker would. */
async function runPurges(db: TestDatabase['db']): Promise<void> {
  for (const job of await purgeJobs(db)) await purgeMedia(job, heldJobContext());
}

describe.each(ENGINES)('account deletion on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    setMediaStorage(new LocalMediaStorage(dataDir));
  });
  afterAll(() => database.destroy());
  beforeEach(() => resetLimiters());

  const deleteAs = (token: string | undefined, json: unknown) =>
    call(deleteAccountRoute, '/api/users/settings/account', { method: 'DELETE', bearer: token, json });

  it('asks for the current password and the username, with a clear message for each', async () => {
    const token = await verifiedMemberToken(database.db, 'careful');
    expect((await deleteAs(undefined, { currentPassword: 'x', username: 'careful' })).status).toBe(401);
    const missing = await deleteAs(token, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(DELETE_ACCOUNT_MESSAGES.passwordRequired);
    const noName = await deleteAs(token, { currentPassword: 'careful-password-1' });
    expect(noName.body.message).toBe(DELETE_ACCOUNT_MESSAGES.usernameRequired);
    const wrongPassword = await deleteAs(token, { currentPassword: 'not-it', username: 'careful' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.message).toBe('Your current password is incorrect.');
    const wrongName = await deleteAs(token, { currentPassword: 'careful-password-1', username: 'Careful' });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.message).toBe(DELETE_ACCOUNT_MESSAGES.wrongUsername);
    const hostile = await deleteAs(token, {
      currentPassword: 'careful-password-1',
      username: `careful</script >\u0000${'🦋'.repeat(2000)}`,
    });
    expect(hostile.status).toBe(400);
    expect((await call(me, '/api/auth/me', { bearer: token })).status).toBe(200);
  });

  it('counts wrong passwords against the same per-member limit as the other settings', async () => {
    const token = await verifiedMemberToken(database.db, 'guesser');
    for (let i = 0; i < 4; i += 1)
      expect((await deleteAs(token, { currentPassword: `guess-${i}`, username: 'guesser' })).status).toBe(400);
    const viaPassword = await call(changePassword, '/api/users/settings/password', {
      method: 'PUT',
      bearer: token,
      json: { currentPassword: 'guess-5', newPassword: 'another-password-2', confirmNewPassword: 'another-password-2' },
    });
    expect(viaPassword.status).toBe(400);
    // The budget (5) is spent: even the right password waits now.
    const limited = await deleteAs(token, { currentPassword: 'guesser-password-1', username: 'guesser' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many wrong current passwords/);
    expect(await database.db.select().from(users).where(eq(users.username, 'guesser'))).toHaveLength(1);
  });

  it('deletes everything of the member at once, keeps counts exact and payment records anonymous, and frees the name', async () => {
    const leaverToken = await verifiedMemberToken(database.db, 'leaver');
    const friendToken = await verifiedMemberToken(database.db, 'friend');
    const leaver = await userId(database.db, 'leaver');
    const friend = await userId(database.db, 'friend');
    // A second session of the leaver, on another device.
    const otherDevice = (
      await call(login, '/api/auth/login', {
        json: { email: 'leaver@example.org', password: 'leaver-password-1' },
        ip: '198.18.2.2',
      })
    ).body.token as string;
    const own = await insertVideo(database.db, leaver, { title: 'Leaving soon' });
    const ownFiles = storeVideoFiles(own);
    const friendsVideo = await insertVideo(database.db, friend, { title: 'Friend video' });
    const friendsFiles = storeVideoFiles(friendsVideo);
    mkdirSync(file(`exports/${leaver}`), { recursive: true });
    writeFileSync(file(`exports/${leaver}/export.zip`), 'zip');

    const params = (v: Video) => ({ streamVideoId: v.streamVideoId });
    expect(
      (
        await call(like, `/api/videos/${friendsVideo.streamVideoId}/like`, {
          method: 'POST',
          bearer: leaverToken,
          params: params(friendsVideo),
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(like, `/api/videos/${own.streamVideoId}/like`, { method: 'POST', bearer: friendToken, params: params(own) }))
        .status,
    ).toBe(200);
    expect(
      (await call(follow, '/api/users/friend/follow', { method: 'POST', bearer: leaverToken, params: { username: 'friend' } }))
        .status,
    ).toBe(200);
    expect(
      (await call(follow, '/api/users/leaver/follow', { method: 'POST', bearer: friendToken, params: { username: 'leaver' } }))
        .status,
    ).toBe(200);
    const commented = await call(comment, `/api/videos/${friendsVideo.streamVideoId}/comments`, {
      method: 'POST',
      bearer: leaverToken,
      params: params(friendsVideo),
      json: { body: 'Lovely!' },
    });
    expect(commented.status).toBe(201);
    // A reply under the leaver's comment, reported by someone else: it goes with its parent, so its report must close too.
    const replied = await call(comment, `/api/videos/${friendsVideo.streamVideoId}/comments`, {
      method: 'POST',
      bearer: friendToken,
      params: params(friendsVideo),
      json: { body: 'Thanks!', parentId: (commented.body.comment as { _id: string })._id },
    });
    expect(replied.status).toBe(201);
    const replyId = (replied.body.comment as { _id: string })._id;
    const witnessToken = await verifiedMemberToken(database.db, 'witness');
    expect(
      (
        await call(report, '/api/reports', {
          bearer: witnessToken,
          json: { targetType: 'comment', target: replyId, reason: 'harassment' },
        })
      ).status,
    ).toBeLessThan(300);
    await call(comment, `/api/videos/${own.streamVideoId}/comments`, {
      method: 'POST',
      bearer: friendToken,
      params: params(own),
      json: { body: 'Yours is lovely too' },
    });
    expect(
      (
        await call(report, '/api/reports', {
          bearer: leaverToken,
          json: { targetType: 'video', target: friendsVideo.streamVideoId, reason: 'spam' },
        })
      ).status,
    ).toBeLessThan(300);
    expect(
      (
        await call(report, '/api/reports', {
          bearer: friendToken,
          json: { targetType: 'video', target: own.streamVideoId, reason: 'spam' },
        })
      ).status,
    ).toBeLessThan(300);
    await database.db.insert(paymentEvents).values({
      processor: 'verotel',
      dedupeKey: `sale-${leaver}`,
      event: 'initial',
      saleId: '42',
      userId: leaver,
      priceAmount: '9.99',
      priceCurrency: 'EUR',
      outcome: 'applied',
      payload: { saleID: '42', email: 'leaver@example.org', name: 'Leaver Person', priceAmount: '9.99' },
    });
    const [before] = await queryRows<{ likes_count: number }>(
      database.db,
      sql`SELECT likes_count FROM videos WHERE id = ${friendsVideo.id}`,
    );
    expect(Number(before!.likes_count)).toBe(1);

    // A sign-up through the form holds the name for 7 days (decision 041); deleting the account must free it all the same.
    await database.db
      .insert(signUpHolds)
      .values({ usernameKey: 'leaver', emailKey: 'leaver@example.org', expiresAt: new Date(Date.now() + 7 * 24 * 3600_000) });
    const done = await deleteAs(leaverToken, { currentPassword: 'leaver-password-1', username: 'leaver' });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(DELETE_ACCOUNT_MESSAGES.deleted);
    expect(done.setCookie.join(';')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);

    // Logged out everywhere, at once.
    expect((await call(me, '/api/auth/me', { bearer: leaverToken })).status).toBe(401);
    expect((await call(me, '/api/auth/me', { bearer: otherDevice })).status).toBe(401);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, leaver))).toHaveLength(0);
    // Their video leaves every list and its page.
    expect((await call(videoById, `/api/videos/${own.streamVideoId}`, { params: params(own) })).status).toBe(404);
    const listed = await call(recent, '/api/videos?limit=50');
    expect(JSON.stringify(listed.body)).not.toContain(own.streamVideoId);
    // Their likes, follows, comments and reports are gone; counts on the friend's video stay exact.
    const [after] = await queryRows<{ likes_count: number; rows: number }>(
      database.db,
      sql`SELECT likes_count, (SELECT count(*) FROM video_likes WHERE video_id = ${friendsVideo.id})::int AS rows FROM videos WHERE id = ${friendsVideo.id}`,
    );
    expect(Number(after!.likes_count)).toBe(0);
    expect(Number(after!.rows)).toBe(0);
    expect(await database.db.select().from(videoLikes).where(eq(videoLikes.userId, leaver))).toHaveLength(0);
    expect(
      await database.db
        .select()
        .from(follows)
        .where(sql`${follows.followerId} = ${leaver} OR ${follows.followeeId} = ${leaver}`),
    ).toHaveLength(0);
    expect(await database.db.select().from(comments).where(eq(comments.authorId, leaver))).toHaveLength(0);
    expect(await database.db.select().from(reports).where(eq(reports.reporterId, leaver))).toHaveLength(0);
    // The friend's report on the deleted video is closed with a note, not left open.
    const closed = await database.db.select().from(reports).where(eq(reports.targetId, own.id));
    expect(closed.map((row) => row.status)).toEqual(['resolved']);
    const replyReports = await database.db.select().from(reports).where(eq(reports.targetId, replyId));
    expect(replyReports.map((row) => row.status)).toEqual(['resolved']);
    // Notifications the leaver caused (the follow, the like, the comment) are gone from the friend's list.
    expect(await database.db.select().from(notifications).where(eq(notifications.senderId, leaver))).toHaveLength(0);
    expect(await database.db.select().from(notifications).where(eq(notifications.recipientId, friend))).toHaveLength(0);
    // Payment records are kept with the id, without email or name.
    const [payment] = await database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.dedupeKey, `sale-${leaver}`));
    expect(payment!.userId).toBe(leaver);
    expect(payment!.payload).toEqual({ saleID: '42', priceAmount: '9.99' });
    // The deletion is in the audit log without the name.
    const audit = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, leaver));
    expect(audit.map((entry) => entry.action)).toEqual(['member.delete']);
    expect(JSON.stringify(audit)).not.toContain('leaver@');

    // A confirmation to the address the account had.
    expect(outbox(dataDir).some((mail) => mail.to === 'leaver@example.org' && /has been deleted/.test(mail.subject))).toBe(true);

    // The files go with the purge job; the friend's stay.
    expect(existsSync(file(ownFiles[0]!))).toBe(true);
    await runPurges(database.db);
    for (const key of ownFiles) expect(existsSync(file(key))).toBe(false);
    expect(existsSync(file(`exports/${leaver}`))).toBe(false);
    for (const key of friendsFiles) expect(existsSync(file(key))).toBe(true);

    // The username and email can be used again at once.
    const again = await call(register, '/api/auth/register', {
      form: registrationForm({ username: 'leaver', email: 'leaver@example.org' }),
      ip: '198.18.1.1',
    });
    expect(again.status).toBe(201);
    expect(await database.db.select().from(users).where(eq(users.username, 'leaver'))).toHaveLength(1);
  });

  it('keeps the last admin, and lets an admin go when another admin stays', async () => {
    const adminToken = await verifiedMemberToken(database.db, 'only_admin');
    await promoteToAdmin(database.db, await userId(database.db, 'only_admin'));
    const refused = await deleteAs(adminToken, { currentPassword: 'only_admin-password-1', username: 'only_admin' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(DELETE_ACCOUNT_MESSAGES.lastAdmin);
    await verifiedMemberToken(database.db, 'second_admin');
    await promoteToAdmin(database.db, await userId(database.db, 'second_admin'));
    expect((await deleteAs(adminToken, { currentPassword: 'only_admin-password-1', username: 'only_admin' })).status).toBe(200);
  });

  it('deletes once when asked twice at the same time', async () => {
    const token = await verifiedMemberToken(database.db, 'twice');
    const answers = await Promise.all(
      [1, 2].map(() => deleteAs(token, { currentPassword: 'twice-password-1', username: 'twice' })),
    );
    expect(answers.every((answer) => [200, 401].includes(answer.status))).toBe(true);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect(await database.db.select().from(users).where(eq(users.username, 'twice'))).toHaveLength(0);
  });
});

describe.each(ENGINES)('editing and deleting videos on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let otherToken: string;
  let adminToken: string;
  let owner: string;
  let other: string;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    setMediaStorage(new LocalMediaStorage(dataDir));
    resetLimiters();
    ownerToken = await verifiedMemberToken(database.db, 'uploader');
    otherToken = await verifiedMemberToken(database.db, 'stranger');
    adminToken = await verifiedMemberToken(database.db, 'boss');
    await promoteToAdmin(database.db, await userId(database.db, 'boss'));
    owner = await userId(database.db, 'uploader');
    other = await userId(database.db, 'stranger');
  });
  afterAll(() => database.destroy());

  const edit = (token: string | undefined, v: Pick<Video, 'streamVideoId'>, json: unknown) =>
    call(editVideoRoute, `/api/videos/${v.streamVideoId}`, {
      method: 'PATCH',
      bearer: token,
      params: { streamVideoId: v.streamVideoId },
      json,
    });
  const remove = (token: string | undefined, v: Pick<Video, 'streamVideoId'>) =>
    call(deleteVideoRoute, `/api/videos/${v.streamVideoId}`, {
      method: 'DELETE',
      bearer: token,
      params: { streamVideoId: v.streamVideoId },
    });
  const row = async (v: Video) => (await database.db.select().from(videos).where(eq(videos.id, v.id)))[0];

  it('lets the owner edit with the upload rules, all audited; text changes of an approved video wait for review (text-edits.test.ts)', async () => {
    const video = await insertVideo(database.db, owner, { title: 'Typo titel', tags: ['one'], moderationStatus: 'pending' });
    const tooLong = await edit(ownerToken, video, { title: 'x'.repeat(121) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Title must be at most 120 characters');
    expect((await edit(ownerToken, video, { title: '   ' })).body.message).toBe('Title is required');
    expect((await edit(ownerToken, video, { category: 'Nope' })).body.message).toMatch(/^Category must be one of /);
    expect((await edit(ownerToken, video, {})).status).toBe(400);

    const saved = await edit(ownerToken, video, {
      title: 'Typo title </script >',
      tags: 'Two, #three, two',
      description: 'Now\u2028with text',
    });
    expect(saved.status).toBe(200);
    const after = await row(video);
    expect(after!.title).toBe('Typo title </script >');
    expect(after!.tags).toEqual(['two', 'three']);
    expect(after!.description).toBe('Now\nwith text');
    expect(after!.moderationStatus).toBe('pending');
    expect(saved.body.message).toBe('Your changes are saved.');
    const [entry] = await database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, video.streamVideoId));
    expect(entry!.action).toBe('video.edit');
    expect(entry!.adminId).toBe(owner);
    expect(entry!.details).toMatchObject({
      by: 'owner',
      waitsForReview: false,
      changes: expect.arrayContaining([{ field: 'title', before: 'Typo titel', after: 'Typo title </script >' }]),
    });

    // An admin's edit of an approved video is live at once.
    await database.db.update(videos).set({ moderationStatus: 'approved' }).where(eq(videos.id, video.id));
    expect((await edit(adminToken, video, { title: 'Tidied by an admin', category: 'Beta' })).status).toBe(200);
    expect(await row(video)).toMatchObject({ moderationStatus: 'approved', category: 'Beta', title: 'Tidied by an admin' });
    // A category-only change by the owner stays live too.
    expect((await edit(ownerToken, video, { category: 'Censor' })).status).toBe(200);
    expect(await row(video)).toMatchObject({ moderationStatus: 'approved', category: 'Censor' });
  });

  it("refuses someone else's video (403) and a deleted or unseen one (404)", async () => {
    const video = await insertVideo(database.db, owner, { title: 'Mine' });
    expect((await edit(undefined, video, { title: 'Hacked' })).status).toBe(401);
    const foreign = await edit(otherToken, video, { title: 'Hacked' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('You can only edit your own videos.');
    expect((await remove(otherToken, video)).status).toBe(403);
    const hidden = await insertVideo(database.db, owner, { moderationStatus: 'pending' });
    expect((await edit(otherToken, hidden, { title: 'Hacked' })).status).toBe(404);
    expect((await row(video))!.title).toBe('Mine');
    expect((await remove(ownerToken, video)).status).toBe(200);
    expect((await edit(ownerToken, video, { title: 'Back?' })).status).toBe(404);
    expect((await remove(ownerToken, video)).status).toBe(404);
    expect((await edit(ownerToken, { streamVideoId: '../\u0000x' }, { title: 'x' })).status).toBe(404);
  });

  it('deletes a video with its likes, comments, notifications and files; other videos keep theirs', async () => {
    const video = await insertVideo(database.db, owner, { title: 'Going away' });
    const keep = await insertVideo(database.db, owner, { title: 'Staying' });
    const files = storeVideoFiles(video);
    const kept = storeVideoFiles(keep);
    const p = { streamVideoId: video.streamVideoId };
    await call(like, `/api/videos/${video.streamVideoId}/like`, { method: 'POST', bearer: otherToken, params: p });
    await call(like, `/api/videos/${keep.streamVideoId}/like`, {
      method: 'POST',
      bearer: otherToken,
      params: { streamVideoId: keep.streamVideoId },
    });
    await call(comment, `/api/videos/${video.streamVideoId}/comments`, {
      method: 'POST',
      bearer: otherToken,
      params: p,
      json: { body: 'Nice' },
    });
    expect(
      (await database.db.select().from(notifications).where(eq(notifications.recipientId, owner))).length,
    ).toBeGreaterThanOrEqual(3);

    const gone = await remove(adminToken, video);
    expect(gone.status).toBe(200);
    expect(await row(video)).toBeUndefined();
    expect(await database.db.select().from(videoLikes).where(eq(videoLikes.videoId, video.id))).toHaveLength(0);
    expect(await database.db.select().from(comments).where(eq(comments.videoId, video.id))).toHaveLength(0);
    const left = await database.db.select().from(notifications).where(eq(notifications.recipientId, owner));
    expect(left.every((n) => !n.link.startsWith(`/video/${video.streamVideoId}`))).toBe(true);
    expect(left.some((n) => n.link === `/video/${keep.streamVideoId}`)).toBe(true);
    expect((await call(videoById, `/api/videos/${video.streamVideoId}`, { params: p })).status).toBe(404);
    const [entry] = await database.db
      .select()
      .from(adminAuditLog)
      .where(sql`${adminAuditLog.targetId} = ${video.streamVideoId} AND ${adminAuditLog.action} = 'video.delete'`);
    expect(entry!.details).toMatchObject({ by: 'admin', title: 'Going away' });
    void other;

    await runPurges(database.db);
    for (const key of files) expect(existsSync(file(key))).toBe(false);
    for (const key of kept) expect(existsSync(file(key))).toBe(true);
    // Running the job again is harmless.
    await runPurges(database.db);
  });

  it('a purge killed half-way and run again leaves nothing behind', async () => {
    const video = await insertVideo(database.db, owner, { title: 'Crashy' });
    const files = storeVideoFiles(video);
    expect((await remove(ownerToken, video)).status).toBe(200);
    const [job] = (await purgeJobs(database.db)).filter((j) => JSON.stringify(j.payload).includes(video.id));
    expect(job!.maxAttempts).toBeGreaterThanOrEqual(1000);

    // The storage dies after the first prefix: the process "crashes" there.
    const local = new LocalMediaStorage(dataDir);
    let calls = 0;
    const dying: MediaStorage = Object.assign(Object.create(local) as MediaStorage, {
      deletePrefix: async (prefix: string) => {
        calls += 1;
        if (calls > 1) throw new Error('storage went away');
        await local.deletePrefix(prefix);
      },
    });
    setMediaStorage(dying);
    await expect(purgeMedia(job as Job, heldJobContext())).rejects.toThrow('storage went away');
    expect(existsSync(file(files[0]!))).toBe(false);
    expect(existsSync(file(files[1]!))).toBe(true);

    // A worker whose lease is lost stops between files.
    setMediaStorage(local);
    const aborted = new AbortController();
    aborted.abort();
    await expect(purgeMedia(job as Job, { signal: aborted.signal })).rejects.toThrow();
    expect(existsSync(file(files[1]!))).toBe(true);

    // Run again: everything is gone, and a third run is a no-op.
    await purgeMedia(job as Job, heldJobContext());
    for (const key of files) expect(existsSync(file(key))).toBe(false);
    await purgeMedia(job as Job, heldJobContext());
    expect(readdirSync(path.join(mediaRoot, 'videos'))).not.toContain(video.id);
  });
});

describe('the purge job on S3 storage', () => {
  interface S3rverInstance {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
    httpServer: { closeAllConnections(): void };
  }
  let s3rver: S3rverInstance;
  let storage: S3MediaStorage;
  beforeAll(async () => {
    const S3rver = S3rverModule as new (options: Record<string, unknown>) => S3rverInstance;
    s3rver = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(dataDir, 's3rver'),
      configureBuckets: [{ name: 'purge' }],
    });
    const { port } = await s3rver.run();
    storage = new S3MediaStorage(
      {
        bucket: 'purge',
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'site',
      },
      dataDir,
    );
  });
  afterAll(async () => {
    setMediaStorage(null);
    s3rver.httpServer.closeAllConnections();
    await s3rver.close();
  });

  it('deletes a video and an export prefix, killed after the first prefix and run again', async () => {
    const keys = [
      'originals/v1.mp4',
      'videos/v1/web.mp4',
      'videos/v1/hls/master.m3u8',
      'videos/v10/web.mp4',
      'exports/u1/export.zip',
    ];
    const local = path.join(dataDir, 's3-upload');
    for (const key of keys) {
      mkdirSync(local, { recursive: true });
      writeFileSync(path.join(local, 'file'), key);
      await storage.putFile(key, path.join(local, 'file'), 'application/octet-stream');
    }
    const job = { payload: { prefixes: ['originals/v1.mp4', 'videos/v1', 'exports/u1'], avatars: [] } } as unknown as Job;
    let calls = 0;
    setMediaStorage(
      Object.assign(Object.create(storage) as MediaStorage, {
        deletePrefix: async (prefix: string) => {
          calls += 1;
          if (calls > 1) throw new Error('connection reset');
          await storage.deletePrefix(prefix);
        },
      }),
    );
    await expect(purgeMedia(job, heldJobContext())).rejects.toThrow('connection reset');
    expect(await storage.stat('originals/v1.mp4')).toBeNull();
    expect(await storage.stat('videos/v1/web.mp4')).not.toBeNull();

    setMediaStorage(storage);
    await purgeMedia(job, heldJobContext());
    await purgeMedia(job, heldJobContext());
    for (const key of ['videos/v1/web.mp4', 'videos/v1/hls/master.m3u8', 'exports/u1/export.zip'])
      expect(await storage.stat(key)).toBeNull();
    // A neighbour whose id starts the same stays.
    expect(await storage.stat('videos/v10/web.mp4')).not.toBeNull();
  });
});
