'use client';

import { useEffect, useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { PlaylistDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { nextInQueue, playInListHref, playlistHref } from '@/lib/playlists';

/** Seconds between a video's end and the next one, time enough to read "Up next" and cancel. */
export const UP_NEXT_SECONDS = 5;
/** The address flag that starts playback on arrival: set by "Play all" and by the move to the next video. */
const AUTOPLAY_PARAM = 'autoplay';

const playerVideo = (streamVideoId: string) => document.getElementById(`player-${streamVideoId}`) as HTMLVideoElement | null;

/** Plays on arrival, muted when the browser refuses sound without a press (as the member's autoplay preference does). */
function startPlayback(video: HTMLVideoElement) {
  video.play().catch(() => {
    video.muted = true;
    void video.play().catch(() => {});
  });
}

/**
 * The queue beside the player while a playlist plays: its videos in order with this one marked, and when this one
 * ends, "Up next" with a countdown to the next one (which starts playing on arrival) and a button to cancel.
 */
export default function PlaylistQueue({ list, streamVideoId }: { list: string; streamVideoId: string }) {
  const { loading } = useSession();
  const [playlist, setPlaylist] = useState<PlaylistDto | null>(null);
  const [failed, setFailed] = useState(false);
  const [countdown, setCountdown] = useState<number | null>(null);

  // After the session is known, so the member's token goes with the request (a private playlist is theirs alone).
  useEffect(() => {
    if (loading) return;
    let live = true;
    apiRequest<PlaylistDto>(`/api/playlists/${encodeURIComponent(list)}`).then(
      (answer) => live && setPlaylist(answer),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [list, loading]);

  const ids = playlist?.videos.map((video) => video.streamVideoId) ?? [];
  const nextId = playlist ? nextInQueue(ids, streamVideoId) : null;
  const next = playlist?.videos.find((video) => video.streamVideoId === nextId) ?? null;

  // Arrived from "Play all" or the previous video: start, and drop the flag so a shared or reloaded address does not.
  useEffect(() => {
    const url = new URL(location.href);
    if (!url.searchParams.has(AUTOPLAY_PARAM)) return;
    url.searchParams.delete(AUTOPLAY_PARAM);
    history.replaceState(history.state, '', url);
    const video = playerVideo(streamVideoId);
    if (video?.paused) startPlayback(video);
  }, [streamVideoId]);

  useEffect(() => {
    const video = playerVideo(streamVideoId);
    if (!video || !nextId) return;
    const onEnded = () => setCountdown(UP_NEXT_SECONDS);
    // Playing again (a seek back, a replay) calls the countdown off.
    const onPlay = () => setCountdown(null);
    video.addEventListener('ended', onEnded);
    video.addEventListener('play', onPlay);
    return () => {
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('play', onPlay);
    };
  }, [streamVideoId, nextId]);

  useEffect(() => {
    if (countdown === null || !nextId) return;
    if (countdown <= 0) {
      // A document load, not the router: the next page's player comes from its cached HTML with its start script.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      location.assign(`${playInListHref(nextId, list)}&${AUTOPLAY_PARAM}=1`);
      return;
    }
    const timer = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown, nextId, list]);

  if (failed) {
    return (
      <p className="playlist-queue playlist-queue-gone" role="status">
        This playlist is not available: it may be private or deleted.
      </p>
    );
  }
  if (!playlist) return null;
  const at = ids.indexOf(streamVideoId);
  return (
    <section className="playlist-queue" aria-labelledby="playlist-queue-title">
      <div className="playlist-queue-head">
        <h2 id="playlist-queue-title">
          <a href={playlistHref(playlist.id)}>{playlist.title}</a>
        </h2>
        <span className="muted">
          {playlist.owner.username} · {at >= 0 ? `${at + 1} / ${ids.length}` : `${ids.length} videos`}
        </span>
      </div>
      {countdown !== null && next && (
        <div className="playlist-up-next" role="status">
          <span>
            Up next in {countdown} s: <strong>{next.title}</strong>
          </span>
          <span className="playlist-up-next-actions">
            <a className="btn btn-primary btn-small" href={`${playInListHref(next.streamVideoId, list)}&${AUTOPLAY_PARAM}=1`}>
              Play now
            </a>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setCountdown(null)}>
              Cancel
            </button>
          </span>
        </div>
      )}
      <ol className="playlist-queue-list">
        {playlist.videos.map((video, index) => (
          <li key={video.streamVideoId} aria-current={video.streamVideoId === streamVideoId ? 'true' : undefined}>
            <a href={playInListHref(video.streamVideoId, list)}>
              <span className="playlist-queue-index">{index + 1}</span>
              <span className="playlist-queue-name">{video.title}</span>
            </a>
          </li>
        ))}
      </ol>
    </section>
  );
}
