/** The upload's rules (./videos.ts) shaped for a form, where tags are typed as one comma-separated line: the upload form and the edit form share it. */
import { z } from '@/lib/validation/zod';

import { CATEGORIES } from '@/lib/site';

import { splitTags, uploadFieldsSchema } from './videos';

export const videoFormSchema = z.object({
  title: uploadFieldsSchema.shape.title,
  description: uploadFieldsSchema.shape.description,
  category: z.string().pipe(z.enum(CATEGORIES, { error: 'Choose a category' })),
  tags: z.string().superRefine((value, ctx) => {
    const checked = uploadFieldsSchema.shape.tags.safeParse(splitTags(value));
    if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'Check the tags' });
  }),
});
export type VideoFormInput = z.input<typeof videoFormSchema>;
export type VideoFormValues = z.output<typeof videoFormSchema>;
