'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

import { serverMessage, StatusLine, TextField, type Status } from '@/components/account/form-parts';
import { apiRequest } from '@/lib/client/api-client';
import { consentWithdrawalSchema } from '@/lib/validation/performers';

import './withdraw.css';

type Input = z.input<typeof consentWithdrawalSchema>;

/**
 * The public withdrawal of consent (no account needed): the video's link,
 * the performer's legal name, date of birth, an email and a statement. The
 * answer is the same whether or not the video exists.
 */
export function WithdrawConsentForm({ initialVideo = '' }: { initialVideo?: string }) {
  const [status, setStatus] = useState<Status>(null);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Input>({
    resolver: zodResolver(consentWithdrawalSchema),
    mode: 'onTouched',
    defaultValues: { video: initialVideo },
  });

  const onSubmit = handleSubmit(async (values) => {
    setStatus({ ok: true, text: 'Sending your request…' });
    try {
      const { message } = await apiRequest<{ message: string }>('/api/consent-withdrawals', { json: values });
      setStatus({ ok: true, text: message });
      setSent(true);
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Your request could not be sent. Please try again.') });
    }
  });

  return (
    <form className="form-card withdraw-form" onSubmit={onSubmit} noValidate>
      <fieldset disabled={sent} className="withdraw-fields">
        <legend className="visually-hidden">Withdraw your consent</legend>
        <TextField
          id="withdraw-video"
          label="Link to the video"
          type="text"
          inputMode="url"
          autoComplete="off"
          placeholder="https://…/video/…"
          error={errors.video?.message}
          {...register('video')}
        />
        <TextField
          id="withdraw-name"
          label="Your legal name"
          type="text"
          autoComplete="name"
          error={errors.legalName?.message}
          {...register('legalName')}
        />
        <TextField
          id="withdraw-dob"
          label="Your date of birth"
          type="date"
          autoComplete="bday"
          error={errors.dateOfBirth?.message}
          {...register('dateOfBirth')}
        />
        <TextField
          id="withdraw-email"
          label="Email to reach you"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <div className="field">
          <label htmlFor="withdraw-statement">Your statement</label>
          <textarea
            id="withdraw-statement"
            rows={5}
            className="upload-textarea"
            placeholder="I appear in this video and I withdraw my consent to it being published."
            aria-invalid={Boolean(errors.statement)}
            aria-describedby="withdraw-statement-error"
            {...register('statement')}
          />
          <p id="withdraw-statement-error" className="field-error">
            {errors.statement?.message}
          </p>
        </div>
      </fieldset>
      <StatusLine status={status} />
      {!sent && (
        <button type="submit" className="btn btn-primary btn-block" disabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Withdraw my consent'}
        </button>
      )}
    </form>
  );
}
