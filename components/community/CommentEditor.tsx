'use client';

import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';

import { ApiClientError } from '@/lib/client/api-client';
import { COMMENT_MAX, commentBodySchema, commentLength } from '@/lib/validation/community';

export interface CommentEditorProps {
  /** The visible label of the text box (also its accessible name). */
  label: string;
  submitLabel: string;
  busyLabel: string;
  initialBody?: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** Sends the checked text; throws to show the server's message. */
  onSubmit(body: string): Promise<void>;
  onCancel?(): void;
  /** Clear the box after a successful send (the new-comment form); the edit form closes instead. */
  resetOnSuccess?: boolean;
}

/** The comment form itself (CommentForm.tsx loads it): a comment text box with a character counter, the same checks as the server, and the server's messages. */
export function CommentEditor({
  label,
  submitLabel,
  busyLabel,
  initialBody = '',
  placeholder,
  autoFocus,
  onSubmit,
  onCancel,
  resetOnSuccess,
}: CommentEditorProps) {
  const id = useId();
  const [body, setBody] = useState(initialBody);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const length = commentLength(body.trim());
  const over = length > COMMENT_MAX;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const checked = commentBodySchema.safeParse({ body });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Write a comment first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(checked.data.body);
      if (resetOnSuccess) setBody('');
    } catch (caught) {
      setError(caught instanceof ApiClientError ? caught.message : 'Could not save the comment. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Ctrl+Enter or Cmd+Enter sends, as in most comment boxes; Escape leaves an edit.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
    if (event.key === 'Escape' && onCancel) onCancel();
  }

  return (
    <form className="comment-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-body`} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={`${id}-body`}
        name="body"
        value={body}
        placeholder={placeholder ?? label}
        rows={3}
        autoFocus={autoFocus}
        // Focused with text in it (an edit, a reply's @username): the caret goes after the text, where people go on typing.
        onFocus={(event) => {
          const end = event.currentTarget.value.length;
          if (event.currentTarget.selectionStart === 0 && event.currentTarget.selectionEnd === 0 && end > 0)
            event.currentTarget.setSelectionRange(end, end);
        }}
        aria-invalid={error || over ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          setBody(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      {error && (
        <p id={`${id}-error`} className="comment-error" role="alert">
          {error}
        </p>
      )}
      <div className="comment-form-row">
        <span id={`${id}-count`} className="comment-counter" data-over={over}>
          {length} / {COMMENT_MAX}
          <span className="visually-hidden"> characters</span>
        </span>
        <div className="comment-form-actions">
          {onCancel && (
            <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </div>
    </form>
  );
}
