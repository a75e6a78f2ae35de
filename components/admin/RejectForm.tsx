'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { DECISION_GROUNDS, GROUND_INFO, type DecisionGround } from '@/lib/trust/grounds';
import {
  DEFAULT_REJECTION_GROUND,
  REJECTION_REASON_MAX,
  REJECTION_TEMPLATE_GROUNDS,
  REJECTION_TEMPLATES,
} from '@/lib/validation/videos';

const REASON_REQUIRED = 'Give a reason for the rejection';

/**
 * The reason form under a video: a template fills the text, free text is
 * fine too, and a reason is required (the uploader reads it in their
 * notification). Focus moves into the text box on open and back to the
 * Reject button on cancel (the caller does that in onCancel).
 */
export function RejectForm({
  title,
  onSubmit,
  onCancel,
}: {
  title: string;
  onSubmit: (reason: string, ground: DecisionGround) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  // The rule the statement of reasons names; a quick reason picks its own.
  const [ground, setGround] = useState<DecisionGround>(DEFAULT_REJECTION_GROUND);
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
    onSubmit(trimmed, ground);
  }

  function pick(template: (typeof REJECTION_TEMPLATES)[number]) {
    setReason(template);
    setGround(REJECTION_TEMPLATE_GROUNDS[template]);
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
              <button
                type="button"
                className="admin-reason"
                aria-pressed={reason.trim() === template}
                onClick={() => pick(template)}
              >
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
      <div className="field">
        <label htmlFor={`${id}-ground`}>Rule or law it breaks (named in the uploader’s statement of reasons)</label>
        <select id={`${id}-ground`} value={ground} onChange={(event) => setGround(event.target.value as DecisionGround)}>
          {DECISION_GROUNDS.map((option) => (
            <option key={option} value={option}>
              {GROUND_INFO[option].kind === 'law' ? 'Law' : 'Standards'}: {GROUND_INFO[option].label}
            </option>
          ))}
        </select>
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
