'use client';

import type { InputHTMLAttributes, Ref } from 'react';

import { ApiClientError } from '@/lib/client/api-client';

/**
 * The server's message when it wrote one, else the spec's fallback text for
 * that form: a network error, a timeout, or an answer that is not ours (a
 * proxy's 502 HTML page) all show the fallback.
 */
export function serverMessage(error: unknown, fallback: string): string {
  return (error instanceof ApiClientError && error.serverMessage) || fallback;
}

/** A labelled input with its error line, wired for screen readers (spread react-hook-form's register() into it). */
export function TextField({
  id,
  label,
  error,
  ref,
  ...props
}: { id: string; label: string; error?: string; ref?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} aria-invalid={Boolean(error)} aria-describedby={`${id}-error`} {...props} />
      <p id={`${id}-error`} className="field-error">
        {error}
      </p>
    </div>
  );
}

export type Status = { ok: boolean; text: string } | null;

/** Progress, success or failure of a form, announced politely. */
export function StatusLine({ status }: { status: Status }) {
  return (
    <p role="status" aria-live="polite" className={status?.ok === false ? 'form-error' : 'form-success'}>
      {status?.text}
    </p>
  );
}
