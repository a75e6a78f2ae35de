/**
 * Replies (one level) and comment reports, on both engines: the nesting rule,
 * another video's comment or a deleted one as parent, blocks, pagination,
 * counts computed when read, one notification to the parent's author, the
 * cascade when a parent goes; and reporting a comment (not one's own) with
 * the one shared list of reasons.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, inArray } from 'drizzle-orm';

import { GET as adminReportsRoute } from '@/app/api/admin/reports/route';
import { DELETE as deleteRoute, GET as threadRoute, PATCH as editRoute } from '@/app/api/comments/[id]/route';
import { GET as repliesRoute } from '@/app/api/comments/[id]/replies/route';
import { POST as reportRoute } from '@/app/api/reports/route';
import { GET as listRoute, POST as postRoute } from '@/app/api/videos/[streamVideoId]/comments/route';
import type { AdminReportDto, CommentDto, CommentPageDto, CommentThreadDto, ReplyPageDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import {
  blocks,
  comments,
  notifications,
  rateLimits,
  reports,
  REPORT_REASONS as DB_REASONS,
  users,
  videos,
  type Video,
} from '@/lib/db/schema';
import { REPORT_REASON_LABELS, REPORT_REASONS } from '@/lib/report-reasons';
import { resetLimiters } from '@/lib/server/rate-limit';
import { REPORT_REASONS as SCHEMA_REASONS, reportSchema } from '@/lib/validation/community';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-replies-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const GONE = 'This comment no longer exists.';

describe.each(ENGINES)('comment replies and comment reports on %s', (engine) => {
  let database: TestDatabase;
  const tokens: Record<'owner' | 'alice' | 'bob' | 'carol' | 'admin', string> = {
    owner: '',
    alice: '',
    bob: '',
    carol: '',
    admin: '',
  };
  const ids: Record<keyof typeof tokens, string> = { owner: '', alice: '', bob: '', carol: '', admin: '' };
  let video: Video;
  let address = 0;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    for (const name of Object.keys(tokens) as (keyof typeof tokens)[]) {
      tokens[name] = await verifiedMemberToken(database.db, name === 'owner' ? 'creator' : name);
      ids[name] = await userId(database.db, name === 'owner' ? 'creator' : name);
    }
    await promoteToAdmin(database.db, ids.admin);
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(videos);
    await database.db.delete(notifications);
    await database.db.delete(blocks);
    await database.db.delete(reports);
    await database.db.delete(rateLimits);
    await database.db.update(users).set({ bannedAt: null });
    video = await insertVideo(database.db, ids.owner, { title: 'Threads' });
  });

  const post = (token: string | undefined, json: Record<string, unknown>, streamVideoId = video.streamVideoId) =>
    call(postRoute, `/api/videos/${streamVideoId}/comments`, { method: 'POST', json, bearer: token, params: { streamVideoId } });
  const posted = async (token: string, body: string, parentId?: string) => {
    const response = await post(token, parentId ? { body, parentId } : { body });
    expect(response.status).toBe(201);
    return response.body.comment as CommentDto;
  };
  const list = async (token?: string) =>
    (
      await call(listRoute, `/api/videos/${video.streamVideoId}/comments`, {
        bearer: token,
        params: { streamVideoId: video.streamVideoId },
      })
    ).body as unknown as CommentPageDto;
  const replies = (id: string, query = '', token?: string) =>
    call(repliesRoute, `/api/comments/${id}/replies${query}`, { bearer: token, params: { id } });
  const thread = (id: string, token?: string) => call(threadRoute, `/api/comments/${id}`, { bearer: token, params: { id } });
  const remove = (token: string, id: string) =>
    call(deleteRoute, `/api/comments/${id}`, { method: 'DELETE', bearer: token, params: { id } });
  const edit = (token: string, id: string, body: string) =>
    call(editRoute, `/api/comments/${id}`, { method: 'PATCH', json: { body }, bearer: token, params: { id } });
  const report = (token: string | undefined, json: Record<string, unknown>) =>
    call(reportRoute, '/api/reports', { method: 'POST', json, bearer: token, ip: `198.51.100.${(address += 1) % 250}` });
  const notificationsOf = (who: string) => database.db.select().from(notifications).where(eq(notifications.recipientId, who));

  describe('replies', () => {
    it('attaches a reply to its top-level comment, counts it on the parent, and leaves the top-level list and its total alone', async () => {
      const parent = await posted(tokens.alice, 'Top');
      await posted(tokens.bob, 'Another top');
      const reply = await posted(tokens.bob, 'A reply', parent._id);
      expect(reply).toMatchObject({ parentId: parent._id, replyCount: 0, body: 'A reply', author: { username: 'bob' } });

      const page = await list();
      expect(page.total).toBe(2);
      expect(page.comments.map((comment) => [comment.body, comment.replyCount, comment.parentId])).toEqual([
        ['Another top', 0, null],
        ['Top', 1, null],
      ]);
    });

    it('joins a reply to a reply to the same top-level parent (one level), with its @mention kept as text', async () => {
      const parent = await posted(tokens.alice, 'Top');
      const first = await posted(tokens.bob, 'First reply', parent._id);
      const second = await posted(tokens.carol, '@bob agreed', first._id);
      expect(second.parentId).toBe(parent._id);
      const [row] = await database.db.select().from(comments).where(eq(comments.id, second._id));
      expect(row!.parentId).toBe(parent._id);
      const answer = (await replies(parent._id)).body as unknown as ReplyPageDto;
      expect(answer.replies.map((reply) => reply.body)).toEqual(['First reply', '@bob agreed']);
      expect((await list()).comments[0]!.replyCount).toBe(2);
      // A reply has no replies of its own.
      expect(((await replies(first._id)).body as unknown as ReplyPageDto).total).toBe(0);
    });

    it("refuses another video's comment, a deleted one and a malformed id as parent, and spends no budget on them", async () => {
      const elsewhere = await insertVideo(database.db, ids.bob, { title: 'Elsewhere' });
      const [foreign] = await database.db
        .insert(comments)
        .values({ videoId: elsewhere.id, authorId: ids.bob, body: 'There' })
        .returning();
      const otherVideo = await post(tokens.alice, { body: 'Here', parentId: foreign!.id });
      expect(otherVideo.status).toBe(400);
      expect(otherVideo.body).toMatchObject({ message: 'You can only reply to a comment on the same video.', field: 'parentId' });

      const doomed = await posted(tokens.bob, 'Soon gone');
      expect((await remove(tokens.bob, doomed._id)).status).toBe(200);
      const deleted = await post(tokens.alice, { body: 'Too late', parentId: doomed._id });
      expect(deleted.status).toBe(404);
      expect(deleted.body.message).toBe(GONE);
      expect((await post(tokens.alice, { body: 'Nobody', parentId: crypto.randomUUID() })).body.message).toBe(GONE);

      for (const parentId of ['nope', "1' OR '1'='1", 42, '</script >\u0000']) {
        const bad = await post(tokens.alice, { body: 'x', parentId });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toBe('The comment you reply to is not valid.');
      }
      // A reply to a banned member's comment: it is hidden, so it no longer exists for anyone.
      const hidden = await posted(tokens.carol, 'Carol here');
      await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, ids.carol));
      expect((await post(tokens.alice, { body: 'Hi', parentId: hidden._id })).body.message).toBe(GONE);

      expect(await database.db.select().from(comments).where(eq(comments.authorId, ids.alice))).toHaveLength(0);
      // None of the refusals counted against the five-a-minute limit.
      for (let i = 0; i < 5; i += 1) await posted(tokens.alice, `ok ${i}`);
    });

    it('applies blocks: the video owner’s to any reply there, the parent author’s to replies to them; replies of blocked members are hidden from the blocker', async () => {
      const parent = await posted(tokens.alice, 'Top');
      await database.db.insert(blocks).values({ blockerId: ids.owner, blockedId: ids.carol });
      const byBlocked = await post(tokens.carol, { body: 'Hi', parentId: parent._id });
      expect(byBlocked.status).toBe(403);
      expect(byBlocked.body.message).toBe('You cannot comment on this video.');

      await database.db.insert(blocks).values({ blockerId: ids.alice, blockedId: ids.bob });
      const refused = await post(tokens.bob, { body: 'Listen', parentId: parent._id });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('You cannot reply to this comment.');
      expect(await notificationsOf(ids.alice)).toHaveLength(0);

      // Bob's reply from before the block: Alice no longer sees it, nor counts it; others do.
      await database.db.delete(blocks).where(eq(blocks.blockerId, ids.alice));
      await posted(tokens.bob, 'Before the block', parent._id);
      await database.db.insert(blocks).values({ blockerId: ids.alice, blockedId: ids.bob });
      expect(((await replies(parent._id, '', tokens.alice)).body as unknown as ReplyPageDto).total).toBe(0);
      expect((await list(tokens.alice)).comments[0]!.replyCount).toBe(0);
      expect(((await replies(parent._id)).body as unknown as ReplyPageDto).total).toBe(1);
      expect((await list(tokens.owner)).comments[0]!.replyCount).toBe(1);
    });

    it('pages replies oldest first, ten at a time, without gaps or repeats', async () => {
      const parent = await posted(tokens.alice, 'Popular');
      const base = Date.now() - 3_600_000;
      await database.db.insert(comments).values(
        Array.from({ length: 23 }, (_, i) => ({
          videoId: video.id,
          authorId: i % 2 ? ids.bob : ids.carol,
          parentId: parent._id,
          body: `reply ${String(i).padStart(2, '0')}`,
          createdAt: new Date(base + i * 1000),
        })),
      );
      const seen: string[] = [];
      for (const page of [1, 2, 3]) {
        const response = await replies(parent._id, `?page=${page}`);
        expect(response.status).toBe(200);
        const answer = response.body as unknown as ReplyPageDto;
        expect(answer.total).toBe(23);
        expect(answer.pagination).toEqual({ page, limit: 10, hasMore: page < 3 });
        seen.push(...answer.replies.map((reply) => reply.body));
      }
      expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => `reply ${String(i).padStart(2, '0')}`));
      expect((await list()).comments[0]!.replyCount).toBe(23);
      // Only top-level comments page in the list.
      expect((await list()).total).toBe(1);

      for (const query of ['?page=0', '?page=abc', '?page=10001']) expect((await replies(parent._id, query)).status).toBe(400);
      expect((await replies('not-an-id')).status).toBe(400);
      expect((await replies(crypto.randomUUID())).status).toBe(404);
    });

    it('notifies the parent’s author once, with a link to the reply, never themselves, and not the video owner', async () => {
      const parent = await posted(tokens.alice, 'Top');
      await database.db.delete(notifications);
      const reply = await posted(tokens.bob, 'Reply to Alice', parent._id);
      const told = await notificationsOf(ids.alice);
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({
        type: 'comment',
        senderId: ids.bob,
        link: `/video/${video.streamVideoId}#comment-${reply._id}`,
        message: 'bob replied to your comment',
        dedupeKey: `comment:${reply._id}`,
      });
      expect(await notificationsOf(ids.owner)).toHaveLength(0);

      await posted(tokens.alice, 'Replying in my own thread', parent._id);
      expect(await notificationsOf(ids.alice)).toHaveLength(1);

      // The video owner replying to a comment on their video: one notification for its author.
      await posted(tokens.owner, 'Thanks', parent._id);
      expect(await notificationsOf(ids.alice)).toHaveLength(2);
      expect(await database.db.select().from(notifications)).toHaveLength(2);
    });

    it('edits and deletes replies as comments: the author edits, the author, the owner and admins delete, with its notification', async () => {
      const parent = await posted(tokens.alice, 'Top');
      const reply = await posted(tokens.bob, 'Typo', parent._id);
      expect((await edit(tokens.carol, reply._id, 'Mine now')).status).toBe(403);
      const edited = await edit(tokens.bob, reply._id, 'Fixed');
      expect(edited.status).toBe(200);
      expect(edited.body.comment).toMatchObject({ body: 'Fixed', parentId: parent._id, editedAt: expect.any(String) });
      expect((await remove(tokens.carol, reply._id)).status).toBe(403);
      expect((await remove(tokens.owner, reply._id)).status).toBe(200);
      expect(await notificationsOf(ids.alice)).toHaveLength(0);
      expect((await list()).comments[0]!.replyCount).toBe(0);
      // Editing the parent keeps its reply count in the answer.
      await posted(tokens.carol, 'Still here', parent._id);
      expect((await edit(tokens.alice, parent._id, 'Top, edited')).body.comment).toMatchObject({ replyCount: 1 });
    });

    it('deletes a parent’s replies and their notifications with it (cascade), and counts stay exact when rows go elsewhere', async () => {
      const parent = await posted(tokens.alice, 'Top');
      const kept = await posted(tokens.carol, 'Another top');
      const first = await posted(tokens.bob, 'One', parent._id);
      const two = await posted(tokens.carol, 'Two', parent._id);
      await posted(tokens.bob, 'Other thread', kept._id);
      expect(await notificationsOf(ids.alice)).toHaveLength(2);

      // Another engineer's account deletion deletes comment rows directly: the counts follow at once.
      await database.db.delete(notifications).where(eq(notifications.dedupeKey, `comment:${first._id}`));
      await database.db.delete(comments).where(eq(comments.id, first._id));
      expect((await list()).comments.find((comment) => comment._id === parent._id)!.replyCount).toBe(1);

      expect((await remove(tokens.alice, parent._id)).status).toBe(200);
      expect(await database.db.select().from(comments).where(eq(comments.parentId, parent._id))).toHaveLength(0);
      expect(await notificationsOf(ids.alice)).toHaveLength(0);
      expect(
        await database.db
          .select()
          .from(notifications)
          .where(eq(notifications.dedupeKey, `comment:${two._id}`)),
      ).toHaveLength(0);
      expect(
        (await database.db.select().from(comments).where(eq(comments.videoId, video.id))).map((row) => row.body).sort(),
      ).toEqual(['Another top', 'Other thread']);
      expect((await list()).comments.map((comment) => [comment.body, comment.replyCount])).toEqual([['Another top', 1]]);
      expect((await replies(parent._id)).status).toBe(404);
    });

    it('counts stay exact when a member who replied leaves (their rows go by cascade), and their thread goes with them when they wrote the parent', async () => {
      const parent = await posted(tokens.alice, 'Top');
      await posted(tokens.bob, 'From Bob', parent._id);
      await posted(tokens.carol, 'From Carol', parent._id);
      const leaver = await verifiedMemberToken(database.db, `leaver${Date.now()}`);
      const leaverThread = await posted(leaver, 'Mine, soon gone');
      await posted(tokens.bob, 'Reply to the leaver', leaverThread._id);
      await posted(leaver, 'A reply by the leaver', parent._id);
      expect((await list()).comments.map((comment) => [comment.body, comment.replyCount])).toEqual([
        ['Mine, soon gone', 1],
        ['Top', 3],
      ]);
      // Account deletion removes the member's row; comments and replies cascade, nothing is stored to fix up.
      await database.db.delete(users).where(eq(users.id, leaverThread.author._id));
      expect((await list()).comments.map((comment) => [comment.body, comment.replyCount])).toEqual([['Top', 2]]);
      expect(((await replies(parent._id)).body as unknown as ReplyPageDto).replies.map((reply) => reply.body)).toEqual([
        'From Bob',
        'From Carol',
      ]);
    });

    it('answers GET /api/comments/{id} with the comment and, for a reply, its parent; 404 for what the caller may not see', async () => {
      const parent = await posted(tokens.alice, 'Top');
      const reply = await posted(tokens.bob, 'Reply', parent._id);
      const answer = (await thread(reply._id)).body as unknown as CommentThreadDto;
      expect(answer.comment).toMatchObject({ _id: reply._id, parentId: parent._id });
      expect(answer.parent).toMatchObject({ _id: parent._id, replyCount: 1 });
      expect(((await thread(parent._id)).body as unknown as CommentThreadDto).parent).toBeNull();

      await database.db.insert(blocks).values({ blockerId: ids.carol, blockedId: ids.alice });
      expect((await thread(reply._id, tokens.carol)).status).toBe(404);
      expect((await thread('bad')).status).toBe(400);
      const hiddenVideo = await insertVideo(database.db, ids.owner, { moderationStatus: 'pending', publishedAt: null });
      const [onHidden] = await database.db
        .insert(comments)
        .values({ videoId: hiddenVideo.id, authorId: ids.bob, body: 'x' })
        .returning();
      expect((await thread(onHidden!.id)).status).toBe(404);
      expect((await replies(onHidden!.id)).status).toBe(404);
    });
  });

  describe('reporting a comment', () => {
    it('refuses a report of one’s own comment, a reply included', async () => {
      const mine = await posted(tokens.alice, 'Mine');
      const myReply = await posted(tokens.alice, 'My reply', (await posted(tokens.bob, 'Bob’s'))._id);
      for (const target of [mine._id, myReply._id]) {
        const refused = await report(tokens.alice, { targetType: 'comment', target, reason: 'spam' });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({
          message: 'You cannot report your own comment. You can edit or delete it instead.',
          field: 'target',
        });
      }
      expect(await database.db.select().from(reports)).toHaveLength(0);
    });

    it('takes every reason of the one shared list for a reply, and the admin queue shows its text, label and a link to it', async () => {
      expect(SCHEMA_REASONS).toBe(REPORT_REASONS);
      expect(DB_REASONS).toBe(REPORT_REASONS);
      expect(Object.keys(REPORT_REASON_LABELS)).toEqual([...REPORT_REASONS]);
      const parent = await posted(tokens.bob, 'Top');
      const reply = await posted(tokens.bob, 'Rude </script > reply', parent._id);
      const reporters = [tokens.alice, tokens.carol, tokens.owner];
      for (const [index, reason] of REPORT_REASONS.entries()) {
        const body = { targetType: 'comment', target: reply._id, reason, details: reason === 'other' ? 'Look' : '' };
        expect(reportSchema.safeParse(body).success).toBe(true);
        await database.db.delete(reports);
        const response = await report(reporters[index % reporters.length], body);
        expect(response.status).toBe(201);
      }
      await database.db.delete(reports);
      const filed = await report(tokens.alice, { targetType: 'comment', target: reply._id, reason: 'harassment' });
      expect(filed.status).toBe(201);
      const queue = await call(adminReportsRoute, '/api/admin/reports', { bearer: tokens.admin });
      const found = (queue.body.reports as AdminReportDto[]).find((entry) => entry.reason === 'harassment');
      expect(found).toMatchObject({
        reasonLabel: REPORT_REASON_LABELS.harassment.label,
        target: { type: 'comment', excerpt: 'Rude </script > reply', link: `/video/${video.streamVideoId}#comment-${reply._id}` },
      });
      const rows = await database.db
        .select()
        .from(reports)
        .where(inArray(reports.targetId, [reply._id]));
      expect(rows.length).toBeGreaterThan(0);
    });
  });
});
