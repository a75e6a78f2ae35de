'use client';

import { useId, useState, type FormEvent } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import { apiRequest } from '@/lib/client/http';

import { serverMessage, StatusLine, type Status } from './form-parts';

import './two-factor.css';

/** GET /api/users/settings/two-factor (lib/server/accounts/two-factor.ts). */
interface TwoFactorStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  required: boolean;
  sessionPassed: boolean;
  adminGap: 'enrol' | 'login' | null;
}

interface Setup {
  secret: string;
  uri: string;
  qr: { size: number; path: string };
}

const STATUS_PATH = '/api/users/settings/two-factor';

/** The QR code as drawn by the server's module path, with the quiet zone scanners need, dark on white. */
function QrCode({ qr, label }: { qr: Setup['qr']; label: string }) {
  const margin = 4;
  const side = qr.size + margin * 2;
  return (
    <svg className="two-factor-qr" viewBox={`${-margin} ${-margin} ${side} ${side}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect x={-margin} y={-margin} width={side} height={side} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/** Recovery codes, shown once: a list to copy or write down. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="two-factor-codes-box">
      <p>
        <strong>Your recovery codes.</strong> Each one logs you in once if you lose your phone. Save them somewhere safe now: they will not be shown again.
      </p>
      <ol className="two-factor-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}

function CodeField({ id, label, value, onChange, recovery = false }: { id: string; label: string; value: string; onChange: (value: string) => void; recovery?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        maxLength={recovery ? 20 : 7}
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/**
 * Two-factor authentication in Settings, under Security (decision 018): set
 * up with a QR code or the secret as text, confirmed with a code; recovery
 * codes shown once; new codes for a code; off with the password and a code
 * (never for admins, who must keep it).
 */
export function TwoFactorSettings() {
  const id = useId();
  const { logout } = useSession();
  const { data, error: loadError, mutate } = useSWR(STATUS_PATH, (url: string) => apiRequest<TwoFactorStatus>(url), { revalidateOnFocus: false });
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [offCode, setOffCode] = useState('');
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setStatus(null);
    try {
      await work();
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Something went wrong. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      setCodes(null);
      setSetup(await apiRequest<Setup>(`${STATUS_PATH}/setup`, { method: 'POST' }));
    });

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const result = await apiRequest<{ message: string; recoveryCodes: string[] }>(`${STATUS_PATH}/confirm`, { json: { code } });
      setSetup(null);
      setCode('');
      setCodes(result.recoveryCodes);
      setStatus({ ok: true, text: result.message });
      await mutate();
    });
  };

  const regenerate = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const result = await apiRequest<{ message: string; recoveryCodes: string[] }>(`${STATUS_PATH}/recovery-codes`, { json: { code } });
      setCode('');
      setCodes(result.recoveryCodes);
      setStatus({ ok: true, text: result.message });
      await mutate();
    });
  };

  const turnOff = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const result = await apiRequest<{ message: string }>(STATUS_PATH, { method: 'DELETE', json: { currentPassword: password, code: offCode } });
      setPassword('');
      setOffCode('');
      setCodes(null);
      setStatus({ ok: true, text: result.message });
      await mutate();
    });
  };

  const logInAgain = () => logout('/login?next=%2Fadmin');

  if (!data) {
    return <p className="muted">{loadError ? serverMessage(loadError, 'Could not load your security settings.') : 'Loading…'}</p>;
  }

  return (
    <div className="two-factor">
      {data.adminGap === 'enrol' && (
        <p className="two-factor-notice" role="note">
          You are an admin: turn on two-factor authentication to use the admin panel, then log in again with a code.
        </p>
      )}
      {data.adminGap === 'login' && (
        <div className="two-factor-notice" role="note">
          <p>This session was started without your two-factor code. Log in again with a code to use the admin panel.</p>
          <button type="button" className="btn btn-primary" onClick={logInAgain}>
            Log in again
          </button>
        </div>
      )}
      <p>
        Two-factor authentication is <strong>{data.enabled ? 'on' : 'off'}</strong>.
        {data.enabled
          ? ` You have ${data.recoveryCodesLeft} unused recovery code${data.recoveryCodesLeft === 1 ? '' : 's'}.`
          : ' With it on, logging in needs your password and a code from an authenticator app on your phone.'}
      </p>

      {codes && <RecoveryCodes codes={codes} />}

      {!data.enabled && !setup && (
        <button type="button" className="btn btn-primary" onClick={start} disabled={busy}>
          Set up two-factor authentication
        </button>
      )}

      {!data.enabled && setup && (
        <form onSubmit={confirm} noValidate className="two-factor-setup">
          <p>1. Scan this QR code with an authenticator app (such as Aegis, Google Authenticator, 1Password or Authy).</p>
          <QrCode qr={setup.qr} label="QR code for your authenticator app" />
          <p>
            Or enter this key by hand: <code className="two-factor-secret" data-secret={setup.secret}>{setup.secret.match(/.{1,4}/g)?.join(' ')}</code>
          </p>
          <p>2. Enter the 6-digit code the app shows to turn two-factor authentication on.</p>
          <CodeField id={`${id}-confirm`} label="Code from the app" value={code} onChange={setCode} />
          <div className="two-factor-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Turn on
            </button>
            <button type="button" className="btn btn-quiet" onClick={() => setSetup(null)} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      )}

      {data.enabled && (
        <form onSubmit={regenerate} noValidate className="two-factor-form">
          <h4>New recovery codes</h4>
          <p className="muted">Replaces all your recovery codes; the old ones stop working.</p>
          <CodeField id={`${id}-regenerate`} label="Code from the app" value={code} onChange={setCode} />
          <button type="submit" className="btn btn-quiet" disabled={busy}>
            Get new recovery codes
          </button>
        </form>
      )}

      {data.enabled && data.required && <p className="muted">Admins must keep two-factor authentication on.</p>}

      {data.enabled && !data.required && (
        <form onSubmit={turnOff} noValidate className="two-factor-form">
          <h4>Turn off</h4>
          <div className="field">
            <label htmlFor={`${id}-password`}>Current password</label>
            <input id={`${id}-password`} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
          </div>
          <CodeField id={`${id}-off`} label="Code from the app or a recovery code" value={offCode} onChange={setOffCode} recovery />
          <button type="submit" className="btn btn-quiet" disabled={busy}>
            Turn off two-factor authentication
          </button>
        </form>
      )}
      <StatusLine status={status} />
    </div>
  );
}
