/** Inputs of statements of reasons and appeals, shared by the forms, the API and tests. */
import { DECISION_GROUNDS } from '@/lib/trust/grounds';
import { z } from '@/lib/validation/zod';

import { characterCount, multilineText, positiveInt } from './common';

/** An appeal says why the decision is wrong; a page of text is plenty, and keeps the admin queue readable. */
export const APPEAL_STATEMENT_MAX = 3000;
export const APPEAL_NOTE_MAX = 1000;

export const APPEAL_MESSAGES = {
  statementRequired: 'Tell us why you think this decision is wrong.',
  statementTooLong: `Your appeal must be at most ${APPEAL_STATEMENT_MAX} characters.`,
  noteRequired: 'Write a note for the member: why the decision stands or why it was wrong.',
  noteTooLong: `The note must be at most ${APPEAL_NOTE_MAX} characters.`,
} as const;

export const groundSchema = z.enum(DECISION_GROUNDS, { error: `ground must be one of ${DECISION_GROUNDS.join(', ')}` });

export const decisionIdParamsSchema = z.object({ id: z.uuid({ error: 'That is not a valid decision id.' }) });
export const appealIdParamsSchema = z.object({ id: z.uuid({ error: 'That is not a valid appeal id.' }) });

/**
 * The single-purpose link a statement's email carries (lib/server/trust/decision-links.ts):
 * its expiry (seconds since 1970) and signature. A banned member cannot log in, so this is how they read and appeal.
 */
export const decisionLinkSchema = z.object({
  e: z
    .string()
    .regex(/^\d{1,12}$/, 'This link is not valid.')
    .optional(),
  k: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'This link is not valid.')
    .optional(),
});
export type DecisionLinkKey = z.infer<typeof decisionLinkSchema>;

export const appealSchema = decisionLinkSchema.extend({
  statement: multilineText(APPEAL_MESSAGES.statementRequired)
    .trim()
    .min(1, APPEAL_MESSAGES.statementRequired)
    .refine((value) => characterCount(value) <= APPEAL_STATEMENT_MAX, APPEAL_MESSAGES.statementTooLong),
});
export type AppealInput = z.infer<typeof appealSchema>;

export const APPEAL_OUTCOMES = ['uphold', 'reverse'] as const;
export const appealDecisionSchema = z.object({
  outcome: z.enum(APPEAL_OUTCOMES, { error: 'outcome must be uphold (the decision stands) or reverse (it was wrong)' }),
  note: multilineText(APPEAL_MESSAGES.noteRequired)
    .trim()
    .min(1, APPEAL_MESSAGES.noteRequired)
    .refine((value) => characterCount(value) <= APPEAL_NOTE_MAX, APPEAL_MESSAGES.noteTooLong),
});
export type AppealDecisionInput = z.infer<typeof appealDecisionSchema>;

export const APPEAL_LIST_STATUSES = ['open', 'upheld', 'reversed'] as const;
export const appealListQuerySchema = z.object({
  status: z.enum(APPEAL_LIST_STATUSES, { error: `status must be one of ${APPEAL_LIST_STATUSES.join(', ')}` }).default('open'),
  page: positiveInt('page', 10_000, 1),
  limit: positiveInt('limit', 100, 25),
});

export const decisionListQuerySchema = z.object({ page: positiveInt('page', 10_000, 1), limit: positiveInt('limit', 100, 25) });
