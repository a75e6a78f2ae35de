import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, desc, eq } from 'drizzle-orm';

import { PATCH as decideAppealRoute } from '@/app/api/admin/appeals/[id]/route';
import { GET as appealQueue } from '@/app/api/admin/appeals/route';
import { PATCH as decideReport } from '@/app/api/admin/reports/[id]/route';
import { POST as ban } from '@/app/api/admin/users/[id]/ban/route';
import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as appealRoute } from '@/app/api/decisions/[id]/appeal/route';
import { GET as decisionRoute } from '@/app/api/decisions/[id]/route';
import { GET as myDecisions } from '@/app/api/decisions/route';
import { installDatabase } from '@/lib/db';
import {
  adminAuditLog,
  appeals,
  comments,
  jobs,
  moderationDecisions,
  notifications,
  reports,
  users,
  videos,
} from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { APPEAL_RESULT_MESSAGES } from '@/lib/server/trust/appeals';
import { decisionKey } from '@/lib/server/trust/decision-links';
import { DECISION_EMAIL_JOB, DECISION_MESSAGES, sendDecisionEmail } from '@/lib/server/trust/statements';

import { call, ORIGIN, outbox } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-appeals-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Db = TestDatabase['db'];

describe.each(ENGINES)('statements of reasons and appeals on %s', (engine) => {
  let database: TestDatabase;
  let db: Db;
  let creatorToken: string;
  let creatorId: string;
  let otherToken: string;
  let firstAdminToken: string;
  let firstAdminId: string;
  let secondAdminToken: string;
  let counter = 0;

  const decisionsAbout = (subjectUserId: string) =>
    db
      .select()
      .from(moderationDecisions)
      .where(eq(moderationDecisions.subjectUserId, subjectUserId))
      .orderBy(desc(moderationDecisions.createdAt));
  const readDecision = (id: string, options: { bearer?: string; query?: string } = {}) =>
    call(decisionRoute, `/api/decisions/${id}${options.query ?? ''}`, { bearer: options.bearer, params: { id } });
  const appeal = (id: string, json: unknown, bearer?: string) =>
    call(appealRoute, `/api/decisions/${id}/appeal`, { method: 'POST', json, bearer, params: { id } });
  const decide = (id: string, json: unknown, bearer: string) =>
    call(decideAppealRoute, `/api/admin/appeals/${id}`, { method: 'PATCH', json, bearer, params: { id } });

  /** A statement of reasons about the creator, decided by the first admin (a rejected video unless told otherwise). */
  async function decisionFor(fields: Partial<typeof moderationDecisions.$inferInsert> = {}): Promise<string> {
    const [row] = await db
      .insert(moderationDecisions)
      .values({
        subjectUserId: creatorId,
        targetType: 'video',
        targetId: `none${counter++}`,
        targetLabel: 'A video',
        action: 'video_rejected',
        ground: 'standards-what-you-can-share',
        explanation: 'Not in our categories',
        source: 'moderation',
        decidedBy: firstAdminId,
        appealUntil: new Date(Date.now() + 86_400_000),
        ...fields,
      })
      .returning({ id: moderationDecisions.id });
    return row!.id;
  }

  /** A video of the creator's, rejected through the admin API by the first admin; returns the video and its decision's id. */
  async function rejectedVideo(body: Record<string, unknown> = {}) {
    const video = await insertVideo(db, creatorId, { title: `Clip ${counter++}` });
    const response = await call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
      method: 'PATCH',
      json: { action: 'reject', reason: 'Not in our categories', ...body },
      bearer: firstAdminToken,
      params: { streamVideoId: video.streamVideoId },
    });
    expect(response.status).toBe(200);
    const [decision] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.targetId, video.streamVideoId));
    return { video, decisionId: decision!.id };
  }

  async function runEmailJobs() {
    const queued = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, DECISION_EMAIL_JOB), eq(jobs.status, 'queued')));
    for (const job of queued) {
      await sendDecisionEmail(job, heldJobContext());
      await db.delete(jobs).where(eq(jobs.id, job.id));
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    db = database.db;
    resetLimiters();
    creatorToken = await verifiedMemberToken(db, 'creator');
    creatorId = await userId(db, 'creator');
    // A reversed rejection goes public through the approval gate, which needs a verified uploader (decision 014).
    await verifiedUploader(db, creatorId);
    otherToken = await verifiedMemberToken(db, 'other');
    firstAdminToken = await verifiedMemberToken(db, 'firstadmin');
    firstAdminId = await userId(db, 'firstadmin');
    await promoteToAdmin(db, firstAdminId);
    secondAdminToken = await verifiedMemberToken(db, 'secondadmin');
    await promoteToAdmin(db, await userId(db, 'secondadmin'));
  });
  afterAll(() => database.destroy());

  describe('statements recorded with every restriction', () => {
    it('a rejection records its statement with the default ground, and the notification links to it', async () => {
      const { video, decisionId } = await rejectedVideo();
      const [decision] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.id, decisionId));
      expect(decision).toMatchObject({
        subjectUserId: creatorId,
        targetType: 'video',
        targetId: video.streamVideoId,
        targetLabel: video.title,
        action: 'video_rejected',
        ground: 'standards-what-you-can-share',
        explanation: 'Not in our categories',
        automated: false,
        source: 'moderation',
        decidedBy: firstAdminId,
      });
      // Six months to appeal (DSA Art. 20).
      expect(decision!.appealUntil.getTime() - decision!.createdAt.getTime()).toBeGreaterThan(180 * 86_400_000);
      const [notice] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.recipientId, creatorId), eq(notifications.type, 'video_rejected')))
        .orderBy(desc(notifications.createdAt))
        .limit(1);
      expect(notice!.link).toBe(`/decisions/${decisionId}`);
    });

    it('a rejection names the ground the admin picked; an unknown ground is a 400 and nothing is stored', async () => {
      const { decisionId } = await rejectedVideo({ ground: 'law-copyright-dmca' });
      const [decision] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.id, decisionId));
      expect(decision!.ground).toBe('law-copyright-dmca');

      const video = await insertVideo(db, creatorId);
      const response = await call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
        method: 'PATCH',
        json: { action: 'reject', reason: 'x', ground: 'because-i-said-so' },
        bearer: firstAdminToken,
        params: { streamVideoId: video.streamVideoId },
      });
      expect(response.status).toBe(400);
      expect(response.body.field).toBe('ground');
      expect(
        await db.select().from(moderationDecisions).where(eq(moderationDecisions.targetId, video.streamVideoId)),
      ).toHaveLength(0);
      const [unchanged] = await db.select().from(videos).where(eq(videos.id, video.id));
      expect(unchanged!.moderationStatus).toBe('approved');
    });

    it('removing a reported video, comment or profile records video_removed, comment_removed and account_banned with the ground of the reason', async () => {
      const video = await insertVideo(db, creatorId, { title: 'Reported video' });
      const host = await insertVideo(db, firstAdminId, { title: 'Host video' });
      const [comment] = await db
        .insert(comments)
        .values({ videoId: host.id, authorId: creatorId, body: 'Rude </script > words\nhere' })
        .returning();
      const fileReport = async (
        targetType: 'video' | 'comment' | 'profile',
        targetId: string,
        reason: 'copyright' | 'harassment' | 'spam',
      ) => {
        const [row] = await db
          .insert(reports)
          .values({ targetType, targetId, reason, details: '', reporterKey: `k${counter++}` })
          .returning({ id: reports.id });
        const response = await call(decideReport, `/api/admin/reports/${row!.id}`, {
          method: 'PATCH',
          json: { action: 'remove', note: 'Checked' },
          bearer: firstAdminToken,
          params: { id: row!.id },
        });
        expect(response.status).toBe(200);
      };
      await fileReport('video', video.id, 'copyright');
      await fileReport('comment', comment!.id, 'harassment');
      const bannedName = `banned${counter++}`;
      const memberToken = await verifiedMemberToken(db, bannedName);
      const memberId = await userId(db, bannedName);
      await fileReport('profile', memberId, 'spam');

      const [removed] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.targetId, video.streamVideoId));
      expect(removed).toMatchObject({
        action: 'video_removed',
        ground: 'law-copyright-dmca',
        source: 'report',
        subjectUserId: creatorId,
        decidedBy: firstAdminId,
      });
      expect(removed!.explanation).toContain('Checked');
      const [commentDecision] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.targetId, comment!.id));
      expect(commentDecision).toMatchObject({
        action: 'comment_removed',
        ground: 'standards-behaviour',
        source: 'report',
        subjectUserId: creatorId,
        targetType: 'comment',
      });
      expect(commentDecision!.targetLabel).toContain('Host video');
      const [commentNotice] = await db
        .select()
        .from(notifications)
        .where(eq(notifications.link, `/decisions/${commentDecision!.id}`));
      expect(commentNotice).toMatchObject({ recipientId: creatorId, type: 'site_notice' });
      const [banDecision] = await decisionsAbout(memberId);
      expect(banDecision).toMatchObject({
        action: 'account_banned',
        ground: 'standards-what-you-can-share',
        targetType: 'account',
        targetId: memberId,
      });

      // The banned member cannot log in, so the statement goes by email with a link that opens it.
      await runEmailJobs();
      const mail = outbox(dataDir).find(
        (m) => m.to.includes(`${bannedName}@example.org`) && m.raw.replace(/=\r?\n/g, '').includes(banDecision!.id),
      );
      expect(mail).toBeDefined();
      const unfolded = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = new RegExp(
        `${ORIGIN}/decisions/${banDecision!.id}\\?e=(\\d+)&amp;k=([A-Za-z0-9_-]+)|${ORIGIN}/decisions/${banDecision!.id}\\?e=(\\d+)&k=([A-Za-z0-9_-]+)`,
      ).exec(unfolded);
      expect(link).not.toBeNull();
      const e = link![1] ?? link![3];
      const k = link![2] ?? link![4];
      expect((await readDecision(banDecision!.id, { bearer: memberToken })).status).toBe(403);
      const viaLink = await readDecision(banDecision!.id, { query: `?e=${e}&k=${k}` });
      expect(viaLink.status).toBe(200);
      expect(viaLink.body).toMatchObject({ reader: 'link', decision: { action: 'account_banned' } });
    });

    it('a ban from the member page records account_banned with the default or the chosen ground, and queues the email', async () => {
      await verifiedMemberToken(db, `ban${counter}`);
      const id = await userId(db, `ban${counter}`);
      const response = await call(ban, `/api/admin/users/${id}/ban`, {
        method: 'POST',
        json: { reason: 'Threats in comments' },
        bearer: firstAdminToken,
        params: { id },
      });
      expect(response.status).toBe(200);
      const [decision] = await decisionsAbout(id);
      expect(decision).toMatchObject({
        action: 'account_banned',
        ground: 'standards-behaviour',
        explanation: 'Threats in comments',
        source: 'moderation',
        decidedBy: firstAdminId,
      });
      const queued = await db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `${DECISION_EMAIL_JOB}:statement:${decision!.id}`));
      expect(queued).toHaveLength(1);

      counter += 1;
      await verifiedMemberToken(db, `ban${counter}`);
      const second = await userId(db, `ban${counter}`);
      await call(ban, `/api/admin/users/${second}/ban`, {
        method: 'POST',
        json: { reason: 'Underage content', ground: 'law-child-protection' },
        bearer: firstAdminToken,
        params: { id: second },
      });
      expect((await decisionsAbout(second))[0]!.ground).toBe('law-child-protection');
      await runEmailJobs();
    });
  });

  describe('who can read a statement', () => {
    it('its member and admins read it; another member gets 404; a visitor must log in; a bad id is a 400', async () => {
      const id = await decisionFor();
      const own = await readDecision(id, { bearer: creatorToken });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({
        reader: 'subject',
        decision: {
          _id: id,
          action: 'video_rejected',
          actionLabel: 'Your video was not approved',
          groundInfo: { kind: 'standards', href: '/community-standards#what-you-can-share' },
          automated: false,
          appealRefusal: null,
          appeal: null,
        },
      });
      expect((await readDecision(id, { bearer: firstAdminToken })).body.reader).toBe('admin');
      const other = await readDecision(id, { bearer: otherToken });
      expect(other.status).toBe(404);
      expect(other.body.message).toBe(DECISION_MESSAGES.notFound);
      expect((await readDecision(id)).status).toBe(401);
      expect((await readDecision(crypto.randomUUID(), { bearer: creatorToken })).status).toBe(404);
      expect((await readDecision('not-a-uuid', { bearer: creatorToken })).status).toBe(400);
    });

    it('a signed link opens only its decision, only for its member, only until its date', async () => {
      const id = await decisionFor();
      const otherId = await decisionFor();
      const key = decisionKey(id, creatorId, new Date(Date.now() + 3_600_000));
      expect((await readDecision(id, { query: `?e=${key.e}&k=${key.k}` })).status).toBe(200);
      // Someone else's decision with this key, an altered expiry, a forged signature, a key for another member: all 404.
      expect((await readDecision(otherId, { query: `?e=${key.e}&k=${key.k}` })).status).toBe(404);
      expect((await readDecision(id, { query: `?e=${Number(key.e) + 1}&k=${key.k}` })).status).toBe(404);
      expect((await readDecision(id, { query: `?e=${key.e}&k=${'A'.repeat(43)}` })).status).toBe(404);
      const forOther = decisionKey(id, await userId(db, 'other'), new Date(Date.now() + 3_600_000));
      expect((await readDecision(id, { query: `?e=${forOther.e}&k=${forOther.k}` })).status).toBe(404);
      expect((await readDecision(id, { query: '?e=123&k=<script>' })).status).toBe(400);
      const expired = decisionKey(id, creatorId, new Date(Date.now() - 1000));
      const late = await readDecision(id, { query: `?e=${expired.e}&k=${expired.k}` });
      expect(late.status).toBe(410);
      expect(late.body.message).toBe(DECISION_MESSAGES.linkExpired);
    });

    it('lists the member’s own decisions, newest first, and nobody else’s', async () => {
      const mine = await call(myDecisions, '/api/decisions', { bearer: creatorToken });
      expect(mine.status).toBe(200);
      const list = mine.body.decisions as { _id: string }[];
      expect(list.length).toBeGreaterThan(0);
      const rows = await decisionsAbout(creatorId);
      expect(list.map((d) => d._id)).toEqual(rows.slice(0, 25).map((row) => row.id));
      const theirs = await call(myDecisions, '/api/decisions', { bearer: otherToken });
      expect((theirs.body.decisions as { _id: string }[]).some((d) => rows.some((row) => row.id === d._id))).toBe(false);
      expect((await call(myDecisions, '/api/decisions')).status).toBe(401);
    });
  });

  describe('appealing', () => {
    it.each([
      ['an empty statement', { statement: '' }, 'Tell us why you think this decision is wrong.'],
      ['only spaces and line breaks', { statement: '  \n\t ' }, 'Tell us why you think this decision is wrong.'],
      ['only control characters', { statement: '\u0000\u0007\u001b' }, 'Tell us why you think this decision is wrong.'],
      ['no statement', {}, 'Tell us why you think this decision is wrong.'],
      ['a statement that is not text', { statement: 42 }, 'Tell us why you think this decision is wrong.'],
      ['3001 characters', { statement: 'x'.repeat(3001) }, 'Your appeal must be at most 3000 characters.'],
    ])('refuses %s with a 400 and stores nothing', async (_name, body, message) => {
      const id = await decisionFor();
      const response = await appeal(id, body, creatorToken);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message, field: 'statement' });
      expect(await db.select().from(appeals).where(eq(appeals.decisionId, id))).toHaveLength(0);
    });

    it('stores a statement as typed: markup, 2,000 emoji, NUL bytes dropped', async () => {
      const id = await decisionFor();
      const statement = `It was mine </script ><b>really</b>\u0000 ${'🏳️‍⚧'.slice(0, 2).repeat(2000)}`;
      const response = await appeal(id, { statement }, creatorToken);
      expect(response.status).toBe(201);
      expect(response.body.message).toBe(APPEAL_RESULT_MESSAGES.received);
      const [row] = await db.select().from(appeals).where(eq(appeals.decisionId, id));
      expect(row!.statement.startsWith('It was mine </script ><b>really</b> ')).toBe(true);
      expect(row!.statement).not.toContain('\u0000');
      expect(row).toMatchObject({ status: 'open', appellantId: creatorId });
    });

    it('takes one appeal per decision, refuses one after the deadline or of an appeal’s outcome, and only from its member', async () => {
      const id = await decisionFor();
      expect((await appeal(id, { statement: 'Please look again.' }, creatorToken)).status).toBe(201);
      const again = await appeal(id, { statement: 'And again.' }, creatorToken);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(DECISION_MESSAGES.alreadyAppealed);
      expect(await db.select().from(appeals).where(eq(appeals.decisionId, id))).toHaveLength(1);

      const late = await decisionFor({ appealUntil: new Date(Date.now() - 1000) });
      const lateAnswer = await appeal(late, { statement: 'Late.' }, creatorToken);
      expect(lateAnswer.status).toBe(409);
      expect(lateAnswer.body.message).toMatch(/^The time to appeal this decision ended on \d{1,2} \w+ \d{4}\.$/);

      const outcome = await decisionFor({ source: 'appeal', action: 'video_restored' });
      const ofAppeal = await appeal(outcome, { statement: 'Again.' }, creatorToken);
      expect(ofAppeal.status).toBe(409);
      expect(ofAppeal.body.message).toBe(DECISION_MESSAGES.appealOfAppeal);

      const fresh = await decisionFor();
      expect((await appeal(fresh, { statement: 'Not mine.' }, otherToken)).status).toBe(404);
      const byAdmin = await appeal(fresh, { statement: 'On their behalf.' }, secondAdminToken);
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body.message).toBe(APPEAL_RESULT_MESSAGES.onlySubject);
      expect((await appeal(fresh, { statement: 'Who am I?' })).status).toBe(401);
      expect(await db.select().from(appeals).where(eq(appeals.decisionId, fresh))).toHaveLength(0);
    });

    it('lets a banned member appeal through the signed link, not through a forged one', async () => {
      const id = await decisionFor({ action: 'account_banned', targetType: 'account', targetId: creatorId });
      const key = decisionKey(id, creatorId, new Date(Date.now() + 3_600_000));
      const forged = await appeal(id, {
        statement: 'Let me back.',
        e: key.e,
        k: key.k.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      });
      expect(forged.status).toBe(404);
      const expired = decisionKey(id, creatorId, new Date(Date.now() - 1000));
      expect((await appeal(id, { statement: 'Let me back.', ...expired })).status).toBe(410);
      expect((await appeal(id, { statement: 'Let me back.', ...key })).status).toBe(201);
    });

    it('refuses an appeal of a decided appeal', async () => {
      const { decisionId } = await rejectedVideo();
      await appeal(decisionId, { statement: 'Please.' }, creatorToken);
      const [row] = await db.select().from(appeals).where(eq(appeals.decisionId, decisionId));
      expect((await decide(row!.id, { outcome: 'uphold', note: 'It is off-topic.' }, secondAdminToken)).status).toBe(200);
      const again = await appeal(decisionId, { statement: 'Please, again.' }, creatorToken);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(DECISION_MESSAGES.appealDecided);
    });
  });

  describe('deciding', () => {
    async function openAppeal(fields: Partial<typeof moderationDecisions.$inferInsert> = {}) {
      const id = await decisionFor(fields);
      const response = await appeal(id, { statement: 'This follows the rules.' }, creatorToken);
      expect(response.status).toBe(201);
      return { decisionId: id, appealId: (response.body.appeal as { _id: string })._id };
    }

    it('refuses the admin who made the decision (403), and bad outcomes or notes (400)', async () => {
      const { appealId } = await openAppeal();
      const same = await decide(appealId, { outcome: 'reverse', note: 'I was wrong.' }, firstAdminToken);
      expect(same.status).toBe(403);
      expect(same.body.message).toBe(APPEAL_RESULT_MESSAGES.sameAdmin);
      expect((await decide(appealId, { outcome: 'maybe', note: 'x' }, secondAdminToken)).body.field).toBe('outcome');
      expect((await decide(appealId, { outcome: 'uphold', note: ' ' }, secondAdminToken)).body).toMatchObject({
        field: 'note',
        message: 'Write a note for the member: why the decision stands or why it was wrong.',
      });
      expect((await decide(appealId, { outcome: 'uphold', note: 'x'.repeat(1001) }, secondAdminToken)).status).toBe(400);
      expect((await decide(crypto.randomUUID(), { outcome: 'uphold', note: 'x' }, secondAdminToken)).status).toBe(404);
      expect((await decide(appealId, { outcome: 'uphold', note: 'x' }, creatorToken)).status).toBe(403);
      const [row] = await db.select().from(appeals).where(eq(appeals.id, appealId));
      expect(row!.status).toBe('open');
    });

    it('upholds: the member is told in the app and by email, and the audit log has it; deciding twice is a 409', async () => {
      const { decisionId, appealId } = await openAppeal();
      const response = await decide(appealId, { outcome: 'uphold', note: 'The video is off-topic.' }, secondAdminToken);
      expect(response.status).toBe(200);
      expect(response.body.appeal).toBe('upheld');
      const [row] = await db.select().from(appeals).where(eq(appeals.id, appealId));
      expect(row).toMatchObject({ status: 'upheld', outcomeNote: 'The video is off-topic.' });
      const [notice] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.link, `/decisions/${decisionId}`), eq(notifications.type, 'site_notice')));
      expect(notice!.recipientId).toBe(creatorId);
      expect(notice!.message).toContain('the decision stands');
      const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, appealId));
      expect(entry).toMatchObject({ action: 'appeal.uphold', adminUsername: 'secondadmin', targetType: 'appeal' });
      await runEmailJobs();
      const mail = outbox(dataDir).filter(
        (m) => m.to.includes('creator@example.org') && m.subject.includes('outcome of your appeal'),
      );
      expect(mail.length).toBeGreaterThan(0);
      const again = await decide(appealId, { outcome: 'reverse', note: 'Changed my mind.' }, secondAdminToken);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('This appeal was already decided (upheld).');
      // The member sees the outcome on the statement.
      const seen = await readDecision(decisionId, { bearer: creatorToken });
      expect(seen.body.decision).toMatchObject({
        appeal: { status: 'upheld', outcomeNote: 'The video is off-topic.' },
        appealRefusal: DECISION_MESSAGES.appealDecided,
      });
    });

    it('reverses a rejection: the video is public again; the queue lists it under reversed', async () => {
      const { video, decisionId } = await rejectedVideo();
      const filed = await appeal(decisionId, { statement: 'It is in the Sissy category.' }, creatorToken);
      const appealId = (filed.body.appeal as { _id: string })._id;
      const queue = await call(appealQueue, '/api/admin/appeals', { bearer: secondAdminToken });
      const listed = (queue.body.appeals as { _id: string; mayDecide: boolean }[]).find((a) => a._id === appealId);
      expect(listed!.mayDecide).toBe(true);
      const asFirst = await call(appealQueue, '/api/admin/appeals', { bearer: firstAdminToken });
      expect((asFirst.body.appeals as { _id: string; mayDecide: boolean }[]).find((a) => a._id === appealId)!.mayDecide).toBe(
        false,
      );

      const response = await decide(appealId, { outcome: 'reverse', note: 'It fits the category.' }, secondAdminToken);
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('Decision reversed. Your video is public again.');
      const [after] = await db.select().from(videos).where(eq(videos.id, video.id));
      expect(after).toMatchObject({ moderationStatus: 'approved', rejectionReason: null });
      const reversed = await call(appealQueue, '/api/admin/appeals?status=reversed', { bearer: secondAdminToken });
      expect((reversed.body.appeals as { _id: string }[]).map((a) => a._id)).toContain(appealId);
      expect((reversed.body.counts as Record<string, number>).reversed).toBeGreaterThan(0);
      const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, appealId));
      expect(entry!.action).toBe('appeal.reverse');
    });

    it('keeps the appeal open and says why when the video cannot be approved', async () => {
      const { video, decisionId } = await rejectedVideo();
      await db.update(videos).set({ processingState: 'failed' }).where(eq(videos.id, video.id));
      const filed = await appeal(decisionId, { statement: 'Please.' }, creatorToken);
      const appealId = (filed.body.appeal as { _id: string })._id;
      const response = await decide(appealId, { outcome: 'reverse', note: 'Fine.' }, secondAdminToken);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe(APPEAL_RESULT_MESSAGES.videoProcessingFailed);
      const [row] = await db.select().from(appeals).where(eq(appeals.id, appealId));
      expect(row!.status).toBe('open');
      expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, appealId))).toHaveLength(0);
    });

    it('reverses a ban through the unban path: the member can log in again', async () => {
      const name = `appellant${counter++}`;
      await verifiedMemberToken(db, name);
      const id = await userId(db, name);
      await call(ban, `/api/admin/users/${id}/ban`, {
        method: 'POST',
        json: { reason: 'Spam' },
        bearer: firstAdminToken,
        params: { id },
      });
      const [decision] = await decisionsAbout(id);
      const key = decisionKey(decision!.id, id, new Date(Date.now() + 3_600_000));
      const filed = await appeal(decision!.id, { statement: 'That was not spam.', ...key });
      expect(filed.status).toBe(201);
      const response = await decide(
        (filed.body.appeal as { _id: string })._id,
        { outcome: 'reverse', note: 'Not spam.' },
        secondAdminToken,
      );
      expect(response.status).toBe(200);
      expect(response.body.message).toBe('Decision reversed. The ban is lifted: you can log in again.');
      const [user] = await db.select().from(users).where(eq(users.id, id));
      expect(user!.bannedAt).toBeNull();
      const relogin = await call(login, '/api/auth/login', {
        json: { email: `${name}@example.org`, password: `${name}-password-1` },
        ip: '198.18.9.10',
      });
      expect(relogin.status).toBe(200);
    });

    it('reversing a removed comment says it cannot come back; an automated decision can be decided by any admin', async () => {
      const { appealId } = await openAppeal({ action: 'comment_removed', targetType: 'comment', targetId: crypto.randomUUID() });
      const response = await decide(appealId, { outcome: 'reverse', note: 'It was fine.' }, secondAdminToken);
      expect(response.status).toBe(200);
      expect(response.body.message).toContain('cannot be restored');

      const automated = await openAppeal({ automated: true, decidedBy: null, action: 'video_hidden', source: 'notice' });
      expect((await decide(automated.appealId, { outcome: 'uphold', note: 'The notice stands.' }, firstAdminToken)).status).toBe(
        200,
      );
    });
  });
});
