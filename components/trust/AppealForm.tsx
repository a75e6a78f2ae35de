'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import { apiRequest } from '@/lib/client/api-client';
import { characterCount } from '@/lib/validation/common';
import { APPEAL_MESSAGES, APPEAL_STATEMENT_MAX } from '@/lib/validation/trust';

/**
 * The appeal form under a statement of reasons. The emailed link's key
 * (e, k) is sent along when the reader came through it, so a member who
 * cannot log in (banned) can still appeal. The server decides everything;
 * this only checks the statement is there and not too long, so nothing
 * typed is lost to a round trip.
 */
export function AppealForm({ decisionId, linkKey }: { decisionId: string; linkKey?: { e: string; k: string } }) {
  const router = useRouter();
  const id = useId();
  const [statement, setStatement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const length = characterCount(statement);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = statement.trim();
    const problem = !trimmed
      ? APPEAL_MESSAGES.statementRequired
      : characterCount(trimmed) > APPEAL_STATEMENT_MAX
        ? APPEAL_MESSAGES.statementTooLong
        : null;
    setError(problem);
    if (problem) return;
    setBusy(true);
    setStatus({ ok: true, text: 'Sending…' });
    try {
      const answer = await apiRequest<{ message: string }>(`/api/decisions/${decisionId}/appeal`, {
        method: 'POST',
        json: { statement: trimmed, ...linkKey },
      });
      setStatus({ ok: true, text: answer.message });
      setStatement('');
      router.refresh();
    } catch (failure) {
      setStatus({ ok: false, text: serverMessage(failure, 'Your appeal could not be sent. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="appeal-form" onSubmit={submit} noValidate aria-label="Appeal this decision">
      <div className="field">
        <label htmlFor={`${id}-statement`}>Why is this decision wrong?</label>
        <textarea
          id={`${id}-statement`}
          rows={6}
          value={statement}
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-hint ${id}-error`}
          onChange={(event) => {
            setStatement(event.target.value);
            if (error) setError(null);
          }}
        />
        <p id={`${id}-hint`} className={`field-hint${length > APPEAL_STATEMENT_MAX ? ' field-hint-over' : ''}`}>
          {length} / {APPEAL_STATEMENT_MAX} characters. Say what the decision got wrong and add anything the reviewer should know.
        </p>
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      </div>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Send appeal
      </button>
      <StatusLine status={status} />
    </form>
  );
}
