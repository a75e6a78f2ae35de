import 'server-only';

import { sql } from 'drizzle-orm';

import type { CompleteTaskDto, DailyTaskTodayDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { currentStreak, nextUtcMidnight, utcDay } from '@/lib/format/daily-task';
import { TASK_MESSAGES } from '@/lib/validation/task-messages';

import type { Actor } from '../auth/actor';
import { ApiError, conflict } from '../errors';
import { requireVip } from '../vip/access';

/**
 * The VIP daily task (spec sections 4, 7, 9). Days are UTC days: everyone
 * gets the same task from one UTC midnight to the next, and each member
 * completes it at most once. See docs/architecture.md, "Daily task".
 */

export interface DayTask {
  id: string;
  description: string;
  /** A task scheduled for the day, or the pool's pick for it. */
  source: 'scheduled' | 'pool';
}

/** The day's task if it is already decided: the one scheduled for it, else the pool task picked for it. */
async function decidedTaskFor(db: Database, day: string): Promise<DayTask | null> {
  const [row] = await queryRows<DayTask & { rank: number }>(
    db,
    sql`SELECT id, description, 'scheduled' AS source, 0 AS rank FROM daily_tasks WHERE scheduled_for = ${day}::date
        UNION ALL
        SELECT t.id, t.description, 'pool' AS source, 1 AS rank
        FROM daily_task_days d JOIN daily_tasks t ON t.id = d.task_id
        WHERE d.day = ${day}::date
        ORDER BY rank
        LIMIT 1`,
  );
  return row ? { id: row.id, description: row.description, source: row.source } : null;
}

/**
 * The task for a UTC day: the one scheduled for it; else the pool task
 * picked for it. The first request of a day without either picks one: the
 * pool task handed out least recently (never used first, ties at random),
 * stored in daily_task_days. Its primary key with ON CONFLICT DO NOTHING
 * makes concurrent first requests agree: the losers' inserts do nothing and
 * every caller then reads the one stored pick. Null when the day has no
 * scheduled task and the pool is empty.
 */
export async function resolveTaskForDay(db: Database, day: string): Promise<DayTask | null> {
  const decided = await decidedTaskFor(db, day);
  if (decided) return decided;
  await db.execute(
    sql`INSERT INTO daily_task_days (day, task_id)
        SELECT ${day}::date, t.id FROM daily_tasks t
        WHERE t.scheduled_for IS NULL
        ORDER BY (SELECT max(used.day) FROM daily_task_days used WHERE used.task_id = t.id) ASC NULLS FIRST, random()
        LIMIT 1
        ON CONFLICT (day) DO NOTHING`,
  );
  return decidedTaskFor(db, day);
}

async function requireTaskForDay(db: Database, day: string): Promise<DayTask> {
  const task = await resolveTaskForDay(db, day);
  if (!task) throw new ApiError(404, TASK_MESSAGES.noTaskToday);
  return task;
}

/** GET /api/dailytasks/today: today's task for a VIP member (401 / 403 for anyone else). */
export async function getTodaysTask(actor: Actor, now: Date = new Date()): Promise<DailyTaskTodayDto> {
  const { user } = requireVip(actor);
  const db = await getDb();
  const day = utcDay(now);
  const task = await requireTaskForDay(db, day);
  const done = await queryRows<{ found: number }>(
    db,
    sql`SELECT 1 AS found FROM task_completions WHERE user_id = ${user.id} AND day = ${day}::date`,
  );
  return {
    description: task.description,
    day,
    completed: done.length > 0,
    nextTaskAt: nextUtcMidnight(now).toISOString(),
    streak: currentStreak(user.taskStreak, user.lastTaskCompleted, now),
  };
}

/**
 * The streak ending on `day`: consecutive days with a completion, counted
 * back from `day` over task_completions (gaps and islands: in newest-first
 * order the n-th row of an unbroken run is exactly n days before `day`).
 * Same result as "yesterday's streak + 1, else 1", but read from the rows
 * themselves, so it can never drift from them.
 */
const streakEndingOn = (userId: string, day: string) =>
  sql`(SELECT count(*)::int FROM (
         SELECT c.day, (row_number() OVER (ORDER BY c.day DESC) - 1)::int AS n
         FROM task_completions c WHERE c.user_id = ${userId} AND c.day <= ${day}::date
       ) run WHERE run.day = ${day}::date - run.n)`;

/**
 * POST /api/users/complete-task for a VIP member (401 / 403 for anyone else). In
 * one transaction: the completion row (its primary key, member and UTC day,
 * decides: a second completion the same day inserts nothing and is a 409,
 * whatever the concurrency), then the reward counter, the completion time
 * and the streak.
 */
export async function completeTodaysTask(actor: Actor, now: Date = new Date()): Promise<CompleteTaskDto> {
  const { user } = requireVip(actor);
  const db = await getDb();
  const day = utcDay(now);
  const task = await requireTaskForDay(db, day);
  const at = now.toISOString();
  return db.transaction(async (database) => {
    const inserted = await queryRows<{ day: string }>(
      database,
      sql`INSERT INTO task_completions (user_id, day, task_id, completed_at)
          VALUES (${user.id}, ${day}::date, ${task.id}, ${at}::timestamptz)
          ON CONFLICT (user_id, day) DO NOTHING
          RETURNING day::text AS day`,
    );
    if (inserted.length === 0) throw conflict(TASK_MESSAGES.alreadyCompleted);
    const [member] = await queryRows<{ tasks: number; task_streak: number }>(
      database,
      sql`UPDATE users
          SET tasks = tasks + 1, last_task_completed = ${at}::timestamptz, task_streak = ${streakEndingOn(user.id, day)}, updated_at = now()
          WHERE id = ${user.id}
          RETURNING tasks, task_streak`,
    );
    if (!member) throw new ApiError(404, 'Member not found');
    return { success: true, tasks: Number(member.tasks), lastTaskCompleted: at, streak: Number(member.task_streak) };
  });
}
