/** Deleting an account: shared by the form, the API and the tests. */
import { z } from '@/lib/validation/zod';

import { PASSWORD_MAX } from './auth';
import { text } from './common';

export const DELETE_ACCOUNT_MESSAGES = {
  passwordRequired: 'Current password is required',
  usernameRequired: 'Type your username to confirm',
  wrongUsername: 'That is not your username. Type it exactly as it is shown.',
  lastAdmin: 'You are the last admin. Make someone else an admin before deleting your account.',
  deleted: 'Your account has been deleted.',
} as const;

/** DELETE /api/users/settings/account: the current password and the username typed out. */
export const deleteAccountSchema = z.object({
  currentPassword: z
    .string({ error: DELETE_ACCOUNT_MESSAGES.passwordRequired })
    .min(1, DELETE_ACCOUNT_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX),
  username: text(DELETE_ACCOUNT_MESSAGES.usernameRequired)
    .trim()
    .min(1, DELETE_ACCOUNT_MESSAGES.usernameRequired)
    .max(100, DELETE_ACCOUNT_MESSAGES.wrongUsername),
});

export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
