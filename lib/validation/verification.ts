/** Identity verification (issue 12, item 1): the member's form, the admin's review, and the sentences both see. */
import { z } from '@/lib/validation/zod';

import { dateOfBirthSchema } from './auth';
import { multilineText, positiveInt, text } from './common';

export const LEGAL_NAME_MAX = 200;
export const VERIFICATION_REASON_MAX = 1000;

export const VERIFICATION_MESSAGES = {
  submitted:
    'Thank you. Your documents are with our team; we will tell you when they have been reviewed, usually within two working days.',
  alreadyPending: 'Your documents are already being reviewed. You can send new ones if they are rejected.',
  alreadyApproved: 'Your identity is already verified.',
  idDocumentRequired: 'Add a photo or PDF of your government ID.',
  selfieRequired: 'Add a photo of yourself holding your ID.',
  notFound: 'This verification does not exist.',
  documentNotFound: 'This document does not exist.',
  alreadyReviewed: 'This verification has already been reviewed. Reload to see the decision.',
  approved: 'The member is verified.',
  rejected: 'The member has been told why, and can send new documents.',
  reasonRequired: 'Give the reason the member will read.',
  /** What admins see when the uploader of a video is not verified (the approval gate). */
  gate: 'The uploader has not verified their identity yet, so this video cannot be approved.',
} as const;

/** The text fields of the member's form (the two files are checked by the document store). */
export const verificationFormSchema = z.object({
  legalName: text('Enter your full legal name.')
    .trim()
    .min(2, 'Enter your full legal name, as on your ID.')
    .max(LEGAL_NAME_MAX, `Your legal name must be at most ${LEGAL_NAME_MAX} characters.`),
  dateOfBirth: dateOfBirthSchema(),
});
export type VerificationFormInput = z.infer<typeof verificationFormSchema>;

/** An admin's decision on a submission. */
export const verificationReviewSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('approve') }),
    z.object({
      action: z.literal('reject'),
      reason: multilineText(VERIFICATION_MESSAGES.reasonRequired)
        .trim()
        .min(1, VERIFICATION_MESSAGES.reasonRequired)
        .max(VERIFICATION_REASON_MAX, `The reason must be at most ${VERIFICATION_REASON_MAX} characters.`),
    }),
  ],
  { error: 'action must be approve or reject' },
);
export type VerificationReview = z.infer<typeof verificationReviewSchema>;

export const VERIFICATION_LIST_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const verificationListQuerySchema = z.object({
  status: z.enum(VERIFICATION_LIST_STATUSES, { error: 'status must be one of pending, approved, rejected' }).default('pending'),
  page: positiveInt('page', 10_000, 1),
  limit: positiveInt('limit', 100, 25),
});
export type VerificationListQuery = z.infer<typeof verificationListQuerySchema>;

/** `{id}` of /api/admin/verifications/{id} and /api/admin/documents/{id}: the services answer anything that is not a known id with 404. */
export const verificationIdParamsSchema = z.object({ id: z.string() });

/** Reasons admins pick from (they can write their own). */
export const VERIFICATION_REJECT_TEMPLATES = [
  'The ID is unreadable or cut off. Please send a sharp photo of the whole document.',
  'The selfie does not show you holding the same ID. Please take a new one.',
  'The name or date of birth does not match the ID.',
  'The ID has expired. Please use a current government ID.',
] as const;
