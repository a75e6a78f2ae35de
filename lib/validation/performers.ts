/**
 * Performer records (PUT /api/videos/{id}/performers) and the public
 * withdrawal of consent: one schema each, used by the API and the forms, so
 * the browser says what the server would before anything is sent.
 */
import { z } from '@/lib/validation/zod';

import {
  isCalendarDate,
  latestToday,
  MAX_CO_PERFORMERS,
  PERFORMER_MESSAGES,
  performerLabel,
  RELEASE_STATEMENTS,
  ageOn,
} from '@/lib/trust/performers';

import { multilineText, text } from './common';

const STATEMENT_IDS = RELEASE_STATEMENTS.map((statement) => statement.id);

/** A YYYY-MM-DD date that exists, from 1900 up to today (anywhere on Earth). */
const pastDate = (missing: string, future: string) =>
  text(missing)
    .trim()
    .min(1, missing)
    .refine(isCalendarDate, missing)
    .refine((value) => value >= '1900-01-01', PERFORMER_MESSAGES.recordedOnPast)
    .refine((value) => value <= latestToday(), future);

const releaseSchema = z.object({
  signature: text('Type their full legal name as the signature of the release.')
    .trim()
    .min(1, 'Type their full legal name as the signature of the release.')
    .max(200, 'The signature can be at most 200 characters.'),
  signedOn: pastDate('Enter the date the release was signed.', 'The release cannot be signed in the future.'),
  statements: z
    .array(z.string(), { error: 'Tick every statement of the release.' })
    .max(STATEMENT_IDS.length * 2, 'Tick every statement of the release.'),
});

const coPerformerSchema = z
  .object({
    legalName: text('Enter their legal name.')
      .trim()
      .min(1, 'Enter their legal name.')
      .max(200, 'The legal name can be at most 200 characters.'),
    stageName: text('Enter their stage name (the name they use on screen).')
      .trim()
      .min(1, 'Enter their stage name (the name they use on screen).')
      .max(100, 'The stage name can be at most 100 characters.'),
    dateOfBirth: pastDate('Enter their date of birth.', 'The date of birth cannot be in the future.'),
    consent: z.enum(['release_form', 'signed_pdf'], {
      error: 'Choose how they consented: the release form here, or an uploaded signed release.',
    }),
    release: releaseSchema.optional(),
  })
  .superRefine((value, context) => {
    if (value.consent !== 'release_form') return;
    if (!value.release) {
      context.addIssue({
        code: 'custom',
        path: ['release', 'signature'],
        message: 'Fill in the release form: their signature, the date and every statement.',
      });
      return;
    }
    const ticked = new Set(value.release.statements);
    const missing = RELEASE_STATEMENTS.find((statement) => !ticked.has(statement.id));
    if (missing)
      context.addIssue({
        code: 'custom',
        path: ['release', 'statements'],
        message: `Tick every statement of the release; missing: “${missing.text}”`,
      });
    if (value.release.statements.some((id) => !STATEMENT_IDS.includes(id as (typeof STATEMENT_IDS)[number]))) {
      context.addIssue({
        code: 'custom',
        path: ['release', 'statements'],
        message: 'The release has a statement we do not know.',
      });
    }
  });

export const performerRecordsSchema = z
  .object({
    recordedOn: pastDate(PERFORMER_MESSAGES.recordedOn, PERFORMER_MESSAGES.recordedOnFuture),
    uploaderAppears: z.boolean({ error: 'Say whether you appear in the video.' }),
    coPerformers: z
      .array(coPerformerSchema, { error: PERFORMER_MESSAGES.nobody })
      .max(MAX_CO_PERFORMERS, PERFORMER_MESSAGES.tooMany)
      .default([]),
  })
  .superRefine((value, context) => {
    if (!value.uploaderAppears && value.coPerformers.length === 0)
      context.addIssue({ code: 'custom', path: ['coPerformers'], message: PERFORMER_MESSAGES.nobody });
  });

export type PerformerRecordsInput = z.infer<typeof performerRecordsSchema>;
export type CoPerformerInput = PerformerRecordsInput['coPerformers'][number];

export interface PerformerProblem {
  message: string;
  /** The field's path, e.g. coPerformers.1.dateOfBirth. */
  field: string;
}

/**
 * Parses performer records; the problem's message names the co-performer
 * it is about ("Alex Star: enter their date of birth."), so the sentence is
 * clear without the form around it.
 */
