/** Deleting an account, and editing or deleting a video: shared by the forms, the API and the tests. */
import { z } from '@/lib/validation/zod';

import { PASSWORD_MAX } from './auth';
import { text } from './common';
import { splitTags, uploadFieldsSchema } from './videos';

export const DELETE_ACCOUNT_MESSAGES = {
  passwordRequired: 'Current password is required',
  usernameRequired: 'Type your username to confirm',
  wrongUsername: 'That is not your username. Type it exactly as it is shown.',
  lastAdmin: 'You are the last admin. Make someone else an admin before deleting your account.',
  deleted: 'Your account has been deleted.',
} as const;

/** DELETE /api/users/settings/account: the current password and the username typed out. */
export const deleteAccountSchema = z.object({
  currentPassword: z.string({ error: DELETE_ACCOUNT_MESSAGES.passwordRequired }).min(1, DELETE_ACCOUNT_MESSAGES.passwordRequired).max(PASSWORD_MAX),
  username: text(DELETE_ACCOUNT_MESSAGES.usernameRequired).trim().min(1, DELETE_ACCOUNT_MESSAGES.usernameRequired).max(100, DELETE_ACCOUNT_MESSAGES.wrongUsername),
});

export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

const upload = uploadFieldsSchema.shape;

/** Tags as a list or as "a, b, c": trimmed, lower-case and unique, as at upload. */
const tags = z.preprocess(
  (value) => (typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')) ? splitTags(value as string | string[]) : value),
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
