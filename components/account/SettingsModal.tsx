'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import useSWR from 'swr';
import { z } from '@/lib/validation/zod';

import { useSession } from '@/components/session/SessionProvider';
import type { ProfileDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { readStorage } from '@/lib/client/browser-store';
import { ACCOUNT_PATHS } from '@/lib/account-paths';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { changeEmailFormSchema, changePasswordFormSchema } from '@/lib/validation/auth';
import { BIO_MAX, bioLength, PROFILE_MESSAGES } from '@/lib/validation/community';

import { DataExportSettings } from './DataExportSettings';
import { DecisionsSettings } from './DecisionsSettings';
import { IdentitySettings } from './IdentitySettings';
import { DeleteAccountSettings } from './DeleteAccount';
import { serverMessage, StatusLine, TextField, type Status } from './form-parts';
import { ProfilePhotoSettings } from './ProfilePhotoSettings';
import { SessionsSettings } from './SessionsSettings';
import { TwoFactorSettings } from './TwoFactorSettings';

const AUTH_ERROR = 'Authentication error. Please log in again.';

const hasToken = () => Boolean(readStorage('localStorage', STORAGE_KEYS.token));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="settings-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** The bio shown on the member's profile: plain text, at most 500 characters, with a live counter. */
function ProfileSettings({ autoFocus }: { autoFocus: boolean }) {
  const { user } = useSession();
  const id = useId();
  const path = user ? `/api/users/${encodeURIComponent(user.username)}` : null;
  const {
    data,
    error: loadError,
    mutate,
  } = useSWR(path, (url: string) => apiRequest<{ user: ProfileDto }>(url), { revalidateOnFocus: false });
  const [draft, setDraft] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const loaded = data !== undefined;
  const bio = draft ?? data?.user.bio ?? '';
  const length = bioLength(bio);
  const over = length > BIO_MAX;

  useEffect(() => {
    if (autoFocus && loaded) field.current?.focus();
  }, [autoFocus, loaded]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!hasToken()) return setStatus({ ok: false, text: AUTH_ERROR });
    if (over) return setStatus({ ok: false, text: PROFILE_MESSAGES.bioTooLong });
    setSaving(true);
    try {
      const result = await apiRequest<{ success: true; bio: string }>('/api/users/settings/profile', {
        method: 'PUT',
        json: { bio },
      });
      setDraft(result.bio);
      if (data) void mutate({ user: { ...data.user, bio: result.bio } }, { revalidate: false });
      setStatus({ ok: true, text: 'Profile saved.' });
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to update profile.') });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section title="Profile">
      <form onSubmit={save} noValidate className="settings-bio">
        <div className="field">
          <label htmlFor={`${id}-bio`}>Bio</label>
          <textarea
            ref={field}
            id={`${id}-bio`}
            name="bio"
            rows={4}
            value={bio}
            disabled={!loaded}
            placeholder={loaded ? 'A few words about you and what you share' : 'Loading…'}
            aria-invalid={over}
            aria-describedby={`${id}-bio-hint ${id}-bio-count`}
            onChange={(event) => {
              setDraft(event.target.value);
              setStatus(null);
            }}
          />
          <p className="settings-bio-meta">
            <span id={`${id}-bio-hint`} className="muted">
              Plain text, shown on your profile.
            </span>
            <span id={`${id}-bio-count`} className="settings-bio-count" data-over={over || undefined} aria-live="polite">
              {length} / {BIO_MAX}
            </span>
          </p>
          {over && <p className="field-error">{PROFILE_MESSAGES.bioTooLong}</p>}
          {loadError && !data && <p className="field-error">{serverMessage(loadError, 'Could not load your profile.')}</p>}
        </div>
        <button type="submit" className="btn btn-primary" disabled={!loaded || saving || over}>
          {saving ? 'Saving…' : 'Save profile'}
        </button>
      </form>
      <StatusLine status={status} />
    </Section>
  );
}

function Preferences() {
  const { user, updateUser } = useSession();
  const [status, setStatus] = useState<Status>(null);
  async function toggle(autoPlayVideos: boolean) {
    if (!hasToken()) return setStatus({ ok: false, text: AUTH_ERROR });
    try {
      await apiRequest('/api/users/settings/preferences', { method: 'PUT', json: { autoPlayVideos } });
      updateUser({ autoPlayVideos });
      setStatus({ ok: true, text: 'Preferences saved.' });
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to update preferences') });
    }
  }
  return (
    <Section title="Video preferences">
      <label className="toggle">
        <input type="checkbox" role="switch" checked={user?.autoPlayVideos ?? true} onChange={(e) => toggle(e.target.checked)} />
        <span>Autoplay videos</span>
      </label>
      <StatusLine status={status} />
    </Section>
  );
}

function EmailSettings() {
  const { user } = useSession();
  const [status, setStatus] = useState<Status>(null);
  const { register, handleSubmit, reset, formState } = useForm<z.input<typeof changeEmailFormSchema>>({
    resolver: zodResolver(changeEmailFormSchema),
  });
  const onSubmit = handleSubmit(async (values) => {
    if (!hasToken()) return setStatus({ ok: false, text: AUTH_ERROR });
    try {
      const result = await apiRequest<{ message: string; emailVerificationSent: boolean }>('/api/users/settings/email', {
        method: 'PUT',
        json: values,
      });
      setStatus({
        ok: true,
        text: result.emailVerificationSent
          ? 'Email updated successfully! Please check your new email for verification.'
          : 'Email updated, but verification email could not be sent.',
      });
      reset();
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to update email.') });
    }
  });
  const e = formState.errors;
  return (
    <Section title="Update email">
      <p className="muted">Current address: {user?.email}</p>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          id="settings-new-email"
          label="New email"
          type="email"
          autoComplete="email"
          error={e.newEmail?.message}
          {...register('newEmail')}
        />
        <TextField
          id="settings-confirm-email"
          label="Confirm new email"
          type="email"
          autoComplete="email"
          error={e.confirmNewEmail?.message}
          {...register('confirmNewEmail')}
        />
        <TextField
          id="settings-email-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={e.currentPassword?.message}
          {...register('currentPassword')}
        />
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          Update email
        </button>
      </form>
      <StatusLine status={status} />
    </Section>
  );
}

function PasswordSettings() {
  const [status, setStatus] = useState<Status>(null);
  const { register, handleSubmit, reset, formState } = useForm<z.input<typeof changePasswordFormSchema>>({
    resolver: zodResolver(changePasswordFormSchema),
  });
  const onSubmit = handleSubmit(async (values) => {
    if (!hasToken()) return setStatus({ ok: false, text: AUTH_ERROR });
    try {
      await apiRequest('/api/users/settings/password', { method: 'PUT', json: values });
      setStatus({ ok: true, text: 'Password updated successfully!' });
      reset();
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to update password.') });
    }
  });
  const e = formState.errors;
  return (
    <Section title="Update password">
      <form onSubmit={onSubmit} noValidate>
        <TextField
          id="settings-current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={e.currentPassword?.message}
          {...register('currentPassword')}
        />
        <TextField
          id="settings-new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          error={e.newPassword?.message}
          {...register('newPassword')}
        />
        <TextField
          id="settings-confirm-password"
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={e.confirmNewPassword?.message}
          {...register('confirmNewPassword')}
        />
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          Update password
        </button>
      </form>
      <StatusLine status={status} />
    </Section>
  );
}

/**
 * The settings modal of spec section 2: autoplay, email, password, plus the
 * profile's bio. A native dialog traps focus and closes on Escape. `focus`
 * puts the caret in the bio (the profile's "Edit profile").
 */
export function SettingsModal({ onClose, focus }: { onClose: () => void; focus?: 'bio' }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} className="modal settings-modal" aria-labelledby="settings-title" onClose={onClose}>
      <div className="modal-head">
        <h2 id="settings-title">Settings</h2>
        <a className="btn btn-quiet" href={ACCOUNT_PATHS.settings}>
          Open as a page
        </a>
        <button type="button" className="btn btn-quiet" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <SettingsSections focus={focus} onNavigate={() => dialog.current?.close()} />
    </dialog>
  );
}

