'use client';

import { useState } from 'react';

import { PlaylistsIcon } from '@/components/shell/account-icons';
import { useSession } from '@/components/session/SessionProvider';
import { ShareButton } from '@/components/videos/ShareButton';
import type { PlaylistDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { formatDuration } from '@/lib/format/numbers';
import { moveItem, playInListHref, PLAYLIST_VISIBILITIES, VISIBILITY_HINTS, VISIBILITY_LABELS } from '@/lib/playlists';

import { ActionFeedback, messageOf } from './ActionFeedback';

/**
 * A playlist's page body: title, owner, its videos in order, "Play all" and Share. The server renders it as a
 * visitor sees it (the page is cached, the same for all); its owner's tools (visibility, move up and down, remove)
 * appear once the session says the viewer is the owner, and the API decides again.
 */
export function PlaylistView({ initial, shareUrl }: { initial: PlaylistDto; shareUrl: string }) {
  const { user } = useSession();
  const [playlist, setPlaylist] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const isOwner = user?._id === playlist.owner._id;
  const first = playlist.videos[0];

  async function act(work: () => Promise<PlaylistDto | void>, done: string, fallback: string) {
    setBusy(true);
    setError(null);
    try {
      const answer = await work();
      if (answer) setPlaylist(answer);
      setStatus(done);
    } catch (failure) {
      setError(messageOf(failure, fallback));
    } finally {
      setBusy(false);
    }
  }

  const move = (index: number, delta: number) => {
    const order = moveItem(playlist.videos, index, delta);
    void act(
      () =>
        apiRequest<PlaylistDto>(`/api/playlists/${playlist.id}/order`, {
          method: 'PUT',
          json: { streamVideoIds: order.map((video) => video.streamVideoId) },
        }),
      `Moved “${playlist.videos[index]?.title}” ${delta < 0 ? 'up' : 'down'}`,
      'Could not change the order.',
    );
  };

  const remove = (streamVideoId: string, title: string) =>
    void act(
      async () => {
        await apiRequest(`/api/playlists/${playlist.id}/videos/${streamVideoId}`, { method: 'DELETE' });
        const videos = playlist.videos.filter((video) => video.streamVideoId !== streamVideoId);
        return { ...playlist, videos, videoCount: videos.length };
      },
      `Removed “${title}”`,
      'Could not remove the video.',
    );

  const setVisibility = (visibility: PlaylistDto['visibility']) =>
    void act(
      async () => {
        const answer = await apiRequest<PlaylistDto>(`/api/playlists/${playlist.id}`, { method: 'PATCH', json: { visibility } });
        return { ...playlist, visibility: answer.visibility };
      },
      `The playlist is now ${VISIBILITY_LABELS[visibility].toLowerCase()}.`,
      'Could not change who can see it.',
    );

  return (
    <>
      <header className="page-header playlist-header">
        <span className="eyebrow">
          <PlaylistsIcon /> Playlist · {VISIBILITY_LABELS[playlist.visibility]}
        </span>
        <h1>{playlist.title}</h1>
        <p className="playlist-owner">
          by{' '}
          <a href={`/profile/${encodeURIComponent(playlist.owner.username)}`} rel="author">
            {playlist.owner.username}
          </a>{' '}
          · {playlist.videos.length === 1 ? '1 video' : `${playlist.videos.length} videos`}
        </p>
        {playlist.description && <p className="playlist-description">{playlist.description}</p>}
        <div className="playlist-actions">
          {first && (
            <a className="btn btn-primary" href={`${playInListHref(first.streamVideoId, playlist.id)}&autoplay=1`}>
              Play all
            </a>
          )}
          {playlist.visibility !== 'private' && (
            <ShareButton url={shareUrl} title={playlist.title} heading="Share this playlist" />
          )}
          {isOwner && (
            <label className="playlist-visibility">
              <span>Who can see it</span>
              <select
                value={playlist.visibility}
                disabled={busy}
                onChange={(event) => setVisibility(event.target.value as PlaylistDto['visibility'])}
              >
                {PLAYLIST_VISIBILITIES.map((choice) => (
                  <option key={choice} value={choice}>
                    {VISIBILITY_LABELS[choice]}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        {isOwner && <p className="muted playlist-hint">{VISIBILITY_HINTS[playlist.visibility]}</p>}
      </header>
      <ActionFeedback error={error} status={status} />
      {playlist.videos.length === 0 ? (
        <p className="empty-state">This playlist has no videos yet.{isOwner && ' Use “Save” on a video to add one.'}</p>
      ) : (
        <ol className="playlist-items" aria-label={`Videos in ${playlist.title}`}>
          {playlist.videos.map((video, index) => (
            <li key={video.streamVideoId} className="playlist-item">
              <span className="playlist-item-index">{index + 1}</span>
              <a className="playlist-item-link" href={playInListHref(video.streamVideoId, playlist.id)}>
                <span className="playlist-item-thumb">
                  {video.thumbnailUrl && (
                    // Our pipeline already made the sizes; the image optimiser would only add work.
                    // eslint-disable-next-line @next/next/no-img-element
                    <img src={video.thumbnailUrl} alt="" width={160} height={90} loading={index < 4 ? 'eager' : 'lazy'} />
                  )}
                  {video.durationSeconds ? <span className="video-duration">{formatDuration(video.durationSeconds)}</span> : null}
                </span>
                <span className="playlist-item-text">
                  <span className="playlist-item-title">{video.title}</span>
                  <span className="muted">{video.uploader.username}</span>
                </span>
              </a>
              {isOwner && (
                <span className="playlist-item-tools">
                  <button
                    type="button"
                    className="btn btn-ghost btn-small"
                    disabled={busy || index === 0}
                    aria-label={`Move “${video.title}” up`}
                    onClick={() => move(index, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-small"
                    disabled={busy || index === playlist.videos.length - 1}
                    aria-label={`Move “${video.title}” down`}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="btn btn-quiet btn-small"
                    disabled={busy}
                    aria-label={`Remove “${video.title}” from the playlist`}
                    onClick={() => remove(video.streamVideoId, video.title)}
                  >
                    Remove
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
