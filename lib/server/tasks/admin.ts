import 'server-only';

import { sql } from 'drizzle-orm';

import type { AdminDailyTaskDto, AdminDailyTasksDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { utcDay } from '@/lib/format/daily-task';
import { TASK_MESSAGES } from '@/lib/validation/task-messages';
import type { DailyTaskCreateInput, DailyTaskUpdateInput } from '@/lib/validation/tasks';

import { recordAdminAction } from '../admin/audit';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict } from '../errors';

import { resolveTaskForDay } from './daily-task';

/**
 * Admins schedule daily tasks by UTC day and keep the pool that covers the
 * days nobody scheduled. Every change is written to the audit log in the
 * same transaction.
 */

interface TaskRow {
  id: string;
  description: string;
  scheduled_for: string | null;
  last_used_on: string | null;
  times_used: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Columns of `daily_tasks t` for the admin shape; days as text, never as JS dates (which would shift by time zone). */
const TASK_COLUMNS = sql`t.id, t.description, t.scheduled_for::text AS scheduled_for, t.created_at, t.updated_at,
  (SELECT max(d.day)::text FROM daily_task_days d WHERE d.task_id = t.id) AS last_used_on,
  (SELECT count(*) FROM daily_task_days d WHERE d.task_id = t.id) AS times_used`;

function toAdminTaskDto(row: TaskRow): AdminDailyTaskDto {
  return {
    _id: row.id,
    description: row.description,
    scheduledFor: row.scheduled_for,
    lastUsedOn: row.last_used_on,
    timesUsed: Number(row.times_used),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

async function findTask(db: Database, id: string, lock = false): Promise<AdminDailyTaskDto | null> {
  const [row] = await queryRows<TaskRow>(
    db,
    sql`SELECT ${TASK_COLUMNS} FROM daily_tasks t WHERE t.id = ${id}${lock ? sql` FOR UPDATE` : sql``}`,
  );
  return row ? toAdminTaskDto(row) : null;
}

/** GET /api/admin/daily-tasks: today's task as members get it, the upcoming schedule, and the pool. */
export async function listDailyTasks(actor: Actor, now: Date = new Date()): Promise<AdminDailyTasksDto> {
  requireAdmin(actor);
  const db = await getDb();
  const today = utcDay(now);
  // Resolving picks today's pool task if nobody has asked yet: what the admin sees is what members get.
  const resolved = await resolveTaskForDay(db, today);
  const [scheduled, pool, [completed]] = await Promise.all([
    queryRows<TaskRow>(
      db,
      sql`SELECT ${TASK_COLUMNS} FROM daily_tasks t WHERE t.scheduled_for >= ${today}::date ORDER BY t.scheduled_for`,
    ),
    queryRows<TaskRow>(
      db,
      sql`SELECT ${TASK_COLUMNS} FROM daily_tasks t WHERE t.scheduled_for IS NULL ORDER BY last_used_on ASC NULLS FIRST, t.created_at, t.id`,
    ),
    queryRows<{ n: number | string }>(db, sql`SELECT count(*) AS n FROM task_completions WHERE day = ${today}::date`),
  ]);
  return {
    today: {
      day: today,
      task: resolved ? await findTask(db, resolved.id) : null,
      source: resolved?.source ?? null,
      completions: Number(completed?.n ?? 0),
    },
    scheduled: scheduled.map(toAdminTaskDto),
    pool: pool.map(toAdminTaskDto),
  };
}

/** New schedules must be for today or later (UTC): a past day's task would never be seen. */
function refusePastDay(day: string | null, today: string) {
  if (day !== null && day < today) throw badRequest(TASK_MESSAGES.pastDate, { field: 'scheduledFor' });
}

/** Another task holds that day (the unique index decided, possibly against a concurrent request). */
function isDayTaken(error: unknown): boolean {
  const text = `${(error as { constraint?: string }).constraint ?? ''} ${(error as Error).message ?? ''} ${String((error as { cause?: unknown }).cause ?? '')}`;
  return text.includes('daily_tasks_scheduled_for_key');
}

const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};
const placeOf = (day: string | null) => (day ? `for ${day}` : 'in the pool');

/** POST /api/admin/daily-tasks: a task for a UTC day (today or later), or for the pool. */
export async function createDailyTask(
  actor: Actor,
  input: DailyTaskCreateInput,
  now: Date = new Date(),
): Promise<AdminDailyTaskDto> {
  const admin = requireAdmin(actor);
  refusePastDay(input.scheduledFor, utcDay(now));
  const db = await getDb();
  return db.transaction(async (database) => {
    // The unique index on scheduled_for decides whether the day is free, also between two admins at once (pool rows, null, never clash).
    const [created] = await queryRows<{ id: string }>(
      database,
      sql`INSERT INTO daily_tasks (description, scheduled_for, created_by)
          VALUES (${input.description}, ${input.scheduledFor}::date, ${admin.user.id})
          ON CONFLICT (scheduled_for) DO NOTHING
          RETURNING id`,
    );
    if (!created) throw conflict(TASK_MESSAGES.dateTaken(input.scheduledFor!));
    const task = (await findTask(database, created.id))!;
    await recordAdminAction(database, admin, {
      action: 'task.create',
      targetType: 'task',
      targetId: task._id,
      summary: `Added a daily task ${placeOf(task.scheduledFor)}: “${excerpt(task.description)}”`,
      details: { description: task.description, scheduledFor: task.scheduledFor },
    });
    return task;
  });
}

/**
 * PATCH /api/admin/daily-tasks/{id}: a new text, day, or both (null moves it
 * to the pool). A past day is refused unless it is the day the task already
 * has (editing the text of a past task is fine). A pool task given a day
 * stops being today's pool pick, so today is picked again without it.
 */
export async function updateDailyTask(
  actor: Actor,
  id: string,
  input: DailyTaskUpdateInput,
  now: Date = new Date(),
): Promise<AdminDailyTaskDto> {
  const admin = requireAdmin(actor);
  const today = utcDay(now);
  const db = await getDb();
  try {
    return await db.transaction(async (database) => {
      const before = await findTask(database, id, true);
      if (!before) throw new ApiError(404, TASK_MESSAGES.notFound);
      const description = input.description ?? before.description;
      const scheduledFor = input.scheduledFor === undefined ? before.scheduledFor : input.scheduledFor;
      if (scheduledFor !== before.scheduledFor) refusePastDay(scheduledFor, today);

      await database.execute(
        sql`UPDATE daily_tasks SET description = ${description}, scheduled_for = ${scheduledFor}::date, updated_at = now() WHERE id = ${id}`,
      );
      if (before.scheduledFor === null && scheduledFor !== null) {
        await database.execute(sql`DELETE FROM daily_task_days WHERE task_id = ${id} AND day >= ${today}::date`);
      }
      const after = (await findTask(database, id))!;
      const moved = before.scheduledFor !== after.scheduledFor;
      await recordAdminAction(database, admin, {
        action: 'task.update',
        targetType: 'task',
        targetId: id,
        summary: moved
          ? `Moved a daily task from ${before.scheduledFor ?? 'the pool'} to ${after.scheduledFor ?? 'the pool'}: “${excerpt(after.description)}”`
          : `Edited the daily task ${placeOf(after.scheduledFor)}: “${excerpt(after.description)}”`,
        details: {
          before: { description: before.description, scheduledFor: before.scheduledFor },
          after: { description: after.description, scheduledFor: after.scheduledFor },
        },
      });
      return after;
    });
  } catch (error) {
    if (isDayTaken(error)) throw conflict(TASK_MESSAGES.dateTaken(input.scheduledFor!));
    throw error;
  }
}

/**
 * DELETE /api/admin/daily-tasks/{id}. Completions keep counting (their
 * task_id becomes null); if it was today's pool pick, the pick goes with it
 * and the next request picks again.
 */
export async function deleteDailyTask(actor: Actor, id: string): Promise<{ success: true }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  return db.transaction(async (database) => {
    const before = await findTask(database, id, true);
    if (!before) throw new ApiError(404, TASK_MESSAGES.notFound);
    await database.execute(sql`DELETE FROM daily_tasks WHERE id = ${id}`);
    await recordAdminAction(database, admin, {
      action: 'task.delete',
      targetType: 'task',
      targetId: id,
      summary: `Deleted the daily task ${placeOf(before.scheduledFor)}: “${excerpt(before.description)}”`,
      details: { description: before.description, scheduledFor: before.scheduledFor, timesUsed: before.timesUsed },
    });
    return { success: true };
  });
}
