/**
 * Editing a video through the API: the upload's rules (./videos.ts), each field optional. A file of its own, like
 * ./video-form.ts, so the browser code that reads the lists' sorts and labels from ./videos.ts does not carry it.
 */
import { z } from '@/lib/validation/zod';

import { splitTags, uploadFieldsSchema } from './videos';

const upload = uploadFieldsSchema.shape;

/** Tags as a list or as "a, b, c": trimmed, lower-case and unique, as at upload. */
const tags = z.preprocess(
  (value) =>
    typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      ? splitTags(value as string | string[])
      : value,
  upload.tags.unwrap(),
);

export const NOTHING_TO_CHANGE = 'Change the title, description, category or tags.';

/**
 * PATCH /api/videos/{streamVideoId}: the upload's fields and rules, each
 * optional (what is left out stays as it is), at least one given.
 */
export const videoEditSchema = z
  .object({
    title: upload.title.optional(),
    description: upload.description.unwrap().optional(),
    category: upload.category.optional(),
    tags: tags.optional(),
  })
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), { message: NOTHING_TO_CHANGE });

export type VideoEditInput = z.infer<typeof videoEditSchema>;
