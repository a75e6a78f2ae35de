/** Upload fields, shared by the upload form and the API. */
import { z } from '@/lib/validation/zod';

import { CATEGORIES } from '@/lib/site';

import { multilineText, positiveInt, text } from './common';

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 5000;
export const TAGS_MAX = 15;
export const TAG_MAX = 30;

/** "a, b , c" or repeated fields → trimmed, lower-case, unique tags. */
export function splitTags(input: string | string[] | undefined): string[] {
  const parts = (Array.isArray(input) ? input : [input ?? '']).flatMap((value) => value.split(','));
  return [...new Set(parts.map((tag) => tag.trim().replace(/^#/, '').toLowerCase()).filter(Boolean))];
}

export const uploadFieldsSchema = z.object({
  title: text('Title is required').trim().min(1, 'Title is required').max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
  description: multilineText().trim().max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`).default(''),
  category: z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(', ')}` }),
  tags: z
    .array(text().max(TAG_MAX, `Each tag must be at most ${TAG_MAX} characters`))
    .max(TAGS_MAX, `Use at most ${TAGS_MAX} tags`)
    .default([]),
});

export type UploadFields = z.infer<typeof uploadFieldsSchema>;

export const LIST_LIMIT_MAX = 50;

export const videoListQuerySchema = z.object({
  limit: positiveInt('limit', LIST_LIMIT_MAX, 12),
  page: positiveInt('page', 10_000, 1),
  cursor: text().max(200).optional(),
  category: z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
});

export const topVideosQuerySchema = z.object({ limit: positiveInt('limit', LIST_LIMIT_MAX, 6) });

export const searchQuerySchema = z.object({
  q: text('Type something to search for').trim().max(200, 'Search for at most 200 characters'),
  limit: positiveInt('limit', LIST_LIMIT_MAX, 12),
  page: positiveInt('page', 1_000, 1),
});

/** Where a video stands in review. */
export const MODERATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

/** GET /api/admin/videos: one status of the queue, a page at a time. */
export const moderationQueueQuerySchema = videoListQuerySchema.pick({ limit: true, page: true }).extend({
  status: z.enum(MODERATION_STATUSES, { error: `status must be one of ${MODERATION_STATUSES.join(', ')}` }).default('pending'),
});

export const REJECTION_REASON_MAX = 500;

export const moderationSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve') }),
  z.object({
    action: z.literal('reject'),
    reason: multilineText('Give a reason for the rejection').trim().min(1, 'Give a reason for the rejection').max(REJECTION_REASON_MAX, `The reason must be at most ${REJECTION_REASON_MAX} characters`),
  }),
], { error: 'action must be approve or reject' });

/** Quick picks for the rejection reasons admins give most; the text stays editable. */
export const REJECTION_TEMPLATES = [
  'Not in our categories',
  'Low quality or broken video',
  'Copyrighted material',
  'Breaks the community standards',
  'Someone in it may be under 18, or consent is not clear',
  'Spam or advertising',
] as const;

export const BULK_MODERATION_MAX = 50;
export const bulkModerationSchema = z.intersection(
  z.object({
    streamVideoIds: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'That is not a valid video id.'), { error: 'streamVideoIds must be a list of video ids' })
      .min(1, 'Choose at least one video.')
      .max(BULK_MODERATION_MAX, `Choose at most ${BULK_MODERATION_MAX} videos at a time.`),
  }),
  moderationSchema,
);
