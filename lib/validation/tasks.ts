/** Daily task inputs and messages, shared by the admin form, the API and tests. */
import { z } from '@/lib/validation/zod';

import { bioLength, normalizeBio } from './community';
import { DAILY_TASK_MAX, TASK_MESSAGES } from './task-messages';

/**
 * Task texts follow the bio's rules: characters counted as people count them
 * (code points, so an emoji is one); line endings become \n, control
 * characters other than tab and newline go, runs of blank lines shrink to
 * one, then the text is trimmed.
 */
export const taskLength = bioLength;
export const normalizeTaskDescription = normalizeBio;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

const description = z
  .string({ error: TASK_MESSAGES.descriptionRequired })
  .transform(normalizeTaskDescription)
  .pipe(
    z
      .string()
      .min(1, TASK_MESSAGES.descriptionRequired)
      .refine((text) => taskLength(text) <= DAILY_TASK_MAX, TASK_MESSAGES.descriptionTooLong),
  );

/** A UTC day, or null for the pool; an empty string (a cleared date field) means the pool too. */
const scheduledFor = z
  .union([z.string({ error: TASK_MESSAGES.badDate }), z.null()], { error: TASK_MESSAGES.badDate })
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()))
  .refine((value) => value === null || isCalendarDay(value), TASK_MESSAGES.badDate);

/** POST /api/admin/daily-tasks: a description, and a UTC day to schedule it for (none: it joins the pool). */
export const dailyTaskCreateSchema = z.object({
  description,
  scheduledFor: scheduledFor.optional().transform((value) => value ?? null),
});
export type DailyTaskCreateInput = z.infer<typeof dailyTaskCreateSchema>;

/** PATCH /api/admin/daily-tasks/{id}: a new description, a new day (null moves it to the pool), or both. */
export const dailyTaskUpdateSchema = z
  .object({ description: description.optional(), scheduledFor: scheduledFor.optional() })
  .refine((value) => value.description !== undefined || value.scheduledFor !== undefined, TASK_MESSAGES.nothingToChange);
export type DailyTaskUpdateInput = z.infer<typeof dailyTaskUpdateSchema>;

export const dailyTaskIdParamsSchema = z.object({
  id: z.uuid({ error: TASK_MESSAGES.badId }),
});
