'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';

import { useSession } from '@/components/session/SessionProvider';
import { apiRequest, ApiClientError } from '@/lib/client/api-client';
import { DELETE_ACCOUNT_MESSAGES, deleteAccountSchema } from '@/lib/validation/deletion';
import type { z } from '@/lib/validation/zod';

import { serverMessage, StatusLine, TextField, type Status } from './form-parts';

import './delete-account.css';

type DeleteAccountForm = z.input<typeof deleteAccountSchema>;

/**
 * "Delete my account" in the settings modal: a closed warning first, then
 * the current password and the username typed out. On success the browser's
 * session is cleared and the member lands on /account-deleted.
 */
export function DeleteAccountSettings() {
  const { user, logout } = useSession();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const username = user?.username ?? '';
  // The server's rules, plus the username check in the browser with the same message.
  const schema = useMemo(
    () =>
      deleteAccountSchema.refine((values) => values.username === username, {
        path: ['username'],
        message: DELETE_ACCOUNT_MESSAGES.wrongUsername,
      }),
    [username],
  );
  const { register, handleSubmit, setError, formState } = useForm<DeleteAccountForm>({ resolver: zodResolver(schema) });
  const passwordField = useRef<HTMLInputElement | null>(null);
  const { ref: passwordRef, ...passwordProps } = register('currentPassword');

  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      await apiRequest('/api/users/settings/account', { method: 'DELETE', json: values });
    } catch (error) {
      const field = error instanceof ApiClientError ? error.data.field : undefined;
      if (field === 'currentPassword' || field === 'username')
        return setError(field, { type: 'server', message: (error as Error).message }, { shouldFocus: true });
      return setStatus({ ok: false, text: serverMessage(error, 'Failed to delete account.') });
    }
    setStatus({ ok: true, text: DELETE_ACCOUNT_MESSAGES.deleted });
    // The server has already ended every session; this clears the browser's copy, then a full load leaves no member data behind.
    await logout();
    window.location.replace('/account-deleted');
  });
  const e = formState.errors;
  if (!user) return null;
  return (
    <section className="settings-section delete-account" aria-labelledby="delete-account-title">
      <h3 id="delete-account-title">Delete account</h3>
      <p className="delete-account-text">
        Deleting your account removes your profile, videos, comments, likes, follows and notifications for good, and logs you out
        everywhere. Payment records are kept without your name or email, as accounting law requires. This cannot be undone.
      </p>
      {!open ? (
        <button
          type="button"
          className="btn btn-danger"
          aria-expanded="false"
          aria-controls="delete-account-form"
          onClick={() => {
            setOpen(true);
            requestAnimationFrame(() => passwordField.current?.focus());
          }}
        >
          Delete my account…
        </button>
      ) : (
        <form id="delete-account-form" onSubmit={onSubmit} noValidate>
          <TextField
            id="delete-account-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            error={e.currentPassword?.message}
            ref={(element) => {
              passwordRef(element);
              passwordField.current = element;
            }}
            {...passwordProps}
          />
          <TextField
            id="delete-account-username"
            label={`Type your username (${username}) to confirm`}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            error={e.username?.message}
            {...register('username')}
          />
          <div className="modal-actions">
            <button type="submit" className="btn btn-danger" disabled={formState.isSubmitting}>
              {formState.isSubmitting ? 'Deleting…' : 'Delete my account permanently'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <StatusLine status={status} />
    </section>
  );
}
