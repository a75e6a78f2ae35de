import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as auditLog } from '@/app/api/admin/audit-log/route';
import { GET as payments } from '@/app/api/admin/payments/route';
import { PATCH as decideReport } from '@/app/api/admin/reports/[id]/route';
import { GET as reportQueue } from '@/app/api/admin/reports/route';
import { GET as stats } from '@/app/api/admin/stats/route';
import { DELETE as demote, POST as promote } from '@/app/api/admin/users/[id]/admin/route';
import { DELETE as unban, POST as ban } from '@/app/api/admin/users/[id]/ban/route';
import { POST as resendVerification } from '@/app/api/admin/users/[id]/resend-verification/route';
import { GET as memberDetail } from '@/app/api/admin/users/[id]/route';
import { DELETE as revokeVip, POST as grantVip } from '@/app/api/admin/users/[id]/vip/route';
import { GET as members } from '@/app/api/admin/users/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { POST as bulk } from '@/app/api/admin/videos/bulk/route';
import { GET as moderationQueue } from '@/app/api/admin/videos/route';
import { POST as login } from '@/app/api/auth/login/route';
import { GET as me } from '@/app/api/auth/me/route';
import { POST as report } from '@/app/api/reports/route';
import { GET as recent } from '@/app/api/videos/route';
import type { AdminMemberDetailDto, AdminMemberDto, AdminStatsDto, AuditEntryDto } from '@/lib/api-types';
import { installDatabase, queryRows } from '@/lib/db';
import { comments, notifications, reports, users, videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-admin-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MISSING_ID = '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c';

describe.each(ENGINES)('the admin API on %s', (engine) => {
  let database: TestDatabase;
  let adminToken: string;
  let admin: string;
  let memberToken: string;
  let member: string;
  let bannedToken: string;
  let creator: string;
  let creatorToken: string;

  const setAdminFlag = async (username: string) => promoteToAdmin(database.db, await userId(database.db, username));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    adminToken = await verifiedMemberToken(database.db, 'chiefmod');
    await setAdminFlag('chiefmod');
    admin = await userId(database.db, 'chiefmod');
    memberToken = await verifiedMemberToken(database.db, 'plainmember');
    member = await userId(database.db, 'plainmember');
    bannedToken = await verifiedMemberToken(database.db, 'bannedadmin');
    // An admin who is banned: the ban decides, not the admin flag.
    await setAdminFlag('bannedadmin');
    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.username, 'bannedadmin'));
    creatorToken = await verifiedMemberToken(database.db, 'creator');
    creator = await userId(database.db, 'creator');
    // Their videos pass the approval gate (lib/server/trust/approval-gate.ts).
    await verifiedUploader(database.db, creator);
  }, 60_000);
  afterAll(() => database.destroy());

  describe('authorisation matrix', () => {
    // Every admin endpoint with a call an admin may make: anonymous 401, member 403 with the spec's text, banned 403, admin 2xx.
    const endpoints = (): { name: string; send: (token?: string) => ReturnType<typeof call> }[] => [
      { name: 'GET /api/admin/stats', send: (bearer) => call(stats, '/api/admin/stats', { bearer }) },
      { name: 'GET /api/admin/users', send: (bearer) => call(members, '/api/admin/users', { bearer }) },
      {
        name: 'GET /api/admin/users/{id}',
        send: (bearer) => call(memberDetail, `/api/admin/users/${creator}`, { bearer, params: { id: creator } }),
      },
      { name: 'GET /api/admin/videos', send: (bearer) => call(moderationQueue, '/api/admin/videos', { bearer }) },
      { name: 'GET /api/admin/reports', send: (bearer) => call(reportQueue, '/api/admin/reports', { bearer }) },
      { name: 'GET /api/admin/audit-log', send: (bearer) => call(auditLog, '/api/admin/audit-log', { bearer }) },
      { name: 'GET /api/admin/payments', send: (bearer) => call(payments, '/api/admin/payments', { bearer }) },
      {
        name: 'POST /api/admin/users/{id}/vip',
        send: (bearer) =>
          call(grantVip, `/api/admin/users/${creator}/vip`, { json: { days: 1 }, bearer, params: { id: creator } }),
      },
      {
        name: 'DELETE /api/admin/users/{id}/vip',
        send: (bearer) =>
          call(revokeVip, `/api/admin/users/${creator}/vip`, { method: 'DELETE', bearer, params: { id: creator } }),
      },
      {
        name: 'POST /api/admin/users/{id}/ban',
        send: (bearer) =>
          call(ban, `/api/admin/users/${creator}/ban`, { json: { reason: 'matrix' }, bearer, params: { id: creator } }),
      },
      {
        name: 'DELETE /api/admin/users/{id}/ban',
        send: (bearer) => call(unban, `/api/admin/users/${creator}/ban`, { method: 'DELETE', bearer, params: { id: creator } }),
      },
      {
        name: 'POST /api/admin/users/{id}/admin',
        send: (bearer) => call(promote, `/api/admin/users/${creator}/admin`, { method: 'POST', bearer, params: { id: creator } }),
      },
      {
        name: 'DELETE /api/admin/users/{id}/admin',
        send: (bearer) =>
          call(demote, `/api/admin/users/${creator}/admin`, { method: 'DELETE', bearer, params: { id: creator } }),
      },
    ];

    it.each(endpoints().map((endpoint) => [endpoint.name]))(
      '%s: anonymous 401, member 403, banned 403, admin 200',
      async (name) => {
        const endpoint = endpoints().find((candidate) => candidate.name === name)!;
        expect((await endpoint.send()).status).toBe(401);
        expect(await endpoint.send(memberToken)).toMatchObject({
          status: 403,
          body: { message: 'Forbidden: Admin access required' },
        });
        expect(await endpoint.send(bannedToken)).toMatchObject({ status: 403, body: { message: 'Account is banned' } });
        const ok = await endpoint.send(adminToken);
        expect(ok.status).toBe(200);
      },
    );

    it('the other admin endpoints refuse members and visitors too', async () => {
      const video = await insertVideo(database.db, creator, { moderationStatus: 'pending', publishedAt: null });
      const [open] = await database.db
        .insert(reports)
        .values({ targetType: 'video', targetId: video.id, reason: 'spam', reporterKey: 'm:x' })
        .returning();
      const calls = [
        (bearer?: string) =>
          call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
            method: 'PATCH',
            json: { action: 'approve' },
            bearer,
            params: { streamVideoId: video.streamVideoId },
          }),
        (bearer?: string) =>
          call(bulk, '/api/admin/videos/bulk', { json: { streamVideoIds: [video.streamVideoId], action: 'approve' }, bearer }),
        (bearer?: string) =>
          call(decideReport, `/api/admin/reports/${open!.id}`, {
            method: 'PATCH',
            json: { action: 'dismiss' },
            bearer,
            params: { id: open!.id },
          }),
        (bearer?: string) =>
          call(resendVerification, `/api/admin/users/${member}/resend-verification`, {
            method: 'POST',
            bearer,
            params: { id: member },
          }),
      ];
      for (const send of calls) {
        expect((await send()).status).toBe(401);
        expect(await send(memberToken)).toMatchObject({ status: 403, body: { message: 'Forbidden: Admin access required' } });
        expect(await send(bannedToken)).toMatchObject({ status: 403, body: { message: 'Account is banned' } });
      }
      // Nothing changed.
      const [after] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(after!.moderationStatus).toBe('pending');
      const [stillOpen] = await database.db.select().from(reports).where(eq(reports.id, open!.id));
      expect(stillOpen!.status).toBe('open');
      await database.db.delete(reports);
      await database.db.delete(videos).where(eq(videos.id, video.id));
    });
  });

  describe('members', () => {
    it('lists, searches and filters members', async () => {
      const all = await call(members, '/api/admin/users?limit=100', { bearer: adminToken });
      const names = (all.body.members as AdminMemberDto[]).map((m) => m.username);
      expect(names).toEqual(expect.arrayContaining(['chiefmod', 'plainmember', 'creator', 'bannedadmin']));
      const found = await call(members, '/api/admin/users?q=PLAIN', { bearer: adminToken });
      expect((found.body.members as AdminMemberDto[]).map((m) => m.username)).toEqual(['plainmember']);
      const byEmail = await call(members, '/api/admin/users?q=creator%40example', { bearer: adminToken });
      expect((byEmail.body.members as AdminMemberDto[]).map((m) => m.username)).toEqual(['creator']);
      // LIKE wildcards in the search are literal.
      expect((await call(members, '/api/admin/users?q=%25', { bearer: adminToken })).body.members).toEqual([]);
      const banned = await call(members, '/api/admin/users?filter=banned', { bearer: adminToken });
      expect((banned.body.members as AdminMemberDto[]).map((m) => m.username)).toEqual(['bannedadmin']);
      expect((await call(members, '/api/admin/users?filter=nobody', { bearer: adminToken })).status).toBe(400);
      expect((await call(members, '/api/admin/users?limit=1000', { bearer: adminToken })).status).toBe(400);
    });

    it('shows one member in detail, and 404 / 400 for unknown or malformed ids', async () => {
      const detail = await call(memberDetail, `/api/admin/users/${creator}`, { bearer: adminToken, params: { id: creator } });
      const shown = detail.body.member as AdminMemberDetailDto;
      expect(shown).toMatchObject({
        username: 'creator',
        email: 'creator@example.org',
        emailVerified: true,
        isAdmin: false,
        banned: false,
      });
      expect(shown.counts).toMatchObject({ followers: 0, following: 0 });
      expect(
        (await call(memberDetail, `/api/admin/users/${MISSING_ID}`, { bearer: adminToken, params: { id: MISSING_ID } })).status,
      ).toBe(404);
      expect(await call(memberDetail, '/api/admin/users/nope', { bearer: adminToken, params: { id: 'nope' } })).toMatchObject({
        status: 400,
        body: { message: 'That is not a valid member id.' },
      });
    });

    it('bans a member: 403 "Account is banned" on their open session and at login, videos hidden, then unbans', async () => {
      const token = await verifiedMemberToken(database.db, 'rulebreaker');
      const id = await userId(database.db, 'rulebreaker');
      const video = await insertVideo(database.db, id, { title: 'Soon hidden' });
      const visible = async () =>
        ((await call(recent, '/api/videos?limit=50')).body.videos as { _id: string }[]).some((v) => v._id === video.id);
      expect(await visible()).toBe(true);

      expect(await call(ban, `/api/admin/users/${id}/ban`, { json: {}, bearer: adminToken, params: { id } })).toMatchObject({
        status: 400,
        body: { message: 'Give a reason for the ban.' },
      });
      const banned = await call(ban, `/api/admin/users/${id}/ban`, {
        json: { reason: 'Spam links in every comment' },
        bearer: adminToken,
        params: { id },
      });
      expect(banned.status).toBe(200);
      expect(banned.body.member).toMatchObject({ banned: true, banReason: 'Spam links in every comment' });

      // Their browser's next re-check of /api/auth/me is told why, so the client logs out (spec section 8).
      expect(await call(me, '/api/auth/me', { bearer: token })).toMatchObject({
        status: 403,
        body: { message: 'Account is banned' },
      });
      const relogin = await call(login, '/api/auth/login', {
        json: { email: 'rulebreaker@example.org', password: 'rulebreaker-password-1' },
        ip: '198.18.1.2',
      });
      expect(relogin).toMatchObject({ status: 403, body: { message: 'Account is banned' } });
      expect(await visible()).toBe(false);
      expect(
        (await call(ban, `/api/admin/users/${id}/ban`, { json: { reason: 'again' }, bearer: adminToken, params: { id } })).status,
      ).toBe(409);

      const lifted = await call(unban, `/api/admin/users/${id}/ban`, {
        method: 'DELETE',
        json: { note: 'appeal accepted' },
        bearer: adminToken,
        params: { id },
      });
      expect(lifted.body.member).toMatchObject({ banned: false, banReason: null });
      expect(await visible()).toBe(true);
      // The old token stays dead; logging in again works.
      expect((await call(me, '/api/auth/me', { bearer: token })).status).toBe(401);
      expect(
        (
          await call(login, '/api/auth/login', {
            json: { email: 'rulebreaker@example.org', password: 'rulebreaker-password-1' },
            ip: '198.18.1.3',
          })
        ).status,
      ).toBe(200);

      const history = await call(auditLog, `/api/admin/audit-log?targetType=member&targetId=${id}`, { bearer: adminToken });
      expect((history.body.entries as AuditEntryDto[]).map((entry) => entry.summary)).toEqual([
        'Lifted the ban on rulebreaker: appeal accepted',
        'Banned rulebreaker: Spam links in every comment',
      ]);
      expect((history.body.entries as AuditEntryDto[])[0]).toMatchObject({
        admin: { _id: admin, username: 'chiefmod' },
        action: 'member.unban',
        link: `/admin/members/${id}`,
      });
    });

    it('refuses banning yourself or another admin', async () => {
      expect(
        await call(ban, `/api/admin/users/${admin}/ban`, { json: { reason: 'x' }, bearer: adminToken, params: { id: admin } }),
      ).toMatchObject({
        status: 400,
        body: { message: 'You cannot ban yourself.' },
      });
      await verifiedMemberToken(database.db, 'otheradmin');
      await setAdminFlag('otheradmin');
      const other = await userId(database.db, 'otheradmin');
      const refused = await call(ban, `/api/admin/users/${other}/ban`, {
        json: { reason: 'x' },
        bearer: adminToken,
        params: { id: other },
      });
      expect(refused).toMatchObject({
        status: 409,
        body: { message: 'otheradmin is an admin. Remove their admin rights before banning them.' },
      });
      await database.db.update(users).set({ isAdmin: false }).where(eq(users.id, other));
    });

    it('grants and removes admin rights; the last admin cannot be demoted, even by two admins at once', async () => {
      const promoted = await call(promote, `/api/admin/users/${member}/admin`, {
        method: 'POST',
        bearer: adminToken,
        params: { id: member },
      });
      expect(promoted.body.member).toMatchObject({ username: 'plainmember', isAdmin: true });
      // The new admin is told to turn on two-factor, and admin tools refuse them until they have (decision 018).
      expect(await call(stats, '/api/admin/stats', { bearer: memberToken })).toMatchObject({
        status: 403,
        body: { twoFactorRequired: true, twoFactor: 'enrol' },
      });
      const [told] = await database.db
        .select()
        .from(notifications)
        .where(sql`${notifications.recipientId} = ${member} AND ${notifications.type} = 'site_notice'`);
      expect(told).toMatchObject({ type: 'site_notice', link: '/settings/security' });
      expect(told?.message).toContain('two-factor');
      // Enrolled, with this session standing for a login with a code: the existing token works at once, as rights are read from the database.
      await promoteToAdmin(database.db, member);
      expect((await call(stats, '/api/admin/stats', { bearer: memberToken })).status).toBe(200);

      // Two admins remove each other at the same moment: one must remain.
      const [first, second] = await Promise.all([
        call(demote, `/api/admin/users/${member}/admin`, { method: 'DELETE', bearer: adminToken, params: { id: member } }),
        call(demote, `/api/admin/users/${admin}/admin`, { method: 'DELETE', bearer: memberToken, params: { id: admin } }),
      ]);
      const statuses = [first.status, second.status].sort();
      const [admins] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM users WHERE is_admin AND banned_at IS NULL`,
      );
      expect(admins!.n).toBeGreaterThanOrEqual(1);
      if (statuses[0] === 200 && statuses[1] === 200) throw new Error('both demotions went through');
      // Put things back: chiefmod admin, plainmember not.
      await promoteToAdmin(database.db, admin);
      await database.db.update(users).set({ isAdmin: false }).where(eq(users.id, member));

      const last = await call(demote, `/api/admin/users/${admin}/admin`, {
        method: 'DELETE',
        bearer: adminToken,
        params: { id: admin },
      });
      expect(last).toMatchObject({ status: 409, body: { message: 'This is the last admin. Make someone else an admin first.' } });
      expect(
        (await call(promote, `/api/admin/users/${admin}/admin`, { method: 'POST', bearer: adminToken, params: { id: admin } }))
          .status,
      ).toBe(409);
    });

    it('resends verification to an unverified member, and says so when already verified', async () => {
      await database.db
        .insert(users)
        .values({ username: 'unverified', email: 'unverified@example.org', passwordHash: 'x', dateOfBirth: '1990-01-01' });
      const id = await userId(database.db, 'unverified');
      const sent = await call(resendVerification, `/api/admin/users/${id}/resend-verification`, {
        method: 'POST',
        bearer: adminToken,
        params: { id },
      });
      expect(sent).toMatchObject({
        status: 200,
        body: { message: 'A new verification email is on its way to unverified@example.org.' },
      });
      expect(
        outbox(dataDir)
          .filter((mail) => mail.to.includes('unverified@example.org'))
          .at(-1)?.link,
      ).toMatch(/verify-email\?token=/);
      const again = await call(resendVerification, `/api/admin/users/${member}/resend-verification`, {
        method: 'POST',
        bearer: adminToken,
        params: { id: member },
      });
      expect(again).toMatchObject({ status: 409, body: { message: 'plainmember has already verified their email address.' } });
    });
  });

  describe('moderation', () => {
    it('approves and rejects in bulk, reporting the ones it could not change, and logs each', async () => {
      const pending = await Promise.all(
        [1, 2, 3].map((n) =>
          insertVideo(database.db, creator, { title: `Bulk ${n}`, moderationStatus: 'pending', publishedAt: null }),
        ),
      );
      const failed = await insertVideo(database.db, creator, {
        title: 'Broken',
        moderationStatus: 'pending',
        processingState: 'failed',
        publishedAt: null,
      });
      const ids = [...pending.map((v) => v.streamVideoId), failed.streamVideoId, 'unknownid123'];
      const answer = await call(bulk, '/api/admin/videos/bulk', {
        json: { streamVideoIds: ids, action: 'approve' },
        bearer: adminToken,
      });
      expect(answer.status).toBe(200);
      expect(answer.body.results).toEqual([
        ...pending.map((v) => ({ streamVideoId: v.streamVideoId, ok: true, message: null })),
        {
          streamVideoId: failed.streamVideoId,
          ok: false,
          message: 'This video could not be processed, so it cannot be approved.',
        },
        { streamVideoId: 'unknownid123', ok: false, message: 'Video not found' },
      ]);
      const approvedNotes = await database.db.select().from(notifications).where(eq(notifications.recipientId, creator));
      expect(approvedNotes.filter((n) => n.type === 'video_approved')).toHaveLength(3);

      const rejected = await call(bulk, '/api/admin/videos/bulk', {
        json: { streamVideoIds: [failed.streamVideoId], action: 'reject', reason: 'Low quality or broken video' },
        bearer: adminToken,
      });
      expect(rejected.body.results).toEqual([{ streamVideoId: failed.streamVideoId, ok: true, message: null }]);
      expect(
        (await call(bulk, '/api/admin/videos/bulk', { json: { streamVideoIds: [], action: 'approve' }, bearer: adminToken }))
          .body,
      ).toMatchObject({ message: 'Choose at least one video.' });
      expect(
        (await call(bulk, '/api/admin/videos/bulk', { json: { streamVideoIds: ['a'], action: 'reject' }, bearer: adminToken }))
          .body,
      ).toMatchObject({ message: 'Give a reason for the rejection' });

      const log = await call(auditLog, '/api/admin/audit-log?targetType=video', { bearer: adminToken });
      const summaries = (log.body.entries as AuditEntryDto[]).map((entry) => entry.summary);
      expect(summaries).toEqual(
        expect.arrayContaining(['Approved “Bulk 1”', 'Approved “Bulk 3”', 'Rejected “Broken”: Low quality or broken video']),
      );
    });
  });

  describe('reports', () => {
    it('removing a reported video rejects it, tells the uploader and closes every open report on it', async () => {
      const video = await insertVideo(database.db, creator, { title: 'Reported twice' });
      for (const ip of ['198.18.5.1', '198.18.5.2']) {
        expect(
          (
            await call(report, '/api/reports', {
              json: { targetType: 'video', target: video.streamVideoId, reason: 'copyright' },
              ip,
            })
          ).status,
        ).toBe(201);
      }
      const queue = await call(reportQueue, '/api/admin/reports', { bearer: adminToken });
      const first = (queue.body.reports as { _id: string; targetId: string }[]).find((r) => r.targetId === video.id)!;
      expect(
        await call(decideReport, `/api/admin/reports/${first._id}`, {
          method: 'PATCH',
          json: { action: 'delete' },
          bearer: adminToken,
          params: { id: first._id },
        }),
      ).toMatchObject({ status: 400 });

      const decided = await call(decideReport, `/api/admin/reports/${first._id}`, {
        method: 'PATCH',
        json: { action: 'remove', note: 'Owner of the rights wrote in' },
        bearer: adminToken,
        params: { id: first._id },
      });
      expect(decided).toMatchObject({ status: 200, body: { closed: 2, outcome: 'removed the video “Reported twice”' } });
      const [after] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(after).toMatchObject({ moderationStatus: 'rejected' });
      expect(after!.rejectionReason).toContain('Removed after a report');
      const told = await database.db.select().from(notifications).where(eq(notifications.recipientId, creator));
      expect(told.some((n) => n.type === 'video_rejected' && n.message?.includes('was removed after a report'))).toBe(true);
      const left = await queryRows<{ status: string; resolution_note: string }>(
        database.db,
        sql`SELECT status, resolution_note FROM reports WHERE target_id = ${video.id}`,
      );
      expect(left).toEqual([
        { status: 'resolved', resolution_note: 'Owner of the rights wrote in' },
        { status: 'resolved', resolution_note: 'Owner of the rights wrote in' },
      ]);
      const again = await call(decideReport, `/api/admin/reports/${first._id}`, {
        method: 'PATCH',
        json: { action: 'dismiss' },
        bearer: adminToken,
        params: { id: first._id },
      });
      expect(again).toMatchObject({ status: 409, body: { message: 'This report was already resolved.' } });
    });

    it('dismisses a report without touching the content, and removes comments', async () => {
      const video = await insertVideo(database.db, creator, { title: 'Fine video' });
      const [comment] = await database.db
        .insert(comments)
        .values({ videoId: video.id, authorId: member, body: 'rude words' })
        .returning();
      const [videoReport, commentReport] = await database.db
        .insert(reports)
        .values([
          { targetType: 'video', targetId: video.id, reason: 'other', details: 'I do not like it', reporterKey: 'm:a' },
          { targetType: 'comment', targetId: comment!.id, reason: 'harassment', reporterKey: 'm:b' },
        ])
        .returning();
      expect(
        (
          await call(decideReport, `/api/admin/reports/${videoReport!.id}`, {
            method: 'PATCH',
            json: { action: 'dismiss' },
            bearer: adminToken,
            params: { id: videoReport!.id },
          })
        ).body,
      ).toEqual({
        closed: 1,
        outcome: 'dismissed',
      });
      const [still] = await database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(still!.moderationStatus).toBe('approved');
      await call(decideReport, `/api/admin/reports/${commentReport!.id}`, {
        method: 'PATCH',
        json: { action: 'remove' },
        bearer: adminToken,
        params: { id: commentReport!.id },
      });
      expect(await database.db.select().from(comments).where(eq(comments.id, comment!.id))).toEqual([]);
      expect(
        (
          await call(decideReport, `/api/admin/reports/${MISSING_ID}`, {
            method: 'PATCH',
            json: { action: 'dismiss' },
            bearer: adminToken,
            params: { id: MISSING_ID },
          })
        ).status,
      ).toBe(404);
    });
  });

  it('counts members, videos by status, uploads per day, open reports and VIPs on the dashboard', async () => {
    await database.db.delete(reports);
    await insertVideo(database.db, creator, { title: 'Waiting', moderationStatus: 'pending', publishedAt: null });
    await database.db.insert(reports).values({
      targetType: 'profile',
      targetId: creator,
      reason: 'underage',
      reporterKey: 'm:z',
      createdAt: new Date(Date.now() - 20 * 86_400_000),
    });
    const answer = await call(stats, '/api/admin/stats?days=7', { bearer: adminToken });
    const body = answer.body as unknown as AdminStatsDto;
    const [counts] = await queryRows<Record<string, number>>(
      database.db,
      sql`SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM videos) AS videos,
                 (SELECT count(*)::int FROM videos WHERE moderation_status = 'pending') AS pending,
                 (SELECT count(*)::int FROM users WHERE vip_until > now()) AS vip`,
    );
    expect(body.members.total).toBe(counts!.users);
    expect(body.members.vip).toBe(counts!.vip);
    expect(body.videos.total).toBe(counts!.videos);
    expect(body.videos.byModeration.pending).toBe(counts!.pending);
    expect(body.uploadsPerDay).toHaveLength(7);
    expect(body.uploadsPerDay.at(-1)!.count).toBe(counts!.videos);
    expect(body.reports).toEqual({ open: 1, overdue: 1, urgent: 1 });
    expect((await call(stats, '/api/admin/stats?days=0', { bearer: adminToken })).status).toBe(400);
  });

  it('lists payment events for operators', async () => {
    const answer = await call(payments, '/api/admin/payments', { bearer: adminToken });
    const events = answer.body.events as { processor: string; event: string; member: { username: string } | null }[];
    // The matrix granted and revoked the creator's VIP.
    expect(events.map((e) => `${e.processor}:${e.event}:${e.member?.username}`)).toEqual(
      expect.arrayContaining(['manual:grant:creator', 'manual:revoke:creator']),
    );
  });

  it('a ban kills the tokens it found for good (401 after the unban), and leaves other members’ tokens alone', async () => {
    expect((await call(me, '/api/auth/me', { bearer: creatorToken })).status).toBe(401);
    expect((await call(me, '/api/auth/me', { bearer: memberToken })).status).toBe(200);
  });
});
