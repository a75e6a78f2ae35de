/**
 * The authorisation matrix: every route handler under app/ × every kind of
 * caller, in one table. A route file or method without a row fails the test,
 * so a new endpoint cannot ship without saying who may call it.
 *
 * Callers: a visitor, a member, another member, a banned member (token from
 * before the ban), a member whose email became unverified, an admin, an admin
 * demoted after logging in (old token, sealed with the admin flag), an
 * admin after logging out (old token), an admin whose token comes from a
 * password-only login (passwordOnly) and an admin who has not enrolled
 * two-factor (notEnrolled): both are members to everything but admin routes,
 * which tell them to log in with a code or to enrol (decision 018). Each of
 * these two has a twin, a plain member in the same account state (enrolled:
 * two-factor on, a password-only session; other: no two-factor), and gets
 * what its twin gets on every route that is not an admin route: the same
 * status and the same body, once the caller's own id, username and email,
 * the values the request itself carried, ids and timestamps are normalised
 * (fields that only report the caller's role are named by the row). So a
 * service that reads the admin flag off a user row instead of asking the
 * actor layer fails here, on a new route too.
 * Expectations by access level:
 * - public: nobody gets 401/403;
 * - open: anyone, but a banned member's token is told 403 'Account is banned';
 * - member: visitor and logged-out admin 401, banned 403, the rest not 401/403;
 * - owner: the member's own things: the member not 401/403, the other member
 *   403 or 404, other signed-in callers not 401 (admins may or may not act);
 * - vip: as member, but members without VIP 403;
 * - admin: visitor and logged-out admin 401, banned 403, every non-admin
 *   (the demoted admin too) 403 with the spec's message.
 * No call may answer 5xx.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { installDatabase } from '@/lib/db';
import {
  appeals,
  comments,
  consentWithdrawals,
  dataExports,
  identityVerifications,
  jobs,
  moderationDecisions,
  notifications,
  playlistItems,
  playlists,
  reports,
  users,
  videos,
  type User,
} from '@/lib/db/schema';
import { TWO_FACTOR_ENROL_MESSAGE, TWO_FACTOR_LOGIN_MESSAGE } from '@/lib/server/auth/actor';
import { startSession } from '@/lib/server/auth/session';
import { sealSecret } from '@/lib/server/auth/two-factor-codes';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { routeFiles } from '../helpers/routes';
import { promoteToAdmin, TEST_TOTP_SECRET, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-authz-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The first bytes of a JPEG: enough for the document store, which reads the type from them. */
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

const ACTORS = [
  'visitor',
  'member',
  'other',
  'enrolled',
  'banned',
  'unverified',
  'admin',
  'demoted',
  'loggedOut',
  'passwordOnly',
  'notEnrolled',
] as const;
type ActorName = (typeof ACTORS)[number];
/** The admins without admin power, each with the plain member whose answers it must get. */
const TWINS = { passwordOnly: 'enrolled', notEnrolled: 'other' } as const satisfies Partial<Record<ActorName, ActorName>>;
type Access = 'public' | 'open' | 'member' | 'owner' | 'vip' | 'admin';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Fixtures {
  db: TestDatabase['db'];
  memberId: string;
  /** A fresh member nobody acts as (targets of bans, grants, follows). */
  bystander(): Promise<{ id: string; username: string }>;
  /** A public video of the member's. */
  video(): Promise<string>;
  /** A comment by the member on a public video. */
  comment(): Promise<string>;
  report(): Promise<string>;
  notification(): Promise<string>;
  task(): Promise<string>;
  /** A ready data export of the member's (the row only: a missing file is the same 404 for everyone else). */
  dataExport(): Promise<string>;
  /** A statement of reasons about the member (a rejected video), decided by the admin. */
  decision(): Promise<string>;
  /** An open appeal of a decision about the member, decided by nobody yet (an automated decision: any admin may decide it). */
  appeal(): Promise<string>;
  /** A pending identity verification of a fresh member, with its two sealed documents. */
  verification(): Promise<{ id: string; idDocumentId: string }>;
  /** An unfinished resumable (tus) upload of the member's: its id. */
  resumableUpload(): Promise<string>;
  /** A playlist of the member's holding one public video: its public id and the video's. */
  playlist(visibility?: 'private' | 'public'): Promise<{ id: string; streamVideoId: string }>;
}

/** A tus creation request's headers: 100 bytes of a video with valid fields (Upload-Metadata is base64 per value). */
const TUS_CREATE = {
  'tus-resumable': '1.0.0',
  'upload-length': '100',
  'upload-metadata': `filename ${btoa('clip.mp4')},title ${btoa('A title')},category ${btoa('Sissy')}`,
};

interface Row {
  access: Access;
  /** Needs Next's request scope (connection()), so it is exercised by the e2e suite instead; the row still says who may call it. */
  e2eOnly?: true;
  /** The one answer every caller gets (login with wrong credentials: 401; payments unconfigured here: 503). */
  everyone?: number;
  /** Body fields (dotted paths) that report the caller's own role to the UI and so differ from the twin's; they grant nothing. */
  roleFields?: string[];
  /** Body fields (dotted paths) new at random on every call (a new playlist's public id): left out of the twins' comparison. */
  randomFields?: string[];
  /** Why an admin without admin power is refused here where a member is not (a duty of the role, never a power): a 4xx may differ from the twin's answer. */
  stricterForAdmins?: string;
  /** Path with its dynamic segments filled, params as Next passes them, and a body (and headers) that are valid for the right caller. */
  build(f: Fixtures): Promise<{
    path: string;
    params?: Record<string, string | string[]>;
    json?: unknown;
    form?: FormData;
    body?: string;
    headers?: Record<string, string>;
  }>;
}

const simple = (access: Access, route: string): Row => ({ access, build: async () => ({ path: route }) });

