/**
 * Account schemas shared by the forms (react-hook-form resolvers), the API
 * and the tests. Messages are the specification's (section 5), word for word.
 */
import { z } from '@/lib/validation/zod';

import { text } from './common';

export const MIN_AGE = 18;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 6;
/** argon2 hashes any length; the cap only stops multi-megabyte "passwords". */
export const PASSWORD_MAX = 128;

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Invalid email address')
  .pipe(z.email('Invalid email address'))
  .transform((value) => value.toLowerCase());

const requiredPassword = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

const newPassword = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** Names that are fixed paths beside /api/users/{username} ("me" is already too short). */
export const RESERVED_USERNAMES: readonly string[] = ['settings', 'complete-task'];

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .min(USERNAME_MIN, `Username must be at least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username can only contain letters, numbers, underscores (_), dots (.) and hyphens (-)')
  .refine((name) => !RESERVED_USERNAMES.includes(name.toLowerCase()), 'That username is not available. Please choose another.');

/** Today's date as YYYY-MM-DD in UTC (servers) or local time (browsers), for age checks. */
export function todayIso(now = new Date(), local = false): string {
  const y = local ? now.getFullYear() : now.getUTCFullYear();
  const m = (local ? now.getMonth() : now.getUTCMonth()) + 1;
  const d = local ? now.getDate() : now.getUTCDate();
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Whole years between a YYYY-MM-DD birth date and a YYYY-MM-DD day. */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

function isRealDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getUTCFullYear() >= 1900;
}

export const dateOfBirthSchema = (today: () => string = () => todayIso()) =>
  z
    .string({ error: 'Date of birth is required' })
    .trim()
    .min(1, 'Date of birth is required')
    .refine(isRealDate, 'Enter a valid date of birth')
    .refine((value) => !isRealDate(value) || value <= today(), 'Date of birth cannot be in the future')
    .refine(
      (value) => !isRealDate(value) || value > today() || ageOn(value, today()) >= MIN_AGE,
      'You must be at least 18 years old',
    );

export const loginSchema = z.object({
  email,
  password: requiredPassword,
});
export type LoginInput = z.infer<typeof loginSchema>;

const confirmedPassword = (v: { password: string; confirmPassword: string }) =>
  !v.confirmPassword || v.password === v.confirmPassword;
const PASSWORDS_MUST_MATCH = { path: ['confirmPassword'], message: 'Passwords must match' };

/** Registration fields (the optional profile photo travels beside them as a file). */
export const registerSchema = (today?: () => string) =>
  z
    .object({
      username: usernameSchema,
      email,
      password: newPassword,
      confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
      dateOfBirth: dateOfBirthSchema(today),
    })
    .refine(confirmedPassword, PASSWORDS_MUST_MATCH);
export type RegisterInput = z.infer<ReturnType<typeof registerSchema>>;

export const resendVerificationSchema = z.object({ email });

export const preferencesSchema = z.object({
  autoPlayVideos: z.boolean({ error: 'autoPlayVideos must be true or false' }),
});

const currentPassword = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(PASSWORD_MAX);

const changeEmailFields = z.object({ currentPassword, newEmail: email, confirmNewEmail: email });
const emailsMatch = (v: z.infer<typeof changeEmailFields>) => v.newEmail === v.confirmNewEmail;

/** PUT /api/users/settings/email. */
export const changeEmailSchema = changeEmailFields.refine(emailsMatch, {
  path: ['confirmNewEmail'],
  message: 'New emails do not match.',
});
/** The settings form: the same fields and rules, with the spec's inline message for a mismatch. */
export const changeEmailFormSchema = changeEmailFields
  .extend({ confirmNewEmail: z.string().trim().min(1, 'Please confirm your new email').pipe(email) })
  .refine(emailsMatch, { path: ['confirmNewEmail'], message: 'Emails do not match.' });

const changePasswordFields = z.object({
  currentPassword,
  newPassword,
  confirmNewPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
});
const passwordsMatch = (v: z.infer<typeof changePasswordFields>) => v.newPassword === v.confirmNewPassword;

/** PUT /api/users/settings/password. */
export const changePasswordSchema = changePasswordFields.refine(passwordsMatch, {
  path: ['confirmNewPassword'],
  message: 'New passwords do not match.',
});
/** The settings form: the same fields and rules, with the spec's inline message for a mismatch. */
export const changePasswordFormSchema = changePasswordFields.refine(passwordsMatch, {
  path: ['confirmNewPassword'],
  message: 'Passwords do not match.',
});

/** What a reset answers, and what the login page says after one. */
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please log in with your new password.';

/** POST /api/auth/forgot-password: the address to send a reset link to. */
export const forgotPasswordSchema = z.object({ email });

/** A reset token as mailed (43 base64url characters); anything else is a forged link. */
export const RESET_TOKEN_MAX = 200;

const resetPasswordFields = z.object({
  token: text().max(RESET_TOKEN_MAX, 'This password reset link is not valid.'),
  password: newPassword,
  confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
});

/** POST /api/auth/reset-password: the link's token and the new password, with the sign-up rules and messages. */
export const resetPasswordSchema = resetPasswordFields.refine(confirmedPassword, PASSWORDS_MUST_MATCH);
/** The reset form: the same fields without the token, which the page holds. */
export const resetPasswordFormSchema = resetPasswordFields.omit({ token: true }).refine(confirmedPassword, PASSWORDS_MUST_MATCH);
export type ResetPasswordFormInput = z.infer<typeof resetPasswordFormSchema>;