/** A group of sections with an address of its own on /settings (`#security`, `#data`). */
function Group({ id, title, headed, children }: { id: string; title: string; headed: boolean; children: ReactNode }) {
  return (
    <div id={id} className="settings-group" role="group" aria-label={title}>
      {headed && <h2>{title}</h2>}
      {children}
    </div>
  );
}

/**
 * Every settings section, in the dialog and on /settings alike. On the page (`headed`) each group has its h2 under
 * the page's h1; in the dialog the dialog's h2 heads them all.
 */
export function SettingsSections({
  focus,
  onNavigate,
  headed = false,
}: {
  focus?: 'bio';
  onNavigate?: () => void;
  headed?: boolean;
}) {
  return (
    <>
      <Group id="account" title="Account" headed={headed}>
        <ProfilePhotoSettings />
        <ProfileSettings autoFocus={focus === 'bio'} />
        <Preferences />
        <EmailSettings />
        <PasswordSettings />
        <IdentitySettings onNavigate={onNavigate ?? (() => undefined)} />
      </Group>
      <Group id="security" title="Security" headed={headed}>
        {headed ? (
          <>
            <TwoFactorSettings />
            <SessionsSettings />
          </>
        ) : (
          <Section title="Security">
            <TwoFactorSettings />
            <SessionsSettings />
          </Section>
        )}
      </Group>
      <Group id="data" title="Your data" headed={headed}>
        <DataExportSettings />
        <DecisionsSettings />
        <DeleteAccountSettings />
      </Group>
    </>
  );
}
