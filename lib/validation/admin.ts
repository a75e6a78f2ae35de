/** Admin inputs, shared by the admin panel's forms, the admin API and tests. */
import { z } from '@/lib/validation/zod';

import { DECISION_GROUNDS } from '@/lib/trust/grounds';

import { multilineText, positiveInt, text } from './common';

export const ADMIN_NOTE_MAX = 500;

export const memberIdParamsSchema = z.object({
  id: z.uuid({ error: 'That is not a valid member id.' }),
});

const note = multilineText('note must be text')
  .trim()
  .max(ADMIN_NOTE_MAX, `The note must be at most ${ADMIN_NOTE_MAX} characters.`)
  .optional();

export const vipGrantSchema = z.object({
  days: z.coerce
    .number({ error: 'Days must be a whole number from 1 to 3650.' })
    .int('Days must be a whole number from 1 to 3650.')
    .min(1, 'Days must be a whole number from 1 to 3650.')
    .max(3650, 'Days must be a whole number from 1 to 3650.'),
  note,
});
export type VipGrantInput = z.infer<typeof vipGrantSchema>;

export const vipRevokeSchema = z.object({ note });

export const MEMBER_FILTERS = ['all', 'banned', 'admins', 'vip', 'unverified'] as const;
export type MemberFilter = (typeof MEMBER_FILTERS)[number];

const page = positiveInt('page', 10_000, 1);
const limit = (max: number, fallback: number) => positiveInt('limit', max, fallback);

export const memberListQuerySchema = z.object({
  q: text().trim().max(100, 'The search must be at most 100 characters.').default(''),
  filter: z.enum(MEMBER_FILTERS, { error: `filter must be one of ${MEMBER_FILTERS.join(', ')}` }).default('all'),
  page,
  limit: limit(100, 25),
});

export const BAN_REASON_MAX = 500;
/** A ban rests on how members treat each other unless the admin names another rule. */
export const DEFAULT_BAN_GROUND = 'standards-behaviour' as const;
export const banSchema = z.object({
  reason: multilineText('Give a reason for the ban.')
    .trim()
    .min(1, 'Give a reason for the ban.')
    .max(BAN_REASON_MAX, `The reason must be at most ${BAN_REASON_MAX} characters.`),
  ground: z.enum(DECISION_GROUNDS, { error: `ground must be one of ${DECISION_GROUNDS.join(', ')}` }).default(DEFAULT_BAN_GROUND),
});

export const unbanSchema = z.object({ note });

export const auditLogQuerySchema = z.object({
  action: text().trim().max(60).optional(),
  adminId: z.uuid({ error: 'adminId must be a member id' }).optional(),
  targetType: z
    .enum(['video', 'member', 'report', 'comment', 'task', 'appeal', 'verification', 'document', 'job'], {
      error: 'targetType must be one of video, member, report, comment, task, appeal, verification, document, job',
    })
    .optional(),
  targetId: text().trim().max(100).optional(),
  page,
  limit: limit(100, 50),
});

export const statsQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'days must be a whole number from 1 to 90' })
    .int('days must be a whole number from 1 to 90')
    .min(1, 'days must be a whole number from 1 to 90')
    .max(90, 'days must be a whole number from 1 to 90')
    .default(14),
});

export const paymentEventsQuerySchema = z.object({ page, limit: limit(100, 50) });

export const reportIdParamsSchema = z.object({ id: z.uuid({ error: 'That is not a valid report id.' }) });

export const REPORT_NOTE_MAX = 1000;
export const reportDecisionSchema = z.object({
  action: z.enum(['remove', 'dismiss'], { error: 'action must be remove (take the content down) or dismiss (nothing wrong)' }),
  note: multilineText('note must be text')
    .trim()
    .max(REPORT_NOTE_MAX, `The note must be at most ${REPORT_NOTE_MAX} characters.`)
    .default(''),
  /** The rule a removal rests on; by default the one the report's reason points to (REPORT_REASON_GROUNDS). */
  ground: z.enum(DECISION_GROUNDS, { error: `ground must be one of ${DECISION_GROUNDS.join(', ')}` }).optional(),
});
export type ReportDecision = z.infer<typeof reportDecisionSchema>;