/** Keyed by "METHOD file" with the file relative to app/. Logout comes last: it ends the tokens it is called with. */
const TABLE: Record<string, Row> = {
  'GET api/admin/audit-log/route.ts': simple('admin', '/api/admin/audit-log'),
  'GET api/admin/daily-tasks/route.ts': simple('admin', '/api/admin/daily-tasks'),
  'POST api/admin/daily-tasks/route.ts': {
    access: 'admin',
    build: async () => ({ path: '/api/admin/daily-tasks', json: { description: 'Stretch for ten minutes.' } }),
  },
  'PATCH api/admin/daily-tasks/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const id = await f.task();
      return { path: `/api/admin/daily-tasks/${id}`, params: { id }, json: { description: 'Walk for ten minutes.' } };
    },
  },
  'DELETE api/admin/daily-tasks/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const id = await f.task();
      return { path: `/api/admin/daily-tasks/${id}`, params: { id } };
    },
  },
  'GET api/admin/appeals/route.ts': simple('admin', '/api/admin/appeals'),
  'PATCH api/admin/appeals/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const id = await f.appeal();
      return { path: `/api/admin/appeals/${id}`, params: { id }, json: { outcome: 'uphold', note: 'The rule applies.' } };
    },
  },
  'GET api/decisions/route.ts': simple('member', '/api/decisions'),
  // Only the member it is about (or an admin) reads a decision; anyone else is told it does not exist.
  'GET api/decisions/[id]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.decision();
      return { path: `/api/decisions/${id}`, params: { id } };
    },
  },
  // Only the member it is about appeals (an admin reading it is refused with 403).
  'POST api/decisions/[id]/appeal/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.decision();
      return { path: `/api/decisions/${id}/appeal`, params: { id }, json: { statement: 'This follows the rules.' } };
    },
  },
  'GET api/admin/payments/route.ts': simple('admin', '/api/admin/payments'),
  'GET api/admin/jobs/route.ts': simple('admin', '/api/admin/jobs'),
  // A failed job per call (decision 023): only an admin who passed the second factor queues it again.
  'POST api/admin/jobs/[id]/retry/route.ts': {
    access: 'admin',
    build: async (f) => {
      const [job] = await f.db
        .insert(jobs)
        .values({ type: 'process-video', status: 'failed', attempts: 5, lastError: 'gave up', finishedAt: new Date() })
        .returning({ id: jobs.id });
      return { path: `/api/admin/jobs/${job!.id}/retry`, params: { id: job!.id } };
    },
  },
  'GET api/admin/reports/route.ts': simple('admin', '/api/admin/reports'),
  'PATCH api/admin/reports/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const id = await f.report();
      return { path: `/api/admin/reports/${id}`, params: { id }, json: { action: 'dismiss' } };
    },
  },
  'POST api/admin/consent-withdrawals/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const streamVideoId = await f.video();
      const [video] = await f.db.select().from(videos).where(eq(videos.streamVideoId, streamVideoId));
      const [row] = await f.db
        .insert(consentWithdrawals)
        .values({
          videoId: video!.id,
          streamVideoId,
          videoTitle: video!.title,
          legalName: 'Sam Doe',
          dateOfBirth: '1990-01-01',
          email: 'sam@example.org',
          statement: 'I appear in it and withdraw.',
          senderKey: 'a:test',
        })
        .returning();
      return { path: `/api/admin/consent-withdrawals/${row!.id}`, params: { id: row!.id }, json: { action: 'dismiss' } };
    },
  },
  'POST api/admin/copyright/takedowns/[id]/lawsuit/route.ts': {
    access: 'admin',
    build: async () => {
      const id = crypto.randomUUID();
      return {
        path: `/api/admin/copyright/takedowns/${id}/lawsuit`,
        params: { id },
        json: { details: 'Case 1:26-cv-00001, S.D.N.Y.' },
      };
    },
  },
  'GET api/admin/stats/route.ts': simple('admin', '/api/admin/stats'),
  'GET api/admin/users/route.ts': simple('admin', '/api/admin/users'),
  'GET api/admin/users/[id]/route.ts': {
    access: 'admin',
    build: async (f) => ({ path: `/api/admin/users/${f.memberId}`, params: { id: f.memberId } }),
  },
  'POST api/admin/users/[id]/admin/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      return { path: `/api/admin/users/${id}/admin`, params: { id } };
    },
  },
  'DELETE api/admin/users/[id]/admin/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      await promoteToAdmin(f.db, id);
      return { path: `/api/admin/users/${id}/admin`, params: { id } };
    },
  },
  'POST api/admin/users/[id]/ban/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      return { path: `/api/admin/users/${id}/ban`, params: { id }, json: { reason: 'Spam' } };
    },
  },
  'DELETE api/admin/users/[id]/ban/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      await f.db.update(users).set({ bannedAt: new Date(), banReason: 'Spam' }).where(eq(users.id, id));
      return { path: `/api/admin/users/${id}/ban`, params: { id } };
    },
  },
  'POST api/admin/users/[id]/resend-verification/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      await f.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, id));
      return { path: `/api/admin/users/${id}/resend-verification`, params: { id } };
    },
  },
  'POST api/admin/users/[id]/vip/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      return { path: `/api/admin/users/${id}/vip`, params: { id }, json: { days: 3 } };
    },
  },
  'DELETE api/admin/users/[id]/vip/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.bystander();
      return { path: `/api/admin/users/${id}/vip`, params: { id } };
    },
  },
  'GET api/admin/videos/route.ts': simple('admin', '/api/admin/videos'),
  'GET api/admin/video-text-edits/route.ts': simple('admin', '/api/admin/video-text-edits'),
  'GET api/admin/verifications/route.ts': simple('admin', '/api/admin/verifications'),
  'GET api/admin/verifications/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.verification();
      return { path: `/api/admin/verifications/${id}`, params: { id } };
    },
  },
  'PATCH api/admin/verifications/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { id } = await f.verification();
      return { path: `/api/admin/verifications/${id}`, params: { id }, json: { action: 'approve' } };
    },
  },
  'GET api/admin/documents/[id]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const { idDocumentId: id } = await f.verification();
      return { path: `/api/admin/documents/${id}`, params: { id } };
    },
  },
  'PATCH api/admin/videos/[streamVideoId]/route.ts': {
    access: 'admin',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/admin/videos/${streamVideoId}`, params: { streamVideoId }, json: { action: 'approve' } };
    },
  },
  'PATCH api/admin/videos/[streamVideoId]/text-edit/route.ts': {
    access: 'admin',
    build: async (f) => {
      const streamVideoId = await f.video();
      // No edit waits on it: an admin is told so (409); everyone else is refused before that.
      const json = { action: 'approve', editId: '00000000-0000-4000-8000-000000000000' };
      return { path: `/api/admin/videos/${streamVideoId}/text-edit`, params: { streamVideoId }, json };
    },
  },
  'POST api/admin/videos/bulk/route.ts': {
    access: 'admin',
    build: async (f) => ({ path: '/api/admin/videos/bulk', json: { streamVideoIds: [await f.video()], action: 'approve' } }),
  },
  'POST api/auth/login/route.ts': {
    access: 'public',
    everyone: 401,
    build: async () => ({ path: '/api/auth/login', json: { email: 'nobody@example.org', password: 'wrong-password' } }),
  },
  'GET api/auth/me/route.ts': simple('member', '/api/auth/me'),
  'POST api/auth/login/two-factor/route.ts': {
    access: 'public',
    everyone: 401,
    build: async () => ({ path: '/api/auth/login/two-factor', json: { challenge: 'not-a-challenge', code: '123456' } }),
  },
  'POST api/auth/forgot-password/route.ts': {
    access: 'public',
    build: async () => ({
      path: '/api/auth/forgot-password',
      json: { email: `nobody-${Math.random().toString(36).slice(2, 10)}@example.org` },
    }),
  },
  // A forged link: every caller is told so alike; a session plays no part in a reset.
  'POST api/auth/reset-password/route.ts': {
    access: 'public',
    everyone: 400,
    build: async () => ({
      path: '/api/auth/reset-password',
      json: { token: 'not-a-real-token', password: 'a-long-password-1', confirmPassword: 'a-long-password-1' },
    }),
  },
  'POST api/auth/register/route.ts': {
    access: 'public',
    build: async () => {
      const form = new FormData();
      const name = `reg${Math.random().toString(36).slice(2, 10)}`;
      for (const [key, value] of Object.entries({
        username: name,
        email: `${name}@example.org`,
        password: 'a-long-password-1',
        confirmPassword: 'a-long-password-1',
        dateOfBirth: '1990-01-01',
      })) {
        form.set(key, value);
      }
      return { path: '/api/auth/register', form };
    },
  },
  'POST api/auth/resend-verification/route.ts': {
    access: 'public',
    build: async () => ({ path: '/api/auth/resend-verification', json: { email: 'nobody@example.org' } }),
  },
  'GET api/auth/verify-email/route.ts': simple('public', '/api/auth/verify-email?token=not-a-token'),
  'GET api/comments/[id]/route.ts': {
    access: 'public',
    build: async (f) => {
      const id = await f.comment();
      return { path: `/api/comments/${id}`, params: { id } };
    },
  },
  'GET api/comments/[id]/replies/route.ts': {
    access: 'public',
    build: async (f) => {
      const id = await f.comment();
      return { path: `/api/comments/${id}/replies?page=1`, params: { id } };
    },
  },
  'PATCH api/comments/[id]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.comment();
      return { path: `/api/comments/${id}`, params: { id }, json: { body: 'Edited.' } };
    },
  },
  'DELETE api/comments/[id]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.comment();
      return { path: `/api/comments/${id}`, params: { id } };
    },
  },
  'GET api/dailytasks/today/route.ts': simple('vip', '/api/dailytasks/today'),
  'GET api/feed/following/route.ts': simple('member', '/api/feed/following'),
  'GET api/health/route.ts': simple('public', '/api/health'),
  // No job worker runs beside this file's database, so everyone gets the same 503 naming it.
  'GET api/ready/route.ts': { ...simple('public', '/api/ready'), everyone: 503 },
  'GET api/notifications/route.ts': simple('member', '/api/notifications'),
  'PUT api/notifications/read-all/route.ts': simple('member', '/api/notifications/read-all'),
  'PUT api/notifications/[id]/read/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.notification();
      return { path: `/api/notifications/${id}/read`, params: { id } };
    },
  },
  'GET api/payments/verotel/postback/route.ts': {
    ...simple('public', '/api/payments/verotel/postback?type=purchase&signature=forged'),
    everyone: 503,
  },
  'POST api/payments/verotel/postback/route.ts': {
    access: 'public',
    everyone: 503,
    build: async () => {
      const form = new FormData();
      form.set('type', 'purchase');
      form.set('signature', 'forged');
      return { path: '/api/payments/verotel/postback', form };
    },
  },
  'POST api/notices/route.ts': {
    access: 'public',
    build: async (f) => ({
      path: '/api/notices',
      json: {
        video: await f.video(),
        reason: 'other',
        details: 'Shows a private address.',
        name: 'Sam Doe',
        email: 'sam@example.org',
        signature: 'Sam Doe',
        goodFaith: true,
      },
    }),
  },
  'POST api/copyright/notices/route.ts': {
    access: 'public',
    build: async (f) => ({
      path: '/api/copyright/notices',
      json: {
        video: await f.video(),
        work: 'My film “Dawn”, 2025',
        name: 'Sam Doe',
        address: '1 Main St, Springfield',
        phone: '+1 555 0100',
        email: 'sam@example.org',
        signature: 'Sam Doe',
        goodFaith: true,
        perjury: true,
      },
    }),
  },
  'POST api/copyright/counter-notices/route.ts': {
    access: 'member',
    build: async (f) => ({
      path: '/api/copyright/counter-notices',
      json: {
        video: await f.video(),
        material: 'My video, at /video/x',
        name: 'Alex',
        address: '2 Side St',
        phone: '+44 20 7946 0000',
        signature: 'Alex',
        mistake: true,
        jurisdiction: true,
      },
    }),
  },
  'POST api/copyright/lawsuits/route.ts': {
    access: 'public',
    build: async () => ({ path: '/api/copyright/lawsuits', json: { token: 'not-a-real-token', details: 'Case 1' } }),
  },
  'POST api/reports/route.ts': {
    access: 'open',
    build: async (f) => ({
      path: '/api/reports',
      json: { targetType: 'video', target: await f.video(), reason: 'spam', details: '' },
    }),
  },
  'POST api/consent-withdrawals/route.ts': {
    access: 'public',
    build: async (f) => ({
      path: '/api/consent-withdrawals',
      json: {
        video: `/video/${await f.video()}`,
        legalName: 'Sam Doe',
        dateOfBirth: '1990-01-01',
        email: 'sam@example.org',
        statement: 'I appear in this video and withdraw my consent.',
      },
    }),
  },
  'POST api/users/[username]/block/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/block`, params: { username } };
    },
  },
  'DELETE api/users/[username]/block/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/block`, params: { username } };
    },
  },
  'GET api/users/[username]/follow/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/follow`, params: { username } };
    },
  },
  'POST api/users/[username]/follow/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/follow`, params: { username } };
    },
  },
  'DELETE api/users/[username]/follow/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/follow`, params: { username } };
    },
  },
  'GET api/users/[username]/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}`, params: { username } };
    },
  },
  'GET api/users/[username]/videos/route.ts': {
    access: 'member',
    build: async (f) => {
      const { username } = await f.bystander();
      return { path: `/api/users/${username}/videos`, params: { username } };
    },
  },
  'POST api/users/complete-task/route.ts': simple('vip', '/api/users/complete-task'),
  'GET api/users/me/blocks/route.ts': simple('member', '/api/users/me/blocks'),
  'GET api/users/me/liked-videos/route.ts': simple('member', '/api/users/me/liked-videos'),
  'GET api/users/me/export/route.ts': simple('member', '/api/users/me/export'),
  // 202 the first time, 409 after: both are the member's answers.
  'POST api/users/me/export/route.ts': simple('member', '/api/users/me/export'),
  'GET data-export/[exportId]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const exportId = await f.dataExport();
      return { path: `/data-export/${exportId}`, params: { exportId } };
    },
  },
  'GET api/users/me/verification/route.ts': simple('member', '/api/users/me/verification'),
  // 201 the first time, 409 after: both are the member's answers.
  'POST api/users/me/verification/route.ts': {
    access: 'member',
    build: async () => {
      const form = new FormData();
      form.set('legalName', 'Alex Example');
      form.set('dateOfBirth', '1990-01-01');
      form.set('idDocument', new File([JPEG], 'id.jpg', { type: 'image/jpeg' }));
      form.set('selfie', new File([JPEG], 'selfie.jpg', { type: 'image/jpeg' }));
      return { path: '/api/users/me/verification', form };
    },
  },
  'GET api/users/me/history/route.ts': simple('member', '/api/users/me/history'),
  'DELETE api/users/me/history/route.ts': simple('member', '/api/users/me/history'),
  'DELETE api/users/me/history/[streamVideoId]/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/users/me/history/${streamVideoId}`, params: { streamVideoId } };
    },
  },
  // Resuming, never pausing: the later rows' progress writes still record.
  'PUT api/users/me/history/paused/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/users/me/history/paused', json: { paused: false } }),
  },
  'GET api/playlists/route.ts': simple('member', '/api/playlists'),
  'POST api/playlists/route.ts': {
    access: 'member',
    randomFields: ['id'],
    build: async () => ({ path: '/api/playlists', json: { title: 'A playlist' } }),
  },
  // A public one, which everyone may read; a private one is a 404 to all but its owner (playlists.test.ts).
  'GET api/playlists/[id]/route.ts': {
    access: 'public',
    build: async (f) => {
      const { id } = await f.playlist('public');
      return { path: `/api/playlists/${id}`, params: { id } };
    },
  },
  'PATCH api/playlists/[id]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const { id } = await f.playlist();
      return { path: `/api/playlists/${id}`, params: { id }, json: { title: 'Renamed' } };
    },
  },
  'DELETE api/playlists/[id]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const { id } = await f.playlist();
      return { path: `/api/playlists/${id}`, params: { id } };
    },
  },
  'PUT api/playlists/[id]/order/route.ts': {
    access: 'owner',
    build: async (f) => {
      const { id, streamVideoId } = await f.playlist();
      return { path: `/api/playlists/${id}/order`, params: { id }, json: { streamVideoIds: [streamVideoId] } };
    },
  },
  'PUT api/playlists/[id]/videos/[streamVideoId]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const { id } = await f.playlist();
      const streamVideoId = await f.video();
      return { path: `/api/playlists/${id}/videos/${streamVideoId}`, params: { id, streamVideoId } };
    },
  },
  'DELETE api/playlists/[id]/videos/[streamVideoId]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const { id, streamVideoId } = await f.playlist();
      return { path: `/api/playlists/${id}/videos/${streamVideoId}`, params: { id, streamVideoId } };
    },
  },
  'GET api/users/me/watch-later/route.ts': simple('member', '/api/users/me/watch-later'),
  'GET api/users/me/watch-later/ids/route.ts': simple('member', '/api/users/me/watch-later/ids'),
  'PUT api/users/settings/email/route.ts': {
    access: 'member',
    // A wrong current password changes nothing, so the caller's token survives for the next rows.
    build: async () => ({
      path: '/api/users/settings/email',
      json: { newEmail: 'new-address@example.org', currentPassword: 'not-the-password' },
    }),
  },
  'PUT api/users/settings/password/route.ts': {
    access: 'member',
    build: async () => ({
      path: '/api/users/settings/password',
      json: { currentPassword: 'not-the-password', newPassword: 'another-password-2', confirmNewPassword: 'another-password-2' },
    }),
  },
  'GET api/users/settings/two-factor/route.ts': {
    ...simple('member', '/api/users/settings/two-factor'),
    roleFields: ['required', 'adminGap'],
  },
  // A wrong password changes nothing (an admin is told 409: admins keep two-factor on).
  'DELETE api/users/settings/two-factor/route.ts': {
    access: 'member',
    stricterForAdmins: 'admins keep two-factor on',
    build: async () => ({
      path: '/api/users/settings/two-factor',
      json: { currentPassword: 'not-the-password', code: '000000' },
    }),
  },
  // Every two-factor change needs the current password: a wrong one changes nothing, whoever calls.
  'POST api/users/settings/two-factor/setup/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/users/settings/two-factor/setup', json: { currentPassword: 'not-the-password' } }),
  },
  'POST api/users/settings/two-factor/confirm/route.ts': {
    access: 'member',
    build: async () => ({
      path: '/api/users/settings/two-factor/confirm',
      json: { currentPassword: 'not-the-password', code: '000000' },
    }),
  },
  'POST api/users/settings/two-factor/recovery-codes/route.ts': {
    access: 'member',
    build: async () => ({
      path: '/api/users/settings/two-factor/recovery-codes',
      json: { currentPassword: 'not-the-password', code: '000000' },
    }),
  },
  'PUT api/users/settings/photo/route.ts': {
    access: 'member',
    // Not an image: a member is told so (400) and keeps their photo; the row only says who gets that far.
    build: async () => {
      const form = new FormData();
      form.set('profilePhoto', new File(['not an image'], 'me.png', { type: 'image/png' }));
      return { path: '/api/users/settings/photo', form };
    },
  },
  'DELETE api/users/settings/photo/route.ts': simple('member', '/api/users/settings/photo'),
  // A wrong password: the row checks who may ask without deleting the member every other row acts as (deletion.test.ts deletes for real).
  'DELETE api/users/settings/account/route.ts': {
    access: 'member',
    build: async () => ({
      path: '/api/users/settings/account',
      json: { currentPassword: 'not-the-password', username: 'nobody' },
    }),
  },
  'PUT api/users/settings/preferences/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/users/settings/preferences', json: { autoPlayVideos: true } }),
  },
  'PUT api/users/settings/profile/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/users/settings/profile', json: { bio: 'Hello.' } }),
  },
  // The list pages' link-preview pictures: public lists only, for everyone (preview-image.test.ts).
  'GET preview-image/route.ts': simple('public', '/preview-image?list=home'),
  'GET api/videos/route.ts': simple('public', '/api/videos'),
  'GET api/videos/mine/route.ts': simple('member', '/api/videos/mine'),
  'GET api/videos/search/route.ts': simple('public', '/api/videos/search?q=video'),
  'GET api/videos/top/route.ts': simple('public', '/api/videos/top'),
  'POST api/videos/upload/route.ts': {
    access: 'member',
    // No file: the member gets a 400 for the missing video; nothing is stored.
    build: async () => {
      const form = new FormData();
      form.set('title', 'A title');
      form.set('category', 'Sissy');
      return { path: '/api/videos/upload', form };
    },
  },
  'POST api/videos/uploads/[[...id]]/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/videos/uploads', headers: TUS_CREATE }),
  },
  // Ten bytes of the member's unfinished upload; anyone else is told it does not exist (404).
  'PATCH api/videos/uploads/[[...id]]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.resumableUpload();
      return {
        path: `/api/videos/uploads/${id}`,
        params: { id: [id] },
        body: '0123456789',
        headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      };
    },
  },
  'DELETE api/videos/uploads/[[...id]]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const id = await f.resumableUpload();
      return { path: `/api/videos/uploads/${id}`, params: { id: [id] }, headers: { 'tus-resumable': '1.0.0' } };
    },
  },
  'PATCH api/videos/[streamVideoId]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}`, params: { streamVideoId }, json: { title: 'Edited title' } };
    },
  },
  'DELETE api/videos/[streamVideoId]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}`, params: { streamVideoId } };
    },
  },
  'GET api/videos/[streamVideoId]/route.ts': {
    access: 'public',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}`, params: { streamVideoId } };
    },
  },
  'GET api/videos/[streamVideoId]/performers/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/performers`, params: { streamVideoId } };
    },
  },
  'PUT api/videos/[streamVideoId]/performers/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      // A public video: its owner is told the records are locked (409), anyone else is refused.
      const form = new FormData();
      form.set('records', JSON.stringify({ recordedOn: '2026-01-01', uploaderAppears: true, coPerformers: [] }));
      return { path: `/api/videos/${streamVideoId}/performers`, params: { streamVideoId }, form };
    },
  },
  'GET api/videos/[streamVideoId]/comments/route.ts': {
    access: 'public',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/comments`, params: { streamVideoId } };
    },
  },
  'POST api/videos/[streamVideoId]/comments/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/comments`, params: { streamVideoId }, json: { body: 'Nice.' } };
    },
  },
  'GET api/videos/[streamVideoId]/like/route.ts': {
    access: 'public',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/like`, params: { streamVideoId } };
    },
  },
  'POST api/videos/[streamVideoId]/like/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/like`, params: { streamVideoId } };
    },
  },
  'DELETE api/videos/[streamVideoId]/like/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/like`, params: { streamVideoId } };
    },
  },
  'GET api/videos/[streamVideoId]/captions/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/captions`, params: { streamVideoId } };
    },
  },
  'PUT api/videos/[streamVideoId]/captions/[language]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      const form = new FormData();
      form.append('file', new File(['WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n'], 'en.vtt', { type: 'text/vtt' }));
      return { path: `/api/videos/${streamVideoId}/captions/en`, params: { streamVideoId, language: 'en' }, form };
    },
  },
  'DELETE api/videos/[streamVideoId]/captions/[language]/route.ts': {
    access: 'owner',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/captions/en`, params: { streamVideoId, language: 'en' } };
    },
  },
  'GET api/videos/[streamVideoId]/progress/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/progress`, params: { streamVideoId } };
    },
  },
  'PUT api/videos/[streamVideoId]/progress/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/progress`, params: { streamVideoId }, json: { positionSeconds: 3 } };
    },
  },
  'PUT api/videos/[streamVideoId]/watch-later/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/watch-later`, params: { streamVideoId } };
    },
  },
  'DELETE api/videos/[streamVideoId]/watch-later/route.ts': {
    access: 'member',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/watch-later`, params: { streamVideoId } };
    },
  },
  'POST api/videos/[streamVideoId]/view/route.ts': {
    access: 'public',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/api/videos/${streamVideoId}/view`, params: { streamVideoId } };
    },
  },
  'POST api/vip/checkout/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/vip/checkout', json: { plan: 'no-such-plan' } }),
  },
  'GET api/vip/status/route.ts': simple('public', '/api/vip/status'),
  'GET embed/[streamVideoId]/route.ts': {
    access: 'public',
    e2eOnly: true,
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/embed/${streamVideoId}`, params: { streamVideoId } };
    },
  },
  'GET feed.xml/route.ts': simple('public', '/feed.xml'),
  'GET security.txt/route.ts': simple('public', '/security.txt'),
  'GET sitemap-index.xml/route.ts': simple('public', '/sitemap.xml'),
  'GET media/avatars/[file]/route.ts': {
    access: 'public',
    build: async () => ({ path: '/media/avatars/nothing-256.webp', params: { file: 'nothing-256.webp' } }),
  },
  'GET media/videos/[streamVideoId]/[...file]/route.ts': {
    access: 'public',
    build: async (f) => {
      const streamVideoId = await f.video();
      return { path: `/media/videos/${streamVideoId}/thumbnail.jpg`, params: { streamVideoId, file: ['thumbnail.jpg'] } };
    },
  },
  // Ends the caller's other sessions, so it comes last with logout (the callers that write get a fresh token each).
  'DELETE api/users/settings/sessions/route.ts': {
    access: 'member',
    build: async () => ({ path: '/api/users/settings/sessions', json: { which: 'others' } }),
  },
  'POST api/auth/logout/route.ts': simple('public', '/api/auth/logout'),
};

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The caller's own role as every UserDto reports it (the navbar's admin link): shown, never believed. */
const ROLE_FIELDS = ['user.isAdmin'];
/** Fields that are new at random on every call (a two-factor setup's secret and what shows it). */
const RANDOM_FIELDS = new Set(['secret', 'uri', 'qr']);

/** Every string inside a JSON value. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

function expectation(access: Access, actor: ActorName): { status?: number[]; not?: number[] } {
  const signedOut = actor === 'visitor' || actor === 'loggedOut';
  if (access === 'public') return { not: [401, 403] };
  if (access === 'open') return actor === 'banned' ? { status: [403] } : { not: [401, 403] };
  if (signedOut) return { status: [401] };
  if (actor === 'banned') return { status: [403] };
  if (access === 'admin') return actor === 'admin' ? { not: [401, 403] } : { status: [403] };
  if (access === 'vip') return ['admin', 'passwordOnly', 'notEnrolled'].includes(actor) ? { not: [401] } : { status: [403] };
  if (access === 'owner' && actor === 'other') return { status: [403, 404] };
  if (access === 'owner' && actor !== 'member') return { not: [401] };
  return { not: [401, 403] };
}

describe.each(ENGINES)('authorisation matrix on %s', (engine) => {
  let database: TestDatabase;
  const tokens = {} as Record<ActorName, string | undefined>;
  const ids = {} as Record<Exclude<ActorName, 'visitor'>, string>;
  let fixtures: Fixtures;
  let counter = 0;
  let sharedPlaylist: { id: string; streamVideoId: string } | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    const db = database.db;
    for (const name of [
      'member',
      'other',
      'enrolled',
      'admin',
      'demoted',
      'loggedOut',
      'banned',
      'unverified',
      'passwordOnly',
      'notEnrolled',
    ] as const) {
      tokens[name] = await verifiedMemberToken(db, `authz${name.toLowerCase()}`);
      ids[name] = await userId(db, `authz${name.toLowerCase()}`);
    }
    tokens.visitor = undefined;
    for (const id of [ids.admin, ids.demoted, ids.loggedOut]) await promoteToAdmin(db, id);
    // Old tokens, sealed while they were admins: the sessions must be re-sealed with the flag to be a real stale cookie (from a login that passed the second factor, as an admin's is).
    const reseal = async (id: string) => {
      const [user] = await db.select().from(users).where(eq(users.id, id));
      return (await startSession(user as User, undefined, { secondFactor: true })).token;
    };
    tokens.admin = await reseal(ids.admin);
    tokens.demoted = await reseal(ids.demoted);
    tokens.loggedOut = await reseal(ids.loggedOut);
    // Enrolled, but this token's login did not pass the second factor.
    await promoteToAdmin(db, ids.passwordOnly);
    const [passwordOnly] = await db.select().from(users).where(eq(users.id, ids.passwordOnly));
    tokens.passwordOnly = (await startSession(passwordOnly as User)).token;
    // passwordOnly's twin: a plain member with two-factor on, whose token's login did not pass it.
    await db
      .update(users)
      .set({ twoFactorSecret: await sealSecret(TEST_TOTP_SECRET), twoFactorEnabledAt: new Date() })
      .where(eq(users.id, ids.enrolled));
    // The one admin made without promoteToAdmin: the flag alone, no two-factor.
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, ids.notEnrolled));
    await db.update(users).set({ isAdmin: false }).where(eq(users.id, ids.demoted));
    const { POST: logout } = await import('@/app/api/auth/logout/route');
    expect((await call(logout, '/api/auth/logout', { method: 'POST', bearer: tokens.loggedOut })).status).toBe(200);
    await db.update(users).set({ isAdmin: false }).where(eq(users.id, ids.loggedOut));
    await db
      .update(users)
      .set({ bannedAt: new Date(), banReason: 'Spam', tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, ids.banned));
    await db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, ids.unverified));

    fixtures = {
      db,
      memberId: ids.member,
      async bystander() {
        counter += 1;
        const username = `bystander${counter}`;
        const [row] = await db
          .insert(users)
          .values({
            username,
            email: `${username}@example.org`,
            passwordHash: 'x',
            dateOfBirth: '1990-01-01',
            emailVerifiedAt: new Date(),
          })
          .returning({ id: users.id });
        return { id: row!.id, username };
      },
      async video() {
        return (await insertVideo(db, ids.member)).streamVideoId;
      },
      async playlist(visibility = 'private') {
        // One public playlist for every reader, so the twins read the same videos.
        if (visibility === 'public' && sharedPlaylist) return sharedPlaylist;
        const video = await insertVideo(db, ids.admin);
        counter += 1;
        const [row] = await db
          .insert(playlists)
          .values({ publicId: `authzList${String(counter).padStart(3, '0')}`, ownerId: ids.member, title: 'Mine', visibility })
          .returning({ id: playlists.id, publicId: playlists.publicId });
        await db.insert(playlistItems).values({ playlistId: row!.id, videoId: video.id, position: 1 });
        const made = { id: row!.publicId, streamVideoId: video.streamVideoId };
        if (visibility === 'public') sharedPlaylist = made;
        return made;
      },
      async comment() {
        const video = await insertVideo(db, ids.admin);
        const [row] = await db
          .insert(comments)
          .values({ videoId: video.id, authorId: ids.member, body: 'Mine.' })
          .returning({ id: comments.id });
        return row!.id;
      },
      async report() {
        // A bystander's video: an admin does not dismiss reports about their own content (separation of duties).
        const video = await insertVideo(db, (await this.bystander()).id);
        const [row] = await db
          .insert(reports)
          .values({ targetType: 'video', targetId: video.id, reason: 'spam', details: '', reporterKey: `authz-${counter++}` })
          .returning({ id: reports.id });
        return row!.id;
      },
      async notification() {
        const [row] = await db
          .insert(notifications)
          .values({ recipientId: ids.member, type: 'comment', message: 'Hello' })
          .returning({ id: notifications.id });
        return row!.id;
      },
      async task() {
        const { POST } = await import('@/app/api/admin/daily-tasks/route');
        const adminToken = (
          await startSession((await db.select().from(users).where(eq(users.id, ids.admin)))[0] as User, undefined, {
            secondFactor: true,
          })
        ).token;
        const created = await call(POST, '/api/admin/daily-tasks', {
          bearer: adminToken,
          json: { description: `Task ${counter++}` },
        });
        return (created.body.task as { _id: string })._id;
      },
      async dataExport() {
        await db.delete(dataExports).where(eq(dataExports.userId, ids.member));
        const id = crypto.randomUUID();
        const fileKey = `exports/${ids.member}/${id}.zip`;
        mkdirSync(path.join(dataDir, 'media', 'exports', ids.member), { recursive: true });
        writeFileSync(path.join(dataDir, 'media', fileKey), 'PK\u0005\u0006'.padEnd(22, '\u0000'));
        await db.insert(dataExports).values({
          id,
          userId: ids.member,
          status: 'ready',
          fileKey,
          sizeBytes: 22,
          readyAt: new Date(),
          expiresAt: new Date(Date.now() + 86_400_000),
        });
        return id;
      },
      async decision() {
        const [row] = await db
          .insert(moderationDecisions)
          .values({
            subjectUserId: ids.member,
            targetType: 'video',
            targetId: `authz${counter++}`,
            targetLabel: 'A video',
            action: 'video_rejected',
            ground: 'standards-what-you-can-share',
            explanation: 'Not in our categories',
            source: 'moderation',
            decidedBy: ids.admin,
            appealUntil: new Date(Date.now() + 86_400_000),
          })
          .returning({ id: moderationDecisions.id });
        return row!.id;
      },
      async appeal() {
        const decisionId = await this.decision();
        await db
          .update(moderationDecisions)
          .set({ decidedBy: null, automated: true })
          .where(eq(moderationDecisions.id, decisionId));
        const [row] = await db
          .insert(appeals)
          .values({ decisionId, appellantId: ids.member, statement: 'Please look again.' })
          .returning({ id: appeals.id });
        return row!.id;
      },
      async verification() {
        const { id: owner } = await this.bystander();
        const { storePrivateDocument } = await import('@/lib/server/trust/documents');
        const idDocumentId = await storePrivateDocument(db, {
          ownerId: owner,
          purpose: 'verification_id',
          bytes: JPEG,
          field: 'idDocument',
        });
        const selfieDocumentId = await storePrivateDocument(db, {
          ownerId: owner,
          purpose: 'verification_selfie',
          bytes: JPEG,
          field: 'selfie',
        });
        const [row] = await db
          .insert(identityVerifications)
          .values({ userId: owner, legalName: 'Bystander Example', dateOfBirth: '1990-01-01', idDocumentId, selfieDocumentId })
          .returning({ id: identityVerifications.id });
        return { id: row!.id, idDocumentId };
      },
      async resumableUpload() {
        const { POST } = await import('@/app/api/videos/uploads/[[...id]]/route');
        const created = await call(POST, '/api/videos/uploads', {
          method: 'POST',
          bearer: await freshToken('member'),
          headers: TUS_CREATE,
        });
        return created.headers.get('location')!.split('/').pop()!;
      },
    };
  }, 120_000);
  afterAll(() => database.destroy());

  it('has a row for every route handler and method', async () => {
    const declared = new Set(Object.keys(TABLE));
    const found: string[] = [];
    for (const file of routeFiles()) {
      const routeModule = (await import(`@/app/${file}`)) as Record<string, unknown>;
      for (const method of METHODS) if (typeof routeModule[method] === 'function') found.push(`${method} ${file}`);
    }
    expect(found.filter((key) => !declared.has(key))).toEqual([]);
    expect([...declared].filter((key) => !found.includes(key))).toEqual([]);
  });

  it('answers every caller as its access level says, and never with a 5xx', async () => {
    const failures: string[] = [];
    for (const [key, row] of Object.entries(TABLE)) {
      const [method, file] = key.split(' ') as [Method, string];
      const routeModule = (await import(`@/app/${file}`)) as Record<string, Parameters<typeof call>[0]>;
      if (row.e2eOnly) continue;
      const answers = {} as Record<ActorName, { status: number; body: unknown }>;
      for (const actor of ACTORS) {
        // A fresh session for callers whose token the row may end (logout) or change; stale callers keep their old token.
        const bearer =
          ['member', 'other', 'admin', 'unverified'].includes(actor) && method !== 'GET'
            ? await freshToken(actor)
            : tokens[actor];
        const request = await row.build(fixtures);
        let response: Awaited<ReturnType<typeof call>>;
        try {
          response = await call(routeModule[method]!, request.path, {
            method,
            bearer,
            params: request.params,
            json: request.json,
            form: request.form,
            body: request.body,
            headers: request.headers,
            ip: `198.51.100.${ACTORS.indexOf(actor) + 1}`,
          });
        } catch (error) {
          failures.push(`${key} as ${actor}: threw ${String(error).slice(0, 160)}`);
          continue;
        }
        answers[actor] = {
          status: response.status,
          body: await normalised(actor, request, response.body, [
            ...ROLE_FIELDS,
            ...(row.roleFields ?? []),
            ...(row.randomFields ?? []),
          ]),
        };
        const expected = row.everyone ? { status: [row.everyone] } : expectation(row.access, actor);
        const ok =
          (response.status < 500 || row.everyone === response.status) &&
          (expected.status ? expected.status.includes(response.status) : !expected.not!.includes(response.status));
        if (!ok) failures.push(`${key} as ${actor}: ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`);
        if (row.access === 'admin' && response.status === 403 && actor !== 'banned') {
          const message =
            actor === 'passwordOnly'
              ? TWO_FACTOR_LOGIN_MESSAGE
              : actor === 'notEnrolled'
                ? TWO_FACTOR_ENROL_MESSAGE
                : 'Forbidden: Admin access required';
          if (response.body.message !== message) failures.push(`${key} as ${actor}: 403 without the expected message`);
          if (['passwordOnly', 'notEnrolled'].includes(actor) && response.body.twoFactorRequired !== true)
            failures.push(`${key} as ${actor}: 403 without twoFactorRequired`);
        }
      }
      if (row.access === 'admin') continue;
      for (const [actor, twin] of Object.entries(TWINS) as [keyof typeof TWINS, ActorName][]) {
        const [got, wanted] = [JSON.stringify(answers[actor]), JSON.stringify(answers[twin])];
        const stricter = row.stricterForAdmins && answers[actor].status >= 400 && answers[actor].status < 500;
        if (got !== wanted && !stricter)
          failures.push(`${key} as ${actor}: ${got.slice(0, 300)}, but the plain member ${twin} got ${wanted.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  /**
   * A body as the twins compare it: the caller's own id, username and email,
   * the values the request carried (fixture ids, a generated username), the
   * fixtures' bystanders, ids and timestamps are replaced by what they stand
   * for; the role fields and random fields are left out.
   */
  async function normalised(
    actor: ActorName,
    request: Awaited<ReturnType<Row['build']>>,
    body: unknown,
    roleFields: string[],
  ): Promise<unknown> {
    const known = new Map<string, string>();
    const formValues = request.form ? [...request.form.values()].filter((value) => typeof value === 'string') : [];
    for (const value of [...Object.values(request.params ?? {}).flat(), ...stringsIn(request.json), ...formValues])
      known.set(value, '<request>');
    if (actor !== 'visitor') {
      const [user] = await database.db.select().from(users).where(eq(users.id, ids[actor]));
      known.set(user!.id, '<caller id>').set(user!.username, '<caller username>').set(user!.email, '<caller email>');
    }
    // Whole values always; inside longer text only values long enough not to be ordinary words ('video', 'spam').
    const inText = [...known.keys()].filter((value) => value.length >= 8).sort((a, b) => b.length - a.length);
    const text = (value: string) => {
      if (known.has(value)) return known.get(value)!;
      let out = value;
      for (const part of inText) out = out.split(part).join(known.get(part)!);
      return out
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
        .replace(/bystander\d+/g, '<bystander>');
    };
    const walk = (value: unknown, at: string): unknown => {
      if (typeof value === 'string') return text(value);
      if (Array.isArray(value)) return value.map((item) => walk(item, at));
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value)
            .filter(([name]) => !roleFields.includes(at ? `${at}.${name}` : name) && !RANDOM_FIELDS.has(name))
            .map(([name, item]) => [text(name), walk(item, at ? `${at}.${name}` : name)]),
        );
      }
      return value;
    };
    return walk(body, '');
  }

  async function freshToken(actor: ActorName): Promise<string> {
    const id = ids[actor as keyof typeof ids];
    const [user] = await database.db.select().from(users).where(eq(users.id, id));
    // A fresh session stands for a new login, with the code for those who have two-factor on (the admin).
    return (await startSession(user as User, undefined, { secondFactor: true })).token;
  }
});
