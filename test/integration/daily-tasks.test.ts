import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { DELETE as deleteTask, PATCH as patchTask } from '@/app/api/admin/daily-tasks/[id]/route';
import { GET as adminList, POST as adminCreate } from '@/app/api/admin/daily-tasks/route';
import { GET as today } from '@/app/api/dailytasks/today/route';
import { POST as complete } from '@/app/api/users/complete-task/route';
import { GET as profile } from '@/app/api/users/[username]/route';
import { installDatabase, queryRows } from '@/lib/db';
import { users, type User } from '@/lib/db/schema';
import { addUtcDays, nextUtcMidnight, utcDay } from '@/lib/format/daily-task';
import { resolveToken } from '@/lib/server/auth/session';
import { resetLimiters } from '@/lib/server/rate-limit';
import { completeTodaysTask, resolveTaskForDay } from '@/lib/server/tasks/daily-task';
import { seedStarterTasksIfUnused, STARTER_TASKS } from '@/lib/server/tasks/starter-pool';
import { VIP_REQUIRED_MESSAGE } from '@/lib/server/vip/access';
import { DAILY_TASK_MAX, TASK_MESSAGES } from '@/lib/validation/task-messages';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-daily-tasks-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MISSING_ID = '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c';
const DAY_MS = 86_400_000;

