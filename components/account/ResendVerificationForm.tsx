'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { apiRequest, ApiClientError } from '@/lib/client/http';
import { resendVerificationSchema } from '@/lib/validation/auth';

type Input = z.input<typeof resendVerificationSchema>;

export function ResendVerificationForm() {
  const email = useSearchParams().get('email') ?? '';
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Input>({ resolver: zodResolver(resendVerificationSchema), defaultValues: { email } });

  const onSubmit = handleSubmit(async (values) => {
    setStatus({ ok: true, text: 'Sending verification email...' });
    try {
      const { message } = await apiRequest<{ message: string }>('/api/auth/resend-verification', { json: values });
      setStatus({ ok: true, text: message });
    } catch (error) {
      setStatus({ ok: false, text: error instanceof ApiClientError && error.status ? error.message : 'Failed to resend verification email' });
    }
  });

  return (
    <form className="form-card" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="resend-email">Email</label>
        <input id="resend-email" type="email" autoComplete="email" aria-invalid={Boolean(errors.email)} aria-describedby="resend-email-error" {...register('email')} />
        <p id="resend-email-error" className="field-error">{errors.email?.message}</p>
      </div>
      <p role="status" aria-live="polite" className={status?.ok === false ? 'form-error' : 'form-success'}>
        {status?.text}
      </p>
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
        Send a new verification link
      </button>
    </form>
  );
}
