'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { apiRequest } from '@/lib/client/api-client';
import { resendVerificationSchema } from '@/lib/validation/auth';

import { serverMessage, StatusLine, TextField, type Status } from './form-parts';

type Input = z.input<typeof resendVerificationSchema>;

export function ResendVerificationForm() {
  const email = useSearchParams().get('email') ?? '';
  const [status, setStatus] = useState<Status>(null);
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
      setStatus({ ok: false, text: serverMessage(error, 'Failed to resend verification email') });
    }
  });

  return (
    <form className="form-card" onSubmit={onSubmit} noValidate>
      <TextField
        id="resend-email"
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <StatusLine status={status} />
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
        Send a new verification link
      </button>
    </form>
  );
}
