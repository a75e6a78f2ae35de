'use client';

import { useEffect, useRef, useState } from 'react';

import { apiRequest } from '@/lib/client/api-client';

import { serverMessage } from './form-parts';

export const RESEND_COOLDOWN_SECONDS = 60;

/**
 * After an unverified login or a registration: tells the member to check
 * their email, with a resend button that unlocks after a 60-second countdown.
 */
export function VerificationPopup({
  email,
  onClose,
  failureFallback,
}: {
  email: string;
  onClose: () => void;
  /** The spec's fallback text differs between login and register. */
  failureFallback: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Counted against a deadline, so a throttled background tab still unlocks on time.
  const [deadline, setDeadline] = useState(() => Date.now() + RESEND_COOLDOWN_SECONDS * 1000);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((deadline - now) / 1000));
  const [status, setStatus] = useState<{ kind: 'idle' | 'sending' | 'sent' | 'error'; text?: string }>({ kind: 'idle' });

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [secondsLeft]);

  async function resend() {
    setStatus({ kind: 'sending', text: 'Sending verification email...' });
    try {
      const { message } = await apiRequest<{ message: string }>('/api/auth/resend-verification', { json: { email } });
      setStatus({ kind: 'sent', text: message });
      const restart = Date.now();
      setDeadline(restart + RESEND_COOLDOWN_SECONDS * 1000);
      setNow(restart);
    } catch (error) {
      setStatus({ kind: 'error', text: serverMessage(error, failureFallback) });
    }
  }

  return (
    <dialog ref={dialog} className="modal" aria-labelledby="verify-title" onClose={onClose}>
      <h2 id="verify-title">Check your email</h2>
      <p>
        We sent a verification link to <strong className="query">{email}</strong>. Open it to activate your account, then log in.
      </p>
      <p className="muted">Can’t find it? Look in your spam folder, or send a new link.</p>
      <div className="modal-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={resend}
          disabled={secondsLeft > 0 || status.kind === 'sending'}
        >
          {secondsLeft > 0 ? `Resend in ${secondsLeft}s` : 'Resend verification email'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p role="status" aria-live="polite" className={status.kind === 'error' ? 'form-error' : 'form-success'}>
        {status.text}
      </p>
    </dialog>
  );
}
