/**
 * Two-factor authentication inputs (decision 018), shared by the forms, the
 * API and the tests. A code is a 6-digit authenticator code or a recovery
 * code (xxxxx-xxxxx); spaces are ignored, so "123 456" works as typed.
 */
import { z } from '@/lib/validation/zod';

import { PASSWORD_MAX } from './auth';
import { text } from './common';

export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  codeFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code like abcde-23456.',
  totpRequired: 'Enter the 6-digit code from your authenticator app.',
  challengeRequired: 'This login could not be continued. Please log in again with your email and password.',
  currentPasswordRequired: 'Current password is required',
} as const;

/** A 6-digit code or a recovery code (10 letters and digits, any case, hyphens and spaces allowed). */
export const twoFactorCode = text(TWO_FACTOR_MESSAGES.codeRequired)
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .max(32, TWO_FACTOR_MESSAGES.codeFormat)
      .regex(/^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, TWO_FACTOR_MESSAGES.codeFormat),
  );

/** Only an authenticator code (confirming setup, new recovery codes): proving the app works. */
export const totpCode = text(TWO_FACTOR_MESSAGES.totpRequired)
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.totpRequired));

/** POST /api/auth/login/two-factor: the challenge the password step returned, and a code. */
export const twoFactorLoginSchema = z.object({
  challenge: z
    .string({ error: TWO_FACTOR_MESSAGES.challengeRequired })
    .min(1, TWO_FACTOR_MESSAGES.challengeRequired)
    .max(4096, TWO_FACTOR_MESSAGES.challengeRequired),
  code: twoFactorCode,
});
export type TwoFactorLoginInput = z.infer<typeof twoFactorLoginSchema>;

/**
 * Every change to two-factor asks for the current password as well as the
 * session (a stolen cookie or token alone must not turn it on, which would
 * lock the owner out, nor replace or remove it).
 */
const currentPassword = z
  .string({ error: TWO_FACTOR_MESSAGES.currentPasswordRequired })
  .min(1, TWO_FACTOR_MESSAGES.currentPasswordRequired)
  .max(PASSWORD_MAX);

/** POST /api/users/settings/two-factor/setup. */
export const twoFactorSetupSchema = z.object({ currentPassword });
export type TwoFactorSetupInput = z.infer<typeof twoFactorSetupSchema>;

/** POST /api/users/settings/two-factor/confirm and …/recovery-codes: the password and a code from the app. */
export const totpCodeSchema = z.object({ currentPassword, code: totpCode });
export type TotpCodeInput = z.infer<typeof totpCodeSchema>;

/** DELETE /api/users/settings/two-factor: the password and a code (a recovery code too, for a lost authenticator). */
export const disableTwoFactorSchema = z.object({ currentPassword, code: twoFactorCode });
export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorSchema>;

/** DELETE /api/users/settings/sessions: end every other session, or all of them (this one too). */
export const endSessionsSchema = z.object({
  which: z.enum(['others', 'all'], { error: 'Choose whether to end your other sessions or all of them.' }),
});
export type EndSessionsInput = z.infer<typeof endSessionsSchema>;
