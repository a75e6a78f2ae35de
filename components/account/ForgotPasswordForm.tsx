'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { apiRequest } from '@/lib/client/api-client';
import { forgotPasswordSchema } from '@/lib/validation/auth';

import { serverMessage, StatusLine, TextField, type Status } from './form-parts';

type Input = z.input<typeof forgotPasswordSchema>;

/** Asks for a reset link (the answer is the same whether or not the address has an account). */
export function ForgotPasswordForm({ submitLabel = 'Send me a reset link' }: { submitLabel?: string }) {
  const [status, setStatus] = useState<Status>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Input>({ resolver: zodResolver(forgotPasswordSchema), mode: 'onTouched' });

  const onSubmit = handleSubmit(async (values) => {
    setStatus({ ok: true, text: 'Sending the reset email...' });
    try {
      const { message } = await apiRequest<{ message: string }>('/api/auth/forgot-password', { json: values });
      setStatus({ ok: true, text: message });
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to send the reset email. Please try again.') });
    }
  });

  return (
    <form className="form-card" onSubmit={onSubmit} noValidate>
      <TextField
        id="forgot-email"
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <StatusLine status={status} />
      <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
        {isSubmitting ? 'Sending…' : submitLabel}
      </button>
      <p className="form-foot">
        Remembered it? <a href="/login">Log in</a>
      </p>
    </form>
  );
}
