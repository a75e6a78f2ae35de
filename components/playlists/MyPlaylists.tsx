'use client';

import { useEffect, useId, useState, type FormEvent } from 'react';

import { VideoIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import type { PlaylistListDto, PlaylistSummaryDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { PLAYLIST_VISIBILITIES, playlistHref, VISIBILITY_LABELS, type PlaylistVisibility } from '@/lib/playlists';
import { newPlaylistSchema, playlistPatchSchema } from '@/lib/validation/playlists';

import { ActionFeedback, messageOf } from './ActionFeedback';

/** The member's playlists, last changed first: make one, rename one, change who sees it, delete it. */
export function MyPlaylists() {
  const id = useId();
  const { loading, user } = useSession();
  const [playlists, setPlaylists] = useState<PlaylistSummaryDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<PlaylistVisibility>('private');
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);

  useEffect(() => {
    if (!user) return;
    let live = true;
    apiRequest<PlaylistListDto>('/api/playlists').then(
      (answer) => live && setPlaylists(answer.playlists),
      (failure: unknown) => live && setError(messageOf(failure, 'Could not load your playlists.')),
    );
    return () => {
      live = false;
    };
  }, [user]);

  async function act(work: () => Promise<void>, done: string, fallback: string) {
    setBusy(true);
    setError(null);
    try {
      await work();
      setStatus(done);
    } catch (failure) {
      setError(messageOf(failure, fallback));
    } finally {
      setBusy(false);
    }
  }

  const replace = (changed: PlaylistSummaryDto) =>
    setPlaylists((list) => (list ?? []).map((item) => (item.id === changed.id ? changed : item)));

  function create(event: FormEvent) {
    event.preventDefault();
    const parsed = newPlaylistSchema.safeParse({ title, visibility });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the title.');
    void act(
      async () => {
        const made = await apiRequest<PlaylistSummaryDto>('/api/playlists', { method: 'POST', json: parsed.data });
        setPlaylists((list) => [made, ...(list ?? [])]);
        setTitle('');
      },
      `Made “${parsed.data.title}”`,
      'Could not make the playlist.',
    );
  }

  function patch(playlist: PlaylistSummaryDto, change: { title?: string; visibility?: PlaylistVisibility }, done: string) {
    const parsed = playlistPatchSchema.safeParse(change);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the title.');
    void act(
      async () => {
        replace(await apiRequest<PlaylistSummaryDto>(`/api/playlists/${playlist.id}`, { method: 'PATCH', json: parsed.data }));
        setRenaming(null);
      },
      done,
      'Could not change the playlist.',
    );
  }

  function remove(playlist: PlaylistSummaryDto) {
    if (!window.confirm(`Delete “${playlist.title}”? Its videos stay on the site.`)) return;
    void act(
      async () => {
        await apiRequest(`/api/playlists/${playlist.id}`, { method: 'DELETE' });
        setPlaylists((list) => (list ?? []).filter((item) => item.id !== playlist.id));
      },
      `Deleted “${playlist.title}”`,
      'Could not delete the playlist.',
    );
  }

  if (loading || (user && playlists === null && !error)) {
    return (
      <p className="liked-note" role="status">
        Loading your playlists…
      </p>
    );
  }
  if (!user) {
    return (
      <div className="empty-state">
        <VideoIcon size={40} />
        <p>Log in to see your playlists.</p>
        <a className="btn btn-primary" href="/login?next=%2Fplaylists">
          Log in
        </a>
      </div>
    );
  }
  return (
    <>
      <form className="playlist-create" onSubmit={create} noValidate>
        <div className="field">
          <label htmlFor={`${id}-title`}>New playlist</label>
          <input id={`${id}-title`} value={title} placeholder="A title" onChange={(event) => setTitle(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-visibility`}>Who can see it</label>
          <select
            id={`${id}-visibility`}
            value={visibility}
            onChange={(event) => setVisibility(event.target.value as PlaylistVisibility)}
          >
            {PLAYLIST_VISIBILITIES.map((choice) => (
              <option key={choice} value={choice}>
                {VISIBILITY_LABELS[choice]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Create playlist
        </button>
      </form>
      <ActionFeedback error={error} status={status} />
      {playlists && playlists.length === 0 ? (
        <div className="empty-state">
          <VideoIcon size={40} />
          <p>You have no playlists yet.</p>
          <span>Make one above, or use “Save” on any video.</span>
        </div>
      ) : (
        <ul className="my-playlists" aria-label="Your playlists">
          {(playlists ?? []).map((playlist) => (
            <li key={playlist.id} className="my-playlist">
              <a className="my-playlist-thumb" href={playlistHref(playlist.id)} tabIndex={-1} aria-hidden>
                {playlist.thumbnailUrl && (
                  // Our pipeline already made the sizes; the image optimiser would only add work.
                  // eslint-disable-next-line @next/next/no-img-element
                  <img src={playlist.thumbnailUrl} alt="" width={160} height={90} loading="lazy" />
                )}
              </a>
              <div className="my-playlist-text">
                {renaming?.id === playlist.id ? (
                  <form
                    className="share-row"
                    onSubmit={(event) => {
                      event.preventDefault();
                      patch(playlist, { title: renaming.title }, 'Renamed');
                    }}
                  >
                    <input
                      aria-label={`New title for “${playlist.title}”`}
                      value={renaming.title}
                      onChange={(event) => setRenaming({ id: playlist.id, title: event.target.value })}
                    />
                    <button type="submit" className="btn btn-primary btn-small" disabled={busy}>
                      Save
                    </button>
                    <button type="button" className="btn btn-quiet btn-small" onClick={() => setRenaming(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <a className="my-playlist-title" href={playlistHref(playlist.id)}>
                    {playlist.title}
                  </a>
                )}
                <span className="muted">{playlist.videoCount === 1 ? '1 video' : `${playlist.videoCount} videos`}</span>
              </div>
              <div className="my-playlist-tools">
                <select
                  aria-label={`Who can see “${playlist.title}”`}
                  value={playlist.visibility}
                  disabled={busy}
                  onChange={(event) => {
                    const next = event.target.value as PlaylistVisibility;
                    patch(playlist, { visibility: next }, `“${playlist.title}” is now ${VISIBILITY_LABELS[next].toLowerCase()}.`);
                  }}
                >
                  {PLAYLIST_VISIBILITIES.map((choice) => (
                    <option key={choice} value={choice}>
                      {VISIBILITY_LABELS[choice]}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => setRenaming({ id: playlist.id, title: playlist.title })}
                >
                  Rename
                </button>
                <button type="button" className="btn btn-quiet btn-small" disabled={busy} onClick={() => remove(playlist)}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
