import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { PATCH as moderate } from '@/app/api/admin/videos/[streamVideoId]/route';
import { PUT as markRead } from '@/app/api/notifications/[id]/read/route';
import { PUT as readAll } from '@/app/api/notifications/read-all/route';
import { GET as list } from '@/app/api/notifications/route';
import type { NotificationDto } from '@/lib/api-types';
import { installDatabase, queryRows } from '@/lib/db';
import { blocks, notifications } from '@/lib/db/schema';
import { notificationPageQuery } from '@/lib/server/notifications/feed';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-notifications-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type ListBody = {
  notifications: NotificationDto[];
  unreadCount: number;
  pagination: { hasMore: boolean; nextCursor: string | null };
};
const MISSING_ID = '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c';

describe.each(ENGINES)('notifications on %s', (engine) => {
  let database: TestDatabase;
  let alice: string;
  let aliceToken: string;
  let bob: string;
  let bobToken: string;
  let carol: string;
  let adminToken: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    aliceToken = await verifiedMemberToken(database.db, 'alice');
    bobToken = await verifiedMemberToken(database.db, 'bob');
    await verifiedMemberToken(database.db, 'carol');
    adminToken = await verifiedMemberToken(database.db, 'moderator');
    await promoteToAdmin(database.db, await userId(database.db, 'moderator'));
    alice = await userId(database.db, 'alice');
    // Their videos pass the approval gate (lib/server/trust/approval-gate.ts).
    await verifiedUploader(database.db, alice);
    bob = await userId(database.db, 'bob');
    carol = await userId(database.db, 'carol');
  }, 60_000);
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(notifications);
    await database.db.delete(blocks);
  });

  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const get = async (token: string, query = '') => {
    const response = await call(list, `/api/notifications${query}`, { bearer: token });
    return { ...response, body: response.body as unknown as ListBody };
  };
  const put = (handler: typeof markRead, pathname: string, token?: string, params?: Record<string, string>) =>
    call(handler, pathname, { method: 'PUT', bearer: token, params });
  const insert = (rows: Partial<typeof notifications.$inferInsert>[]) =>
    database.db
      .insert(notifications)
      .values(rows.map((row) => ({ recipientId: alice, type: 'like' as const, ...row })))
      .returning({ id: notifications.id });

  it('asks for a login: anonymous callers get 401 on every route', async () => {
    expect((await call(list, '/api/notifications')).status).toBe(401);
    expect((await put(markRead, `/api/notifications/${MISSING_ID}/read`, undefined, { id: MISSING_ID })).status).toBe(401);
    expect((await put(readAll, '/api/notifications/read-all')).status).toBe(401);
    expect((await call(list, '/api/notifications', { bearer: 'not-a-token' })).status).toBe(401);
  });

  it('lists the caller’s notifications newest first, with the spec’s fields and default texts', async () => {
    await insert([
      { type: 'follow', senderId: carol, link: '/profile/carol', createdAt: minutesAgo(7) },
      { type: 'like', senderId: null, link: '/video/abc', createdAt: minutesAgo(6) },
      { type: 'comment', senderId: carol, link: '/video/abc#comments', createdAt: minutesAgo(5) },
      { type: 'comment', senderId: carol, message: 'carol: "Love this!"', createdAt: minutesAgo(4) },
      { type: 'video_approved', senderId: bob, createdAt: minutesAgo(3) },
      { type: 'video_rejected', senderId: bob, message: '  ', createdAt: minutesAgo(2) },
      { recipientId: bob, type: 'follow', senderId: alice, createdAt: minutesAgo(1) },
    ]);
    // A type this version does not know (an older or newer writer): the spec's generic default.
    await database.db.execute(
      sql`INSERT INTO notifications (recipient_id, type, created_at) VALUES (${alice}, 'mystery', ${minutesAgo(1).toISOString()}::timestamptz)`,
    );

    const { status, body, headers } = await get(aliceToken);
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(body.notifications.map((n) => n.message)).toEqual([
      'You have a new notification.',
      'Your video was not approved.',
      'Your video has been approved.',
      'carol: "Love this!"',
      'carol commented on your video',
      'Someone liked your video',
      'carol started following you',
    ]);
    expect(body.unreadCount).toBe(7);
    expect(body.pagination).toEqual({ hasMore: false, nextCursor: null });
    const follow = body.notifications.at(-1)!;
    expect(follow).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sender: { _id: carol, username: 'carol' },
      type: 'follow',
      link: '/profile/carol',
      message: 'carol started following you',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      read: false,
    });
    expect(Math.abs(Date.parse(follow.createdAt) - (Date.now() - 7 * 60_000))).toBeLessThan(30_000);
    // The site's own notices do not name the deciding admin; a missing link reads as '#'.
    expect(body.notifications[2]).toMatchObject({ type: 'video_approved', sender: null, link: '#' });
    expect(body.notifications.every((n) => n.read === false)).toBe(true);
  });

  it('pages with a stable cursor: no gaps or repeats with equal timestamps, microsecond ties or new arrivals', async () => {
    const base = Date.now() - 3_600_000;
    // 25 rows share one instant (ties broken by id); 20 more differ only in microseconds within one millisecond.
    await database.db.execute(sql`INSERT INTO notifications (recipient_id, type, created_at)
      SELECT ${alice}, 'like', ${new Date(base).toISOString()}::timestamptz FROM generate_series(1, 25)`);
    await database.db.execute(sql`INSERT INTO notifications (recipient_id, type, created_at)
      SELECT ${alice}, 'like', ${new Date(base + 1000).toISOString()}::timestamptz + i * interval '1 microsecond' FROM generate_series(1, 20) AS i`);
    await insert([{ recipientId: bob, type: 'like' }]);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=20${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await get(aliceToken, query);
      expect(page.status).toBe(200);
      expect(page.body.unreadCount).toBe(pages === 0 ? 45 : 46);
      seen.push(...page.body.notifications.map((n) => n._id));
      if (pages === 0) await insert([{ type: 'follow', senderId: carol }]); // arrives while paging: must not shift the pages
      cursor = page.body.pagination.nextCursor;
      expect(page.body.pagination.hasMore).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    const expected = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM notifications WHERE recipient_id = ${alice} AND type = 'like' ORDER BY created_at DESC, id DESC`,
    );
    expect(seen).toEqual(expected.map((row) => row.id));
  });

  it('refuses bad limits and cursors with a 400, never a 500', async () => {
    for (const query of ['?limit=0', '?limit=51', '?limit=ten', '?limit=2.5']) {
      const response = await get(aliceToken, query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ field: 'limit' });
    }
    const forged = [
      'garbage',
      Buffer.from('yesterday|not-a-uuid').toString('base64url'),
      Buffer.from(`2024-01-01T00:00:00.000000Z|${MISSING_ID}|x`).toString('base64url'),
      Buffer.from(`2024-13-45T00:00:00.000000Z|${MISSING_ID}`).toString('base64url'),
      Buffer.from(`2026-02-30T00:00:00.000000Z|${MISSING_ID}`).toString('base64url'),
      'x'.repeat(201),
    ];
    for (const cursor of forged) {
      const response = await get(aliceToken, `?cursor=${cursor}`);
      expect(response.status).toBe(400);
      expect((response.body as unknown as { message: string }).message).toMatch(/cursor is not valid/);
    }
  });

  it('marks one notification read for its owner only: someone else’s is a 404, a malformed id a 400', async () => {
    const [first, second] = await insert([{ createdAt: minutesAgo(2) }, { createdAt: minutesAgo(1) }]);
    const [bobs] = await insert([{ recipientId: bob }]);

    const done = await put(markRead, `/api/notifications/${first!.id}/read`, aliceToken, { id: first!.id });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      unreadCount: 1,
      notification: { _id: first!.id, read: true, message: 'Someone liked your video' },
    });
    // Idempotent, and the first read time is kept.
    const [before] = await database.db
      .select({ readAt: notifications.readAt })
      .from(notifications)
      .where(eq(notifications.id, first!.id));
    const again = await put(markRead, `/api/notifications/${first!.id}/read`, aliceToken, { id: first!.id });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ unreadCount: 1 });
    const [after] = await database.db
      .select({ readAt: notifications.readAt })
      .from(notifications)
      .where(eq(notifications.id, first!.id));
    expect(after!.readAt).toEqual(before!.readAt);

    const listed = await get(aliceToken);
    expect(listed.body.notifications.map((n) => [n._id, n.read])).toEqual([
      [second!.id, false],
      [first!.id, true],
    ]);

    // Bob cannot mark (or learn about) Alice's notification; Alice cannot touch Bob's.
    const foreign = await put(markRead, `/api/notifications/${second!.id}/read`, bobToken, { id: second!.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Notification not found' });
    expect((await put(markRead, `/api/notifications/${bobs!.id}/read`, aliceToken, { id: bobs!.id })).status).toBe(404);
    expect((await put(markRead, `/api/notifications/${MISSING_ID}/read`, aliceToken, { id: MISSING_ID })).status).toBe(404);
    expect((await get(aliceToken)).body.unreadCount).toBe(1);
    expect((await get(bobToken)).body.unreadCount).toBe(1);
    expect((await get(bobToken)).body.notifications.map((n) => n._id)).toEqual([bobs!.id]);

    for (const id of ['abc', 'read-all', `${first!.id}x`, "1' OR '1'='1", '']) {
      const response = await put(markRead, `/api/notifications/${encodeURIComponent(id)}/read`, aliceToken, { id });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'The notification id is not valid.' });
    }
  });

  it('marks all read, only the caller’s; with upTo only what the member has seen', async () => {
    const [oldest, middle] = await insert([
      { createdAt: minutesAgo(3) },
      { createdAt: minutesAgo(2) },
      { createdAt: minutesAgo(1) },
    ]);
    await insert([{ recipientId: bob }, { recipientId: bob }]);

    const partial = await put(readAll, `/api/notifications/read-all?upTo=${middle!.id}`, aliceToken);
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({ success: true, updated: 2, unreadCount: 1 });
    expect((await get(aliceToken)).body.notifications.map((n) => n.read)).toEqual([false, true, true]);

    expect((await put(readAll, `/api/notifications/read-all?upTo=${oldest!.id}`, bobToken)).status).toBe(404);
    expect((await put(readAll, '/api/notifications/read-all?upTo=nope', aliceToken)).status).toBe(400);

    const all = await put(readAll, '/api/notifications/read-all', aliceToken);
    expect(all.body).toEqual({ success: true, updated: 1, unreadCount: 0 });
    const listed = await get(aliceToken);
    expect(listed.body.unreadCount).toBe(0);
    expect(listed.body.notifications.every((n) => n.read)).toBe(true);
    expect((await get(bobToken)).body.unreadCount).toBe(2);
    expect((await put(readAll, '/api/notifications/read-all', aliceToken)).body).toEqual({
      success: true,
      updated: 0,
      unreadCount: 0,
    });
  });

  it('refuses cookie-authenticated writes from another site', async () => {
    const [row] = await insert([{}]);
    const cookie = `chrysalis_session=${aliceToken}`;
    const crossSite = await call(markRead, `/api/notifications/${row!.id}/read`, {
      method: 'PUT',
      cookie,
      headers: { origin: 'https://evil.example' },
      params: { id: row!.id },
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await call(readAll, '/api/notifications/read-all', { method: 'PUT', cookie, headers: { origin: ORIGIN } });
    expect(sameSite.status).toBe(200);
    expect(sameSite.body).toMatchObject({ updated: 1 });
  });

  it('hides notifications from members the recipient has blocked, and does not count them', async () => {
    await insert([
      { type: 'follow', senderId: carol },
      { type: 'like', senderId: bob },
    ]);
    await database.db.insert(blocks).values({ blockerId: alice, blockedId: carol });
    const listed = await get(aliceToken);
    expect(listed.body.notifications.map((n) => n.message)).toEqual(['bob liked your video']);
    expect(listed.body.unreadCount).toBe(1);
  });

  it('shows a moderation decision as the uploader’s notification, linking to the video', async () => {
    const video = await insertVideo(database.db, alice, {
      title: 'Butterfly days',
      moderationStatus: 'pending',
      publishedAt: null,
    });
    const decided = await call(moderate, `/api/admin/videos/${video.streamVideoId}`, {
      method: 'PATCH',
      bearer: adminToken,
      json: { action: 'approve' },
      params: { streamVideoId: video.streamVideoId },
    });
    expect(decided.status).toBe(200);
    const listed = await get(aliceToken);
    expect(listed.body.unreadCount).toBe(1);
    expect(listed.body.notifications[0]).toMatchObject({
      type: 'video_approved',
      sender: null,
      link: `/video/${video.streamVideoId}`,
      message: 'Your video "Butterfly days" has been approved.',
      read: false,
    });
  });

  it('lists 10,000 notifications of one member correctly, reading pages from the index', async () => {
    const start = Date.now() - 20_000_000;
    await database.db.execute(sql`INSERT INTO notifications (recipient_id, sender_id, type, created_at, read_at)
      SELECT ${alice}, ${carol}, (ARRAY['follow','like','comment'])[1 + i % 3], ${new Date(start).toISOString()}::timestamptz + i * interval '1 second',
             CASE WHEN i % 4 = 0 THEN now() END
      FROM generate_series(1, 10000) AS i`);
    // Other members' rows, so the index has to pick Alice's out.
    await database.db.execute(
      sql`INSERT INTO notifications (recipient_id, type) SELECT ${bob}, 'like' FROM generate_series(1, 2000)`,
    );
    await database.db.execute(sql`ANALYZE notifications`);

    const first = await get(aliceToken, '?limit=50');
    expect(first.status).toBe(200);
    expect(first.body.unreadCount).toBe(7500);
    expect(first.body.notifications).toHaveLength(50);
    expect(first.body.notifications[0]!.createdAt).toBe(new Date(start + 10_000_000).toISOString());
    expect(first.body.notifications[0]!.message).toBe('carol liked your video'); // i = 10000: 1 + 10000 % 3 = 2

    let cursor = first.body.pagination.nextCursor;
    let count = first.body.notifications.length;
    let previous = first.body.notifications.at(-1)!.createdAt;
    while (cursor) {
      const page = await get(aliceToken, `?limit=50&cursor=${cursor}`);
      for (const notification of page.body.notifications) {
        expect(notification.createdAt < previous).toBe(true);
        previous = notification.createdAt;
      }
      count += page.body.notifications.length;
      cursor = page.body.pagination.nextCursor;
    }
    expect(count).toBe(10_000);

    const plan = async (query: ReturnType<typeof notificationPageQuery>) =>
      (await queryRows<{ 'QUERY PLAN': string }>(database.db, sql`EXPLAIN ${query}`)).map((row) => row['QUERY PLAN']).join('\n');
    const firstPlan = await plan(notificationPageQuery(alice, 20));
    expect(firstPlan).toMatch(/Index Scan using notifications_recipient_idx/);
    expect(firstPlan).not.toMatch(/Sort/);
    const deepPlan = await plan(notificationPageQuery(alice, 20, first.body.pagination.nextCursor));
    expect(deepPlan).toMatch(/Index Scan using notifications_recipient_idx/);
    // The cursor bounds the index scan itself (not a filter over rows already read), so deep pages cost what the first does.
    expect(deepPlan).toMatch(/Index Cond: \(\(recipient_id = .*\) AND \(ROW\(created_at, id\) < ROW\(/);
    expect(deepPlan).not.toMatch(/Sort|Filter: .*ROW/);

    const all = await put(readAll, '/api/notifications/read-all', aliceToken);
    expect(all.body).toEqual({ success: true, updated: 7500, unreadCount: 0 });
  }, 120_000);
});
