'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormRegisterReturn, type UseFormSetError } from 'react-hook-form';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import { apiRequest, ApiClientError } from '@/lib/client/api-client';
import { disableTwoFactorSchema, totpCodeSchema, twoFactorSetupSchema } from '@/lib/validation/two-factor';
import type { z } from '@/lib/validation/zod';

import { serverMessage, StatusLine, TextField, type Status } from './form-parts';

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
    <svg
      className="two-factor-qr"
      viewBox={`${-margin} ${-margin} ${side} ${side}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
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
        <strong>Your recovery codes.</strong> Each one logs you in once if you lose your phone. Save them somewhere safe now: they
        will not be shown again.
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

const confirmSchema = totpCodeSchema.pick({ code: true });

/**
 * A refusal from the server: on the field it names (a wrong password, a wrong
 * code) when the form has that field, else on the form's status line.
 */
function showRefusal<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  setStatus: (status: Status) => void,
) {
  const field = error instanceof ApiClientError ? (error.data.field as Path<T> | undefined) : undefined;
  if (field && fields.includes(field))
    return setError(field, { type: 'server', message: (error as Error).message }, { shouldFocus: true });
  setStatus({ ok: false, text: serverMessage(error, 'Something went wrong. Please try again.') });
}

function PasswordField({ id, error, ...props }: { id: string; error?: string } & UseFormRegisterReturn) {
  return <TextField id={id} label="Current password" type="password" autoComplete="current-password" error={error} {...props} />;
}

function CodeField({
  id,
  label,
  error,
  recovery = false,
  ...props
}: { id: string; label: string; error?: string; recovery?: boolean } & UseFormRegisterReturn) {
  return (
    <TextField
      id={id}
      label={label}
      autoComplete="one-time-code"
      inputMode={recovery ? 'text' : 'numeric'}
      maxLength={recovery ? 20 : 7}
      spellCheck={false}
      error={error}
      {...props}
    />
  );
}

interface Result {
  message: string;
  recoveryCodes?: string[];
}

/**
 * Two-factor authentication in Settings, under Security (decision 018): set
 * up with a QR code or the secret as text, confirmed with a code; recovery
 * codes shown once; new codes for a code; off with a code (never for admins,
 * who must keep it). Every change asks for the current password: a session
 * alone (a stolen cookie or token) changes nothing. The password given to
 * start a setup is kept with it for its confirmation, so it is typed once.
 */
export function TwoFactorSettings() {
  const id = useId();
  const { logout } = useSession();
  const {
    data,
    error: loadError,
    mutate,
  } = useSWR(STATUS_PATH, (url: string) => apiRequest<TwoFactorStatus>(url), { revalidateOnFocus: false });
  // The setup waiting for its code, with the password that started it (sent again with the code).
  const [setup, setSetup] = useState<(Setup & { currentPassword: string }) | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [status, setStatus] = useState<Status>(null);

  const startForm = useForm<z.input<typeof twoFactorSetupSchema>>({
    resolver: zodResolver(twoFactorSetupSchema),
    defaultValues: { currentPassword: '' },
  });
  const confirmForm = useForm<z.input<typeof confirmSchema>>({
    resolver: zodResolver(confirmSchema),
    defaultValues: { code: '' },
  });
  const regenerateForm = useForm<z.input<typeof totpCodeSchema>>({
    resolver: zodResolver(totpCodeSchema),
    defaultValues: { currentPassword: '', code: '' },
  });
  const offForm = useForm<z.input<typeof disableTwoFactorSchema>>({
    resolver: zodResolver(disableTwoFactorSchema),
    defaultValues: { currentPassword: '', code: '' },
  });

  function done(result: Result) {
    setCodes(result.recoveryCodes ?? null);
    setStatus({ ok: true, text: result.message });
    return mutate();
  }

  const start = startForm.handleSubmit(async (values) => {
    setStatus(null);
    setCodes(null);
    try {
      setSetup({
        ...(await apiRequest<Setup>(`${STATUS_PATH}/setup`, { json: values })),
        currentPassword: values.currentPassword,
      });
      startForm.reset();
    } catch (error) {
      showRefusal(error, ['currentPassword'], startForm.setError, setStatus);
    }
  });

  const cancelSetup = () => {
    setSetup(null);
    confirmForm.reset();
  };

  const confirm = confirmForm.handleSubmit(async (values) => {
    if (!setup) return;
    setStatus(null);
    try {
      const result = await apiRequest<Result>(`${STATUS_PATH}/confirm`, {
        json: { currentPassword: setup.currentPassword, code: values.code },
      });
      cancelSetup();
      await done(result);
    } catch (error) {
      // The password was right a moment ago; if it is refused now (changed meanwhile), the setup starts over.
      if (error instanceof ApiClientError && error.data.field === 'currentPassword') cancelSetup();
      showRefusal(error, ['code'], confirmForm.setError, setStatus);
    }
  });

  const regenerate = regenerateForm.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const result = await apiRequest<Result>(`${STATUS_PATH}/recovery-codes`, { json: values });
      regenerateForm.reset();
      await done(result);
    } catch (error) {
      showRefusal(error, ['currentPassword', 'code'], regenerateForm.setError, setStatus);
    }
  });

  const turnOff = offForm.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const result = await apiRequest<Result>(STATUS_PATH, { method: 'DELETE', json: values });
      offForm.reset();
      await done(result);
    } catch (error) {
      showRefusal(error, ['currentPassword', 'code'], offForm.setError, setStatus);
    }
  });

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
        <form onSubmit={start} noValidate className="two-factor-form" aria-label="Set up two-factor authentication">
          <PasswordField
            id={`${id}-start-password`}
            error={startForm.formState.errors.currentPassword?.message}
            {...startForm.register('currentPassword')}
          />
          <button type="submit" className="btn btn-primary" disabled={startForm.formState.isSubmitting}>
            Set up two-factor authentication
          </button>
        </form>
      )}

      {!data.enabled && setup && (
        <form onSubmit={confirm} noValidate className="two-factor-setup" aria-label="Confirm two-factor authentication">
          <p>1. Scan this QR code with an authenticator app (such as Aegis, Google Authenticator, 1Password or Authy).</p>
          <QrCode qr={setup.qr} label="QR code for your authenticator app" />
          <p>
            Or enter this key by hand:{' '}
            <code className="two-factor-secret" data-secret={setup.secret}>
              {setup.secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </p>
          <p>2. Enter the 6-digit code the app shows to turn two-factor authentication on.</p>
          <CodeField
            id={`${id}-confirm`}
            label="Code from the app"
            error={confirmForm.formState.errors.code?.message}
            {...confirmForm.register('code')}
          />
          <div className="two-factor-actions">
            <button type="submit" className="btn btn-primary" disabled={confirmForm.formState.isSubmitting}>
              Turn on
            </button>
            <button type="button" className="btn btn-quiet" onClick={cancelSetup} disabled={confirmForm.formState.isSubmitting}>
              Cancel
            </button>
          </div>
        </form>
      )}

      {data.enabled && (
        <form onSubmit={regenerate} noValidate className="two-factor-form" aria-label="New recovery codes">
          <h4>New recovery codes</h4>
          <p className="muted">Replaces all your recovery codes; the old ones stop working.</p>
          <PasswordField
            id={`${id}-regenerate-password`}
            error={regenerateForm.formState.errors.currentPassword?.message}
            {...regenerateForm.register('currentPassword')}
          />
          <CodeField
            id={`${id}-regenerate`}
            label="Code from the app"
            error={regenerateForm.formState.errors.code?.message}
            {...regenerateForm.register('code')}
          />
          <button type="submit" className="btn btn-quiet" disabled={regenerateForm.formState.isSubmitting}>
            Get new recovery codes
          </button>
        </form>
      )}

      {data.enabled && data.required && <p className="muted">Admins must keep two-factor authentication on.</p>}

      {data.enabled && !data.required && (
        <form onSubmit={turnOff} noValidate className="two-factor-form" aria-label="Turn off two-factor authentication">
          <h4>Turn off</h4>
          <PasswordField
            id={`${id}-off-password`}
            error={offForm.formState.errors.currentPassword?.message}
            {...offForm.register('currentPassword')}
          />
          <CodeField
            id={`${id}-off`}
            label="Code from the app or a recovery code"
            recovery
            error={offForm.formState.errors.code?.message}
            {...offForm.register('code')}
          />
          <button type="submit" className="btn btn-quiet" disabled={offForm.formState.isSubmitting}>
            Turn off two-factor authentication
          </button>
        </form>
      )}
      <StatusLine status={status} />
    </div>
  );
}
