/** Upload fields, shared by the upload form and the API. */
import { z } from 'zod';

import { CATEGORIES } from '@/lib/site';

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
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
  description: z.string().trim().max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`).default(''),
  category: z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(', ')}` }),
  tags: z
    .array(z.string().max(TAG_MAX, `Each tag must be at most ${TAG_MAX} characters`))
    .max(TAGS_MAX, `Use at most ${TAGS_MAX} tags`)
    .default([]),
});

export type UploadFields = z.infer<typeof uploadFieldsSchema>;
