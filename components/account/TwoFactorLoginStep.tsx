'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import { ApiClientError } from '@/lib/client/api-client';

import { serverMessage } from './form-parts';

import './two-factor.css';

/**
 * The second step of a login with two-factor on (decision 018): the code
 * from the authenticator app, or one of the recovery codes for a lost phone.
 * A challenge that expired or no longer fits sends the member back to the
 * password step with the server's sentence.
 */
export function TwoFactorLoginStep({
  challenge,
  onDone,
  onRestart,
}: {
  challenge: string;
  onDone: () => void;
  onRestart: () => void;
}) {
  const { completeTwoFactor } = useSession();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [restart, setRestart] = useState(false);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => field.current?.focus(), [useRecovery]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim())
      return setError(useRecovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code from your authenticator app.');
    setBusy(true);
    setError(null);
    try {
      await completeTwoFactor(challenge, code);
      onDone();
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to login'));
      if (failure instanceof ApiClientError && failure.data.restartLogin) setRestart(true);
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  const label = useRecovery ? 'Recovery code' : 'Authentication code';
  return (
    <form className="form-card" onSubmit={submit} noValidate aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="form-card-title">
        Two-factor authentication
      </h2>
      <p className="muted">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for this site.'}
      </p>
      <div className="field">
        <label htmlFor="login-code">{label}</label>
        <input
          ref={field}
          id="login-code"
          name="code"
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          pattern={useRecovery ? undefined : '[0-9 ]*'}
          maxLength={useRecovery ? 20 : 7}
          spellCheck={false}
          value={code}
          aria-invalid={Boolean(error)}
          aria-describedby="login-code-error"
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <p id="login-code-error" role="alert" className="form-error">
        {error}
      </p>
      {restart ? (
        <button type="button" className="btn btn-primary btn-block" onClick={onRestart}>
          Log in again
        </button>
      ) : (
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
      )}
      <p className="form-aside">
        <button
          type="button"
          className="btn-link"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setCode('');
            setError(null);
          }}
        >
          {useRecovery ? 'Use your authenticator app instead' : 'Lost your phone? Use a recovery code'}
        </button>
      </p>
    </form>
  );
}
