'use client';

import { useState } from 'react';

import { serverMessage } from '@/components/account/form-parts';
import { VideoIcon } from '@/components/icons';
import { MemberVideoFeed, type MemberListControls } from '@/components/videos/MemberVideoFeed';
import { WatchedBar } from '@/components/videos/WatchedBar';
import type { HistoryListDto, HistoryVideoDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { formatDuration } from '@/lib/format/numbers';

import './history.css';

export const HISTORY_EMPTY_TEXT = 'Your history is empty.';
type Controls = MemberListControls<HistoryListDto>;

/** The member's history, most recently watched first: each card with how far they got and a remove button; pause and clear above. */
export function HistoryFeed() {
  return (
    <MemberVideoFeed<HistoryListDto>
      endpoint="/api/users/me/history"
      path="/history"
      icon={<VideoIcon size={40} />}
      loadingText="Loading your history…"
      loginText="Log in to see the videos you watched."
      emptyText={HISTORY_EMPTY_TEXT}
      emptyHint="Videos you play while logged in are listed here, with where you stopped, until you remove them."
      gridLabel="Your history"
      toolbar={(controls) => <HistoryToolbar controls={controls} />}
      extras={(video, controls) => <HistoryCardExtras video={video} controls={controls} />}
    />
  );
}

/** Pause or resume history, and clear it all (asked twice: it cannot be undone). */
function HistoryToolbar({ controls }: { controls: Controls }) {
  // The switch follows a press at once; the server's answer (the reloaded list) confirms it.
  const [pressed, setPressed] = useState<boolean | null>(null);
  const paused = pressed ?? controls.pages?.[0]?.paused ?? false;
  const hasVideos = (controls.pages?.[0]?.videos.length ?? 0) > 0;
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  async function run(action: () => Promise<unknown>, done: string, failed: string) {
    setBusy(true);
    setNotice(null);
    try {
      await action();
      await controls.reload();
      setNotice({ ok: true, text: done });
    } catch (error) {
      setNotice({ ok: false, text: serverMessage(error, failed) });
    } finally {
      setPressed(null);
      setBusy(false);
      setConfirming(false);
    }
  }

  const togglePause = (next: boolean) => {
    setPressed(next);
    return run(
      () => apiRequest('/api/users/me/history/paused', { method: 'PUT', json: { paused: next } }),
      next ? 'History paused.' : 'History is on again.',
      'Could not change your history setting. Please try again.',
    );
  };
  const clearAll = () =>
    run(
      () => apiRequest('/api/users/me/history', { method: 'DELETE' }),
      'Your history is cleared.',
      'Could not clear your history. Please try again.',
    );

  return (
    <div className="history-toolbar">
      <label className="history-pause">
        <input
          type="checkbox"
          role="switch"
          checked={paused}
          disabled={busy}
          onChange={(e) => void togglePause(e.target.checked)}
        />
        <span>
          <strong>Pause history</strong>
          <span className="history-pause-state">
            {paused
              ? 'Paused: the videos you watch are not added and your place in them is not saved. What is listed stays until you remove it.'
              : 'On: the videos you watch are listed here with where you stopped, so you can continue.'}
          </span>
        </span>
      </label>
      {hasVideos &&
        (confirming ? (
          <div className="history-confirm" role="group" aria-label="Clear all history">
            <span>Clear your whole history? This cannot be undone.</span>
            <button type="button" className="btn btn-danger btn-small" disabled={busy} onClick={() => void clearAll()}>
              Clear history
            </button>
            <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={() => setConfirming(true)}>
            Clear all history
          </button>
        ))}
      {notice && (
        <p className={notice.ok ? 'form-success' : 'form-error'} role={notice.ok ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
    </div>
  );
}

/** How far the member got (a bar over the thumbnail, and in words) and the button that removes the video from the history. */
function HistoryCardExtras({ video, controls }: { video: HistoryVideoDto; controls: Controls }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { positionSeconds, finished } = video.progress;

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await apiRequest(`/api/users/me/history/${video.streamVideoId}`, { method: 'DELETE' });
      await controls.reload();
    } catch (failure) {
      setError(serverMessage(failure, 'Could not remove it. Please try again.'));
      setBusy(false);
    }
  }

  return (
    <>
      <WatchedBar video={video} />
      <p className="history-card-foot">
        <span className="history-card-where">{finished ? 'Watched' : `Stopped at ${formatDuration(positionSeconds)}`}</span>
        <button
          type="button"
          className="btn btn-quiet btn-small"
          disabled={busy}
          aria-label={`Remove ${video.title} from your history`}
          onClick={() => void remove()}
        >
          Remove
        </button>
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