export function parsePerformerRecords(
  input: unknown,
): { ok: true; value: PerformerRecordsInput } | { ok: false; problem: PerformerProblem } {
  const result = performerRecordsSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const [first, index] = issue.path;
    let message = issue.message;
    if (first === 'coPerformers' && typeof index === 'number') {
      const raw = (input as { coPerformers?: unknown[] }).coPerformers?.[index];
      const named = typeof raw === 'object' && raw ? (raw as { stageName?: unknown; legalName?: unknown }) : {};
      const label = performerLabel(
        {
          stageName: typeof named.stageName === 'string' ? named.stageName : null,
          legalName: typeof named.legalName === 'string' ? named.legalName : null,
        },
        index,
      );
      message = `${label}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
    }
    return { ok: false, problem: { message, field: issue.path.join('.') || 'performers' } };
  }
  const value = result.data;
  // 18 U.S.C. 2257: everyone must have been an adult on the day it was recorded, not just today.
  const minor = value.coPerformers.findIndex((performer) => ageOn(performer.dateOfBirth, value.recordedOn) < 18);
  if (minor >= 0) {
    const performer = value.coPerformers[minor]!;
    return {
      ok: false,
      problem: {
        message: `${performerLabel(performer, minor)} was under 18 on the recording date (${value.recordedOn}). Everyone in a video must have been 18 or older when it was recorded.`,
        field: `coPerformers.${minor}.dateOfBirth`,
      },
    };
  }
  return { ok: true, value };
}

/** The multipart field names of a co-performer's documents. */
export const idDocumentField = (index: number) => `coPerformers.${index}.idDocument`;
export const releaseDocumentField = (index: number) => `coPerformers.${index}.releaseDocument`;

// ---------- Withdrawal of consent (public) ----------

export const WITHDRAWAL_MESSAGES = {
  video: 'Paste the link of the video (for example https://chrysalis.example/video/abc123).',
  legalName: 'Enter your legal name.',
  dateOfBirth: 'Enter your date of birth.',
  email: 'Enter an email address where we can reach you.',
  statement: 'Tell us in a sentence or two that you appear in this video and withdraw your consent.',
  thanks:
    'Thank you. If that video is on Chrysalis, it is now hidden while we review your request. We will write to you at the email address you gave.',
} as const;

/** The public id from a link to a video or its embed, or a bare id; null when it is neither. */
export function streamIdFromVideoLink(value: string): string | null {
  const trimmed = value.trim();
  if (/^[A-Za-z0-9_-]{1,32}$/.test(trimmed)) return trimmed;
  let path = trimmed;
  try {
    path = new URL(trimmed).pathname;
  } catch {
    // A path without the site's address (/video/abc) is fine too.
  }
  const match = /^\/(?:video|embed)\/([A-Za-z0-9_-]{1,32})\/?$/.exec(path);
  return match ? match[1]! : null;
}

export const consentWithdrawalSchema = z.object({
  video: text(WITHDRAWAL_MESSAGES.video)
    .trim()
    .max(500, WITHDRAWAL_MESSAGES.video)
    .refine((value) => streamIdFromVideoLink(value) !== null, WITHDRAWAL_MESSAGES.video),
  legalName: text(WITHDRAWAL_MESSAGES.legalName)
    .trim()
    .min(1, WITHDRAWAL_MESSAGES.legalName)
    .max(200, 'Your legal name can be at most 200 characters.'),
  dateOfBirth: text(WITHDRAWAL_MESSAGES.dateOfBirth)
    .trim()
    .refine(isCalendarDate, WITHDRAWAL_MESSAGES.dateOfBirth)
    .refine((value) => value >= '1900-01-01' && value <= latestToday(), WITHDRAWAL_MESSAGES.dateOfBirth),
  email: text(WITHDRAWAL_MESSAGES.email).trim().max(254, WITHDRAWAL_MESSAGES.email).pipe(z.email(WITHDRAWAL_MESSAGES.email)),
  statement: multilineText(WITHDRAWAL_MESSAGES.statement)
    .trim()
    .min(10, WITHDRAWAL_MESSAGES.statement)
    .max(2000, 'The statement can be at most 2000 characters.'),
});

export type ConsentWithdrawalInput = z.infer<typeof consentWithdrawalSchema>;

export const withdrawalResolutionSchema = z.object({
  action: z.enum(['confirm', 'dismiss'], {
    error: 'Choose confirm (remove the video) or dismiss (not a performer of this video).',
  }),
  note: multilineText('The note must be text.').trim().max(1000, 'The note can be at most 1000 characters.').default(''),
});

export type WithdrawalResolution = z.infer<typeof withdrawalResolutionSchema>;
