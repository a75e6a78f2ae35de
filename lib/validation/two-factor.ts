/**
 * Two-factor authentication inputs (decision 018), shared by the forms, the
 * API and the tests. A code is a 6-digit authenticator code or a recovery
 * code (xxxxx-xxxxx); spaces are ignored, so "123 456" works as typed.
 */
import { z } from '@/lib/validation/zod';

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
  challenge: z.string({ error: TWO_FACTOR_MESSAGES.challengeRequired }).min(1, TWO_FACTOR_MESSAGES.challengeRequired).max(4096, TWO_FACTOR_MESSAGES.challengeRequired),
  code: twoFactorCode,
});
export type TwoFactorLoginInput = z.infer<typeof twoFactorLoginSchema>;

/** POST /api/users/settings/two-factor/confirm and …/recovery-codes. */
export const totpCodeSchema = z.object({ code: totpCode });
export type TotpCodeInput = z.infer<typeof totpCodeSchema>;

/** DELETE /api/users/settings/two-factor: the password and a code (a recovery code too, for a lost authenticator). */
export const disableTwoFactorSchema = z.object({
  currentPassword: z.string({ error: TWO_FACTOR_MESSAGES.currentPasswordRequired }).min(1, TWO_FACTOR_MESSAGES.currentPasswordRequired).max(128),
  code: twoFactorCode,
});
export type DisableTwoFactorInput = z.infer<typeof disableTwoFactorSchema>;
