'use client';

import { useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import { apiRequest } from '@/lib/client/api-client';

import { serverMessage, StatusLine, type Status } from './form-parts';

/**
 * "Log out other devices" and "Log out everywhere" in Settings, under
 * Security (DELETE /api/users/settings/sessions): for a lost phone, a shared
 * computer, or a session the member does not recognise. Ending all of them
 * ends this one too, so the browser's copy is cleared and they log in again.
 */
export function SessionsSettings() {
  const { logout } = useSession();
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);

  async function end(which: 'others' | 'all') {
    setBusy(true);
    setStatus(null);
    try {
      const result = await apiRequest<{ message: string; loggedOut: boolean }>('/api/users/settings/sessions', {
        method: 'DELETE',
        json: { which },
      });
      setStatus({ ok: true, text: result.message });
      if (result.loggedOut) await logout('/login');
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Could not end your sessions. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="two-factor-form">
      <h4>Sessions</h4>
      <p className="muted">Log out every other device and app that uses your account, or every one including this browser.</p>
      <div className="two-factor-actions">
        <button type="button" className="btn btn-quiet" onClick={() => end('others')} disabled={busy}>
          Log out other devices
        </button>
        <button type="button" className="btn btn-quiet" onClick={() => end('all')} disabled={busy}>
          Log out everywhere
        </button>
      </div>
      <StatusLine status={status} />
    </div>
  );
}
