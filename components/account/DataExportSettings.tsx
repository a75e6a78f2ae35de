'use client';

import { useState } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { DataExportDto } from '@/lib/api-types';
import { formatBytes } from '@/lib/client/format';
import { apiRequest } from '@/lib/client/api-client';
import { readStorage } from '@/lib/client/browser-store';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { DATA_EXPORT_DAYS, exportDateText } from '@/lib/validation/exports';

import { serverMessage, StatusLine, type Status } from './form-parts';
import './data-export.css';

const EXPORT_PATH = '/api/users/me/export';
/** While an export is being prepared the section asks again this often, so "ready" appears without a reload. */
const PENDING_POLL_MS = 4_000;

/**
 * "Download my data" in the settings modal: ask for a ZIP of everything we
 * hold about the member; a job builds it and emails them. Shows the state:
 * none, being prepared, ready (download and expiry), failed (try again).
 */
export function DataExportSettings() {
  const { user } = useSession();
  const { data, error, mutate, isLoading } = useSWR(
    user ? [EXPORT_PATH, user._id] : null,
    () => apiRequest<{ export: DataExportDto | null }>(EXPORT_PATH),
    {
      revalidateOnFocus: true,
      refreshInterval: (latest) => (latest?.export?.status === 'pending' ? PENDING_POLL_MS : 0),
    },
  );
  const [status, setStatus] = useState<Status>(null);
  const [asking, setAsking] = useState(false);
  const current = data?.export ?? null;

  async function ask() {
    if (!readStorage('localStorage', STORAGE_KEYS.token))
      return setStatus({ ok: false, text: 'Authentication error. Please log in again.' });
    setAsking(true);
    try {
      const result = await apiRequest<{ message: string; export: DataExportDto }>(EXPORT_PATH, { method: 'POST' });
      await mutate({ export: result.export }, { revalidate: false });
      setStatus(null);
    } catch (failure) {
      setStatus({ ok: false, text: serverMessage(failure, 'Failed to request your data.') });
      void mutate();
    } finally {
      setAsking(false);
    }
  }

  return (
    <section className="settings-section data-export" aria-labelledby="data-export-title" aria-busy={isLoading || undefined}>
      <h3 id="data-export-title">Download my data</h3>
      <p className="muted">
        A ZIP file with everything we hold about you: your profile, your videos with the files you uploaded, comments, likes,
        follows, notifications, daily tasks, payments and blocks. We email you when it is ready; the download works for{' '}
        {DATA_EXPORT_DAYS} days, only when you are logged in.
      </p>
      {isLoading && <p className="muted">Loading…</p>}
      {error && !data && <p className="form-error">{serverMessage(error, 'Could not load your data export.')}</p>}
      {data && !current && (
        <button type="button" className="btn btn-primary" onClick={ask} disabled={asking}>
          {asking ? 'Requesting…' : 'Request my data'}
        </button>
      )}
      <div role="status" aria-live="polite">
        {current?.status === 'pending' && (
          <p className="data-export-state" data-state="pending">
            <span className="data-export-dot" aria-hidden="true" />
            Your export is being prepared. We will email you when it is ready.
          </p>
        )}
        {current?.status === 'ready' && (
          <div className="data-export-state" data-state="ready">
            <p>
              Your export is ready{current.sizeBytes !== null ? ` (${formatBytes(current.sizeBytes)})` : ''}. The link works until{' '}
              {exportDateText(current.expiresAt!)}.
            </p>
            <a className="btn btn-primary" href={current.downloadUrl!} download>
              Download my data
            </a>
            {current.canRenew && (
              <button type="button" className="btn btn-ghost" onClick={ask} disabled={asking}>
                {asking ? 'Requesting…' : 'Request a fresh copy'}
              </button>
            )}
          </div>
        )}
        {current?.status === 'failed' && (
          <div className="data-export-state" data-state="failed">
            <p className="form-error">{current.error}</p>
            <button type="button" className="btn btn-primary" onClick={ask} disabled={asking}>
              {asking ? 'Requesting…' : 'Try again'}
            </button>
          </div>
        )}
      </div>
      <StatusLine status={status} />
    </section>
  );
}