describe.each(ENGINES)('the VIP daily task on %s', (engine) => {
  let database: TestDatabase;
  let adminToken: string;
  let memberToken: string;
  let bannedToken: string;
  const vipTokens = new Map<string, string>();

  const member = async (username: string) => {
    const [row] = await database.db.select().from(users).where(eq(users.username, username));
    return row as User;
  };
  /** A verified member with VIP for a month (users.vip_until, as the entitlement code keeps it). */
  const vip = async (username: string) => {
    const token = await verifiedMemberToken(database.db, username);
    await database.db
      .update(users)
      .set({ vipUntil: new Date(Date.now() + 30 * DAY_MS) })
      .where(eq(users.username, username));
    vipTokens.set(username, token);
    return token;
  };
  const getToday = (token?: string) => call(today, '/api/dailytasks/today', { bearer: token });
  const completeTask = (token?: string) => call(complete, '/api/users/complete-task', { method: 'POST', bearer: token });
  const createTask = (body: unknown, token = adminToken) =>
    call(adminCreate, '/api/admin/daily-tasks', { json: body, bearer: token });
  const editTask = (id: string, body: unknown, token = adminToken) =>
    call(patchTask, `/api/admin/daily-tasks/${id}`, { method: 'PATCH', json: body, bearer: token, params: { id } });
  const removeTask = (id: string, token = adminToken) =>
    call(deleteTask, `/api/admin/daily-tasks/${id}`, { method: 'DELETE', bearer: token, params: { id } });
  const listTasks = (token = adminToken) => call(adminList, '/api/admin/daily-tasks', { bearer: token });
  const countRows = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(database.db, query))[0]!.n;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    adminToken = await verifiedMemberToken(database.db, 'taskadmin');
    await promoteToAdmin(database.db, await userId(database.db, 'taskadmin'));
    memberToken = await verifiedMemberToken(database.db, 'plainmember');
    bannedToken = await verifiedMemberToken(database.db, 'bannedadmin');
    await promoteToAdmin(database.db, await userId(database.db, 'bannedadmin'));
    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.username, 'bannedadmin'));
    await vip('vipone');
  }, 120_000);
  afterAll(() => database.destroy());

  it('fills an unused site with the starter pool once, and never refills a pool an admin emptied', async () => {
    expect(await seedStarterTasksIfUnused(database.db)).toBe(STARTER_TASKS.length);
    expect(await seedStarterTasksIfUnused(database.db)).toBe(0);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM daily_tasks WHERE scheduled_for IS NULL`)).toBe(
      STARTER_TASKS.length,
    );
    for (const text of STARTER_TASKS) expect(text.length).toBeLessThanOrEqual(DAILY_TASK_MAX);

    const { body } = await listTasks();
    for (const task of body.pool as { _id: string }[]) expect((await removeTask(task._id)).status).toBe(200);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM daily_tasks`)).toBe(0);
    // The deletions are in the audit log: the feature has been used, so a restart leaves the pool empty.
    expect(await seedStarterTasksIfUnused(database.db)).toBe(0);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM admin_audit_log WHERE action = 'task.delete'`)).toBe(
      STARTER_TASKS.length,
    );
  });

  it('refuses visitors (401) and members without VIP (403 with a message)', async () => {
    expect((await getToday()).status).toBe(401);
    expect((await completeTask()).status).toBe(401);
    expect(await getToday(memberToken)).toMatchObject({ status: 403, body: { message: VIP_REQUIRED_MESSAGE } });
    expect(await completeTask(memberToken)).toMatchObject({ status: 403, body: { message: VIP_REQUIRED_MESSAGE } });
    // VIP that has ended is no VIP.
    const lapsed = await verifiedMemberToken(database.db, 'lapsedvip');
    await database.db
      .update(users)
      .set({ vipUntil: new Date(Date.now() - 1000) })
      .where(eq(users.username, 'lapsedvip'));
    expect((await completeTask(lapsed)).status).toBe(403);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM task_completions`)).toBe(0);
  });

  it('answers 404 "No task available today." when nothing is scheduled and the pool is empty', async () => {
    const token = vipTokens.get('vipone')!;
    expect(await getToday(token)).toMatchObject({ status: 404, body: { message: 'No task available today.' } });
    expect(await completeTask(token)).toMatchObject({ status: 404, body: { message: 'No task available today.' } });
    expect((await member('vipone')).tasks).toBe(0);
  });

  it('admin endpoints: visitors 401, members 403 with the spec message, banned admins 403, admins 200', async () => {
    const anyId = MISSING_ID;
    // Written out rather than through the helpers, whose token defaults to the admin's.
    const attempts = [
      (token?: string) => call(adminList, '/api/admin/daily-tasks', { bearer: token }),
      (token?: string) => call(adminCreate, '/api/admin/daily-tasks', { json: { description: 'Nope' }, bearer: token }),
      (token?: string) =>
        call(patchTask, `/api/admin/daily-tasks/${anyId}`, {
          method: 'PATCH',
          json: { description: 'Nope' },
          bearer: token,
          params: { id: anyId },
        }),
      (token?: string) =>
        call(deleteTask, `/api/admin/daily-tasks/${anyId}`, { method: 'DELETE', bearer: token, params: { id: anyId } }),
    ];
    for (const attempt of attempts) {
      expect((await attempt(undefined)).status).toBe(401);
      expect(await attempt(memberToken)).toMatchObject({ status: 403, body: { message: 'Forbidden: Admin access required' } });
      expect(await attempt(bannedToken)).toMatchObject({ status: 403, body: { message: 'Account is banned' } });
    }
    expect(await listTasks()).toMatchObject({
      status: 200,
      body: { today: { day: utcDay(), task: null, source: null, completions: 0 }, scheduled: [], pool: [] },
    });
    expect(await countRows(sql`SELECT count(*)::int AS n FROM daily_tasks`)).toBe(0);
  });

  it('validates admin input with clear messages', async () => {
    const yesterday = addUtcDays(utcDay(), -1);
    const cases: [unknown, string][] = [
      [{}, TASK_MESSAGES.descriptionRequired],
      [{ description: '   \n  ' }, TASK_MESSAGES.descriptionRequired],
      [{ description: 42 }, TASK_MESSAGES.descriptionRequired],
      [{ description: 'x'.repeat(DAILY_TASK_MAX + 1) }, TASK_MESSAGES.descriptionTooLong],
      [{ description: 'Fine', scheduledFor: '2026-02-30' }, TASK_MESSAGES.badDate],
      [{ description: 'Fine', scheduledFor: 'tomorrow' }, TASK_MESSAGES.badDate],
      [{ description: 'Fine', scheduledFor: 20260501 }, TASK_MESSAGES.badDate],
      [{ description: 'Fine', scheduledFor: yesterday }, TASK_MESSAGES.pastDate],
    ];
    for (const [body, message] of cases) {
      const response = await createTask(body);
      expect({ body, status: response.status, message: response.body.message }).toEqual({ body, status: 400, message });
    }
    // Exactly the limit is fine, counted as people count characters (an emoji is one).
    const longest = await createTask({ description: `${'🦋'.repeat(DAILY_TASK_MAX - 1)}!` });
    expect(longest.status).toBe(201);
    const id = (longest.body.task as { _id: string })._id;

    expect(await editTask('not-a-uuid', { description: 'x' })).toMatchObject({
      status: 400,
      body: { message: TASK_MESSAGES.badId },
    });
    expect(await editTask(MISSING_ID, { description: 'x' })).toMatchObject({
      status: 404,
      body: { message: TASK_MESSAGES.notFound },
    });
    expect(await editTask(id, {})).toMatchObject({ status: 400, body: { message: TASK_MESSAGES.nothingToChange } });
    expect(await editTask(id, { scheduledFor: yesterday })).toMatchObject({
      status: 400,
      body: { message: TASK_MESSAGES.pastDate },
    });
    expect(await removeTask(MISSING_ID)).toMatchObject({ status: 404, body: { message: TASK_MESSAGES.notFound } });
    expect((await removeTask(id)).status).toBe(200);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM daily_tasks`)).toBe(0);
  });

  it('schedules tasks by day (one per day: 409), edits and deletes them, and audits every change', async () => {
    const inAWeek = addUtcDays(utcDay(), 7);
    const created = await createTask({
      description: '  Write a letter to your future self.\r\n\r\n\r\nSeal it.  ',
      scheduledFor: inAWeek,
    });
    expect(created.status).toBe(201);
    const task = created.body.task as { _id: string; description: string; scheduledFor: string };
    expect(task).toMatchObject({ description: 'Write a letter to your future self.\n\nSeal it.', scheduledFor: inAWeek });

    expect(await createTask({ description: 'Another', scheduledFor: inAWeek })).toMatchObject({
      status: 409,
      body: { message: TASK_MESSAGES.dateTaken(inAWeek) },
    });
    const other = await createTask({ description: 'Pool task to move', scheduledFor: null });
    expect(other.body.task).toMatchObject({ scheduledFor: null });
    const otherId = (other.body.task as { _id: string })._id;
    expect(await editTask(otherId, { scheduledFor: inAWeek })).toMatchObject({
      status: 409,
      body: { message: TASK_MESSAGES.dateTaken(inAWeek) },
    });

    const edited = await editTask(task._id, { description: 'Write a letter to your future self.' });
    expect(edited).toMatchObject({
      status: 200,
      body: { task: { description: 'Write a letter to your future self.', scheduledFor: inAWeek } },
    });
    const moved = await editTask(task._id, { scheduledFor: addUtcDays(inAWeek, 1) });
    expect(moved.body.task).toMatchObject({ scheduledFor: addUtcDays(inAWeek, 1) });
    const pooled = await editTask(task._id, { scheduledFor: '' });
    expect(pooled.body.task).toMatchObject({ scheduledFor: null });

    const listed = await listTasks();
    expect((listed.body.pool as { _id: string }[]).map((t) => t._id).sort()).toEqual([task._id, otherId].sort());

    expect((await removeTask(task._id)).status).toBe(200);
    expect((await removeTask(otherId)).status).toBe(200);
    expect((await removeTask(otherId)).status).toBe(404);

    const audit = await queryRows<{ action: string; summary: string; admin_username: string; details: Record<string, unknown> }>(
      database.db,
      sql`SELECT action, summary, admin_username, details FROM admin_audit_log WHERE target_id = ${task._id} ORDER BY created_at, action`,
    );
    expect(audit.map((row) => row.action)).toEqual(['task.create', 'task.update', 'task.update', 'task.update', 'task.delete']);
    expect(audit[0]).toMatchObject({
      admin_username: 'taskadmin',
      summary: `Added a daily task for ${inAWeek}: “Write a letter to your future self. Seal it.”`,
    });
    expect(audit[2]!.summary).toBe(
      `Moved a daily task from ${inAWeek} to ${addUtcDays(inAWeek, 1)}: “Write a letter to your future self.”`,
    );
    expect(audit[3]!.details).toMatchObject({ after: { scheduledFor: null } });
    // Refused changes write nothing.
    expect(await countRows(sql`SELECT count(*)::int AS n FROM admin_audit_log WHERE target_id = ${otherId}`)).toBe(2);
  });

  it('picks a pool task once per day: stable for everyone, concurrent first requests agree, least recently used first', async () => {
    const ids: string[] = [];
    for (const description of ['Pool one', 'Pool two', 'Pool three']) {
      ids.push(((await createTask({ description })).body.task as { _id: string })._id);
    }
    // Days far ahead, so today's resolution (below) starts fresh.
    const base = addUtcDays(utcDay(), 400);
    const firstDay = await Promise.all(Array.from({ length: 10 }, () => resolveTaskForDay(database.db, base)));
    expect(new Set(firstDay.map((task) => task!.id)).size).toBe(1);
    expect(firstDay[0]!.source).toBe('pool');
    expect(await countRows(sql`SELECT count(*)::int AS n FROM daily_task_days WHERE day = ${base}::date`)).toBe(1);

    const picks = [firstDay[0]!.id];
    for (let n = 1; n < 3; n += 1) picks.push((await resolveTaskForDay(database.db, addUtcDays(base, n)))!.id);
    expect(new Set(picks).size).toBe(3);
    // All three used once: the next day gets the one used longest ago.
    expect((await resolveTaskForDay(database.db, addUtcDays(base, 3)))!.id).toBe(picks[0]);
    expect((await resolveTaskForDay(database.db, addUtcDays(base, 4)))!.id).toBe(picks[1]);
    // A day already picked never changes.
    expect((await resolveTaskForDay(database.db, base))!.id).toBe(picks[0]);

    const token = vipTokens.get('vipone')!;
    const first = await getToday(token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ day: utcDay(), completed: false, streak: 0, nextTaskAt: nextUtcMidnight().toISOString() });
    const second = await getToday(await vip('viptwo'));
    expect(second.body.description).toBe(first.body.description);
    expect(ids).toContain((await resolveTaskForDay(database.db, utcDay()))!.id);
  });

  it('a task scheduled for today beats the pool', async () => {
    const token = vipTokens.get('vipone')!;
    const poolPick = (await getToday(token)).body.description;
    expect(poolPick).toMatch(/^Pool /);
    const scheduled = await createTask({ description: 'Scheduled for today: stand tall and smile.', scheduledFor: utcDay() });
    expect(scheduled.status).toBe(201);
    expect((await getToday(token)).body.description).toBe('Scheduled for today: stand tall and smile.');
    expect((await listTasks()).body.today).toMatchObject({
      source: 'scheduled',
      task: { description: 'Scheduled for today: stand tall and smile.' },
    });
  });

  it('20 parallel completions by one VIP count once: one 200, the rest 409', async () => {
    const token = await vip('racer');
    const responses = await Promise.all(Array.from({ length: 20 }, () => completeTask(token)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const winner = responses.find((response) => response.status === 200)!;
    expect(winner.body).toMatchObject({ success: true, tasks: 1, streak: 1 });
    expect(Math.abs(Date.parse(winner.body.lastTaskCompleted as string) - Date.now())).toBeLessThan(60_000);
    for (const response of responses.filter((r) => r.status === 409))
      expect(response.body.message).toBe("You have already completed today's task.");

    const racer = await member('racer');
    expect(racer.tasks).toBe(1);
    expect(racer.taskStreak).toBe(1);
    expect(await countRows(sql`SELECT count(*)::int AS n FROM task_completions WHERE user_id = ${racer.id}`)).toBe(1);
    expect((await getToday(token)).body).toMatchObject({ completed: true, streak: 1 });
    // And later the same day, still once.
    expect(await completeTask(token)).toMatchObject({ status: 409, body: { message: TASK_MESSAGES.alreadyCompleted } });
    expect((await member('racer')).tasks).toBe(1);
    expect((await listTasks()).body.today).toMatchObject({ completions: 1 });
  });

  it('the streak grows over consecutive UTC days and starts again after a missed day', async () => {
    const token = await vip('streaker');
    const streaker = await member('streaker');
    const day = utcDay();
    // Two earlier days in a row, written directly (as if done then).
    await database.db.execute(
      sql`INSERT INTO task_completions (user_id, day) VALUES (${streaker.id}, ${addUtcDays(day, -2)}::date), (${streaker.id}, ${addUtcDays(day, -1)}::date)`,
    );
    expect((await completeTask(token)).body).toMatchObject({ success: true, tasks: 1, streak: 3 });
    expect((await member('streaker')).taskStreak).toBe(3);

    const gapped = await vip('gapped');
    const gappedId = (await member('gapped')).id;
    await database.db.execute(
      sql`INSERT INTO task_completions (user_id, day) VALUES (${gappedId}, ${addUtcDays(day, -3)}::date), (${gappedId}, ${addUtcDays(day, -2)}::date)`,
    );
    expect((await completeTask(gapped)).body).toMatchObject({ tasks: 1, streak: 1 });

    // Day by day through the service, on days ahead (the pool covers them): 1, 2, 3, a missed day, 1.
    // The caller resolved from the token, as the route does, so each call sees the member as the last one left them.
    const runner = await vip('runner');
    const streaks: number[] = [];
    for (const offset of [10, 11, 12, 14]) {
      const at = new Date(Date.parse(`${addUtcDays(day, offset)}T08:30:00Z`));
      streaks.push((await completeTodaysTask(await resolveToken(runner, 'bearer', false), at)).streak);
    }
    expect(streaks).toEqual([1, 2, 3, 1]);
    expect(await member('runner')).toMatchObject({ tasks: 4, taskStreak: 1 });
  });

  it('shows the reward counter and the current streak on profiles (0 once a day was missed)', async () => {
    const token = vipTokens.get('viptwo')!;
    const view = async (username: string) =>
      (await call(profile, `/api/users/${username}`, { bearer: token, params: { username } })).body.user as { rewards: unknown };
    expect((await view('streaker')).rewards).toEqual({ tasks: 1, streak: 3 });
    expect((await view('plainmember')).rewards).toEqual({ tasks: 0, streak: 0 });
    await database.db
      .update(users)
      .set({ lastTaskCompleted: new Date(Date.now() - 2 * DAY_MS) })
      .where(eq(users.username, 'streaker'));
    expect((await view('streaker')).rewards).toEqual({ tasks: 1, streak: 0 });
  });
});
