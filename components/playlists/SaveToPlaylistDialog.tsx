'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import type { PlaylistListDto, PlaylistSummaryDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { VISIBILITY_LABELS } from '@/lib/playlists';
import { newPlaylistSchema } from '@/lib/validation/playlists';

import { ActionFeedback, messageOf } from './ActionFeedback';

interface Props {
  streamVideoId: string;
  title: string;
  onClose(): void;
}

/**
 * Save to playlist: the member's playlists with a checkbox each (ticked when it holds the video; a tick adds it at
 * the end, an untick removes it, each at once) and a form for a new playlist, which gets the video straight away.
 * A native modal <dialog>, as ShareDialog: Escape closes it and the button gets the focus back.
 */
export default function SaveToPlaylistDialog({ streamVideoId, title, onClose }: Props) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [playlists, setPlaylists] = useState<PlaylistSummaryDto[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [newTitle, setNewTitle] = useState('');

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    let live = true;
    apiRequest<PlaylistListDto>(`/api/playlists?video=${encodeURIComponent(streamVideoId)}`).then(
      (answer) => live && setPlaylists(answer.playlists),
      (failure: unknown) => live && setError(messageOf(failure, 'Could not load your playlists.')),
    );
    return () => {
      live = false;
      if (element?.open) element.close();
    };
  }, [streamVideoId]);

  const setHasVideo = (playlistId: string, hasVideo: boolean, videoCount?: number) =>
    setPlaylists((list) =>
      (list ?? []).map((item) =>
        item.id === playlistId ? { ...item, hasVideo, videoCount: videoCount ?? item.videoCount } : item,
      ),
    );

  // The tick shows at once and is taken back, with the server's message, if the call fails.
  async function toggle(playlist: PlaylistSummaryDto) {
    const adding = !playlist.hasVideo;
    setHasVideo(playlist.id, adding);
    setBusy(playlist.id);
    setError(null);
    try {
      const answer = await apiRequest<{ videoCount: number }>(`/api/playlists/${playlist.id}/videos/${streamVideoId}`, {
        method: adding ? 'PUT' : 'DELETE',
      });
      setHasVideo(playlist.id, adding, answer.videoCount);
      setStatus(adding ? `Saved to “${playlist.title}”` : `Removed from “${playlist.title}”`);
    } catch (failure) {
      setHasVideo(playlist.id, !adding);
      setError(messageOf(failure, adding ? 'Could not add the video.' : 'Could not remove the video.'));
    } finally {
      setBusy(null);
    }
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    const parsed = newPlaylistSchema.safeParse({ title: newTitle });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the title.');
      return;
    }
    setBusy('new');
    setError(null);
    try {
      const made = await apiRequest<PlaylistSummaryDto>('/api/playlists', { method: 'POST', json: parsed.data });
      const added = await apiRequest<{ videoCount: number }>(`/api/playlists/${made.id}/videos/${streamVideoId}`, {
        method: 'PUT',
      });
      setPlaylists((list) => [{ ...made, hasVideo: true, videoCount: added.videoCount }, ...(list ?? [])]);
      setNewTitle('');
      setStatus(`Saved to the new playlist “${made.title}”`);
    } catch (failure) {
      setError(messageOf(failure, 'Could not make the playlist.'));
    } finally {
      setBusy(null);
    }
  }

  const titleId = `${id}-title`;
  return (
    <dialog ref={dialog} className="modal save-playlist-dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-head">
        <h2 id={titleId}>Save to playlist</h2>
        <button type="button" className="btn btn-quiet btn-small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="muted save-playlist-video">{title}</p>
      {playlists === null && !error && <p role="status">Loading your playlists…</p>}
      {playlists && playlists.length === 0 && <p className="muted">You have no playlists yet: make the first one below.</p>}
      {playlists && playlists.length > 0 && (
        <ul className="save-playlist-list" aria-label="Your playlists">
          {playlists.map((playlist) => (
            <li key={playlist.id}>
              <label>
                <input
                  type="checkbox"
                  checked={Boolean(playlist.hasVideo)}
                  disabled={busy !== null}
                  onChange={() => void toggle(playlist)}
                />
                <span className="save-playlist-name">{playlist.title}</span>
                <span className="muted">
                  {VISIBILITY_LABELS[playlist.visibility]} · {playlist.videoCount}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <form className="save-playlist-new" onSubmit={(event) => void create(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-new`}>New playlist</label>
          <div className="share-row">
            <input
              id={`${id}-new`}
              value={newTitle}
              maxLength={200}
              placeholder="A title"
              onChange={(event) => setNewTitle(event.target.value)}
            />
            <button type="submit" className="btn btn-primary" disabled={busy !== null}>
              Create and save
            </button>
          </div>
        </div>
      </form>
      <ActionFeedback error={error} status={status} />
      <p className="save-playlist-manage">
        <a href="/playlists">Manage your playlists</a>
      </p>
    </dialog>
  );
}
