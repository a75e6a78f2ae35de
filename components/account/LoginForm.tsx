'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';

import { useSession } from '@/components/session/SessionProvider';
import { ApiClientError } from '@/lib/client/api-client';
import { safeReturnPath } from '@/lib/return-path';
import { loginSchema, PASSWORD_RESET_MESSAGE, type LoginInput } from '@/lib/validation/auth';

import { serverMessage, TextField } from './form-parts';
import { TwoFactorLoginStep } from './TwoFactorLoginStep';
import { VerificationPopup } from './VerificationPopup';

export function LoginForm() {
  const { login } = useSession();
  // Set when the password was right and the account has two-factor on: the form asks for the code next.
  const [challenge, setChallenge] = useState<string | null>(null);
  const router = useRouter();
  const searchParams = useSearchParams();
  const next = safeReturnPath(searchParams.get('next'));
  // A fragment the browser kept through the redirect to log in (/settings#data from an email) goes on with the member.
  const destination = () => (next.includes('#') ? next : `${next}${window.location.hash}`);
  // Arrived from a password reset (ResetPasswordForm): every session ended, so the member logs in with the new password.
  const justReset = searchParams.get('reset') === 'done';
  const [formError, setFormError] = useState<string | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), mode: 'onTouched' });

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setFormError(null);
    try {
      const result = await login(email, password);
      if ('twoFactorRequired' in result) return setChallenge(result.challenge);
      router.push(destination());
      router.refresh();
    } catch (error) {
      if (error instanceof ApiClientError && error.data.needsVerification) setUnverifiedEmail(email);
      else setFormError(serverMessage(error, 'Failed to login'));
    }
  });

  if (challenge) {
    return (
      <TwoFactorLoginStep
        challenge={challenge}
        onDone={() => {
          router.push(destination());
          router.refresh();
        }}
        onRestart={() => setChallenge(null)}
      />
    );
  }

  return (
    <>
      <form className="form-card" onSubmit={onSubmit} noValidate>
        {justReset && (
          <p role="status" className="form-success">
            {PASSWORD_RESET_MESSAGE}
          </p>
        )}
        <TextField
          id="login-email"
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <p className="form-aside">
          <a href="/forgot-password">Forgot password?</a>
        </p>
        <p role="alert" className="form-error">
          {formError}
        </p>
        <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
          {isSubmitting ? 'Logging in…' : 'Log in'}
        </button>
        <p className="form-foot">
          New here? <a href={next === '/' ? '/register' : `/register?next=${encodeURIComponent(next)}`}>Create an account</a>
        </p>
      </form>
      {unverifiedEmail && (
        <VerificationPopup
          email={unverifiedEmail}
          onClose={() => setUnverifiedEmail(null)}
          failureFallback="Unknown error occurred. Please try again."
        />
      )}
    </>
  );
}
