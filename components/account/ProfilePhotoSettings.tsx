'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';

import { Avatar } from '@/components/community/Avatar';
import { useSession } from '@/components/session/SessionProvider';
import type { UserDto } from '@/lib/api-types';
import { readStorage } from '@/lib/client/browser-store';
import { apiRequest } from '@/lib/client/api-client';
import { STORAGE_KEYS } from '@/lib/storage-keys';

import { serverMessage, StatusLine, type Status } from './form-parts';
import { PHOTO_TYPES, photoFileProblem } from './photo-file';

import './account.css';

const AUTH_ERROR = 'Authentication error. Please log in again.';

/**
 * The settings modal's profile photo: choose an image to replace the current
 * one at once (checked here for type and size, and by the server by its
 * content), or remove it for the letter avatar. The header's avatar follows
 * through the session; the profile page is refreshed.
 */
export function ProfilePhotoSettings() {
  const { user, updateUser } = useSession();
  const router = useRouter();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function send(request: () => Promise<{ message: string; user: UserDto }>, fallback: string) {
    if (!readStorage('localStorage', STORAGE_KEYS.token)) return setStatus({ ok: false, text: AUTH_ERROR });
    setBusy(true);
    try {
      const result = await request();
      updateUser({ profilePhotoUrl: result.user.profilePhotoUrl });
      setStatus({ ok: true, text: result.message });
      router.refresh();
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, fallback) });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  function choose(file: File | undefined) {
    if (!file) return;
    const problem = photoFileProblem(file);
    if (problem) return setStatus({ ok: false, text: problem });
    const form = new FormData();
    form.append('profilePhoto', file);
    setStatus({ ok: true, text: 'Uploading your photo…' });
    void send(() => apiRequest('/api/users/settings/photo', { method: 'PUT', form }), 'Failed to update profile photo.');
  }

  const photoUrl = user?.profilePhotoUrl ?? null;
  return (
    <section className="settings-section" aria-label="Profile photo">
      <h3>Profile photo</h3>
      <div className="settings-photo">
        <Avatar url={photoUrl} username={user?.username ?? '?'} size="small" />
        <div className="settings-photo-actions">
          <label htmlFor={`${id}-photo`}>Choose a new photo</label>
          <input
            ref={input}
            id={`${id}-photo`}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            disabled={busy}
            aria-describedby={`${id}-photo-hint`}
            onChange={(event) => choose(event.target.files?.[0])}
          />
          <p id={`${id}-photo-hint`} className="muted settings-photo-hint">
            JPEG, PNG, WebP, GIF or AVIF, up to 5 MB. We crop it square and remove hidden details such as location.
          </p>
          {photoUrl && (
            <button
              type="button"
              className="btn btn-ghost"
              disabled={busy}
              onClick={() =>
                void send(() => apiRequest('/api/users/settings/photo', { method: 'DELETE' }), 'Failed to remove profile photo.')
              }
            >
              Remove photo
            </button>
          )}
        </div>
      </div>
      <StatusLine status={status} />
    </section>
  );
}
