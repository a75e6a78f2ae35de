'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { REJECTION_REASON_MAX, REJECTION_TEMPLATES } from '@/lib/validation/videos';

const REASON_REQUIRED = 'Give a reason for the rejection';

/**
 * The reason form under a video: a template fills the text, free text is
 * fine too, and a reason is required (the uploader reads it in their
 * notification). Focus moves into the text box on open and back to the
 * Reject button on cancel (the caller does that in onCancel).
 */
export function RejectForm({ title, onSubmit, onCancel }: { title: string; onSubmit: (reason: string) => void; onCancel: () => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  useEffect(() => textarea.current?.focus(), []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(REASON_REQUIRED);
      textarea.current?.focus();
      return;
    }
    onSubmit(trimmed);
  }

  function pick(template: string) {
    setReason(template);
    setError(null);
    textarea.current?.focus();
  }

  return (
    <form
      className="admin-reject-form"
      onSubmit={submit}
      noValidate
      aria-label={`Reject ${title}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <fieldset className="admin-reasons">
        <legend>Quick reasons</legend>
        <ul>
          {REJECTION_TEMPLATES.map((template) => (
            <li key={template}>
              <button type="button" className="admin-reason" aria-pressed={reason.trim() === template} onClick={() => pick(template)}>
                {template}
              </button>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason for rejection (the uploader sees this)</label>
        <textarea
          id={`${id}-reason`}
          ref={textarea}
          rows={3}
          required
          maxLength={REJECTION_REASON_MAX}
          value={reason}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-error`}
          onChange={(event) => {
            setReason(event.target.value);
            if (error && event.target.value.trim()) setError(null);
          }}
        />
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      </div>
      <div className="admin-actions">
        <button type="submit" className="btn admin-btn-reject" aria-label={`Confirm rejection of ${title}`}>
          Reject video
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
