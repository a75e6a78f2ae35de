'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { ApiClientError, apiRequest } from '@/lib/client/api-client';
import { resetPasswordFormSchema, type ResetPasswordFormInput } from '@/lib/validation/auth';

import { ForgotPasswordForm } from './ForgotPasswordForm';
import { serverMessage, TextField } from './form-parts';

/** Where a successful reset lands: the login page, which says the password changed. */
export const AFTER_RESET_PATH = '/login?reset=done';

/**
 * The new password, twice, with the sign-up rules. On success every session
 * has ended (this browser's too), so the page is loaded afresh at the login
 * form, where the browser can also offer to save the new password. A link
 * that turns out used or expired meanwhile offers a new one in place.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [deadLink, setDeadLink] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordFormInput>({ resolver: zodResolver(resetPasswordFormSchema), mode: 'onTouched' });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await apiRequest('/api/auth/reset-password', { json: { token, ...values } });
      setSaved(true);
      // A full load on purpose: every session ended, and the session provider must start afresh (a stored token is now refused and dropped).
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(AFTER_RESET_PATH);
    } catch (error) {
      if (error instanceof ApiClientError && error.data.field === 'token') setDeadLink(error.message);
      else setFormError(serverMessage(error, 'Failed to reset your password. Please try again.'));
    }
  });

  if (deadLink) {
    return (
      <>
        <p role="alert" className="form-error">
          {deadLink}
        </p>
        <ForgotPasswordForm submitLabel="Send me a new link" />
      </>
    );
  }
  return (
    <form className="form-card" onSubmit={onSubmit} noValidate>
      <TextField
        id="reset-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        id="reset-confirm-password"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <p role="alert" className="form-error">
        {formError}
      </p>
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting || saved}>
        {isSubmitting || saved ? 'Saving…' : 'Save my new password'}
      </button>
    </form>
  );
}
