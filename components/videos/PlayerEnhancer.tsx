'use client';

import { useEffect, useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';

export interface PlayerSource {
  mp4Url: string | null;
  hlsUrl: string | null;
}

export interface PlayerEnhancerProps extends PlayerSource {
  /** The id of the player's <video> element (VideoPlayer renders it). */
  videoId: string;
  streamVideoId: string;
  /** Count a view when playback starts (public videos; not owner previews). */
  countView: boolean;
  /** The embed page autoplays never; the video page follows the member's preference. */
  allowAutoplay: boolean;
  /** The server's start button covers the poster: the controls' code waits for a sign of intent. */
  startButton: boolean;
}

/** What tells the player's controls will be wanted soon: a pointer over it, a touch, the focus on it. */
const INTENT_EVENTS = ['pointerenter', 'touchstart', 'focusin'] as const;

const findVideo = (id: string) => document.getElementById(id) as HTMLVideoElement | null;

/**
 * What the player's <video> gains with JavaScript (VideoPlayer renders the element; this loads after the page's
 * first load, decision 031, and may find playback already started): adaptive HLS from the first play (player-hls.ts,
 * whose code loads when the page is idle while no playlist or segment is fetched before the play). The controls
 * (media-chrome, player-chrome.ts) load at the first sign of intent. Also the member's autoplay preference, the
 * view count, and resuming where the viewer stopped.
 */
export function PlayerEnhancer({
  videoId,
  streamVideoId,
  mp4Url,
  hlsUrl,
  countView,
  allowAutoplay,
  startButton,
}: PlayerEnhancerProps) {
  const { user, loading } = useSession();
  const [note, setNote] = useState<string | null>(null);

  // The controls: about 50 KB that a visitor who only reads the page never fetches. Until they arrive the browser's
  // own controls answer (the start button turns them on), so no press is lost.
  useEffect(() => {
    const video = findVideo(videoId);
    const player = video?.closest<HTMLElement>('.player');
    if (!video || !player) return;
    let live = true;
    let uninstall = () => {};
    const load = () => {
      stopListening();
      void import('./player-chrome').then(({ installChrome }) => {
        if (live) uninstall = installChrome(player, video);
      });
    };
    const stopListening = () => {
      for (const type of INTENT_EVENTS) player.removeEventListener(type, load);
      video.removeEventListener('play', load);
    };
    if (!startButton || !video.paused) load();
    else {
      for (const type of INTENT_EVENTS) player.addEventListener(type, load, { passive: true });
      video.addEventListener('play', load);
    }
    return () => {
      live = false;
      stopListening();
      uninstall();
    };
  }, [videoId, startButton]);

  // Adaptive streaming, when there is a ladder (player-hls.ts): loaded when the page is idle, so hls.js is ready at
  // the press (decision 055); with data saver on, only at the first play.
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || !hlsUrl) return;
    let live = true;
    let detach = () => {};
    const load = () => {
      video.removeEventListener('play', load);
      if (idle !== null) cancelIdleCallback(idle);
      idle = null;
      void import('./player-hls').then(({ attachHls }) => {
        if (live) detach = attachHls(video, hlsUrl, mp4Url);
      });
    };
    const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
    let idle = !saveData && video.paused && 'requestIdleCallback' in window ? requestIdleCallback(load, { timeout: 4000 }) : null;
    if (!video.paused) load();
    else video.addEventListener('play', load);
    return () => {
      live = false;
      if (idle !== null) cancelIdleCallback(idle);
      video.removeEventListener('play', load);
      detach();
    };
  }, [videoId, hlsUrl, mp4Url]);

  // The member's autoplay preference (settings); visitors get no autoplay.
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || loading || !allowAutoplay || !user?.autoPlayVideos || !video.paused) return;
    video.play().catch(() => {
      // Browsers allow autoplay with sound only after interaction; muted autoplay is always allowed.
      video.muted = true;
      void video
        .play()
        .then(() => setNote('Muted autoplay. Unmute with the speaker button.'))
        .catch(() => {});
    });
  }, [videoId, loading, user, allowAutoplay]);

  // One view when playback first starts; the server counts once per viewer per day and ignores bots.
  // Playback may have started from the server's HTML before this code arrived: then it counts at once. The API
  // client loads with the first play, like hls.js: a visitor who only reads the page never fetches it.
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || !countView) return;
    const onPlaying = () => {
      video.removeEventListener('playing', onPlaying);
      void import('@/lib/client/api-client')
        .then(({ apiRequest }) => apiRequest(`/api/videos/${streamVideoId}/view`, { method: 'POST', json: {} }))
        .catch(() => {});
    };
    if (!video.paused && video.currentTime > 0) onPlaying();
    else video.addEventListener('playing', onPlaying);
    return () => video.removeEventListener('playing', onPlaying);
  }, [videoId, streamVideoId, countView]);

  // Resume and history (player-progress.ts, decision 053), loaded with the first play like the view count; once the
  // session is known, since a member's place is kept on the server and a visitor's in this browser.
  const memberId = user?._id ?? null;
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || !countView || loading) return;
    let live = true;
    let stop = () => {};
    const start = () => {
      video.removeEventListener('play', start);
      void import('./player-progress').then(({ trackProgress }) => {
        if (live) stop = trackProgress(video, { streamVideoId, member: memberId !== null });
      });
    };
    if (!video.paused) start();
    else video.addEventListener('play', start);
    return () => {
      live = false;
      video.removeEventListener('play', start);
      stop();
    };
  }, [videoId, streamVideoId, countView, loading, memberId]);

  // A member's unmuting clears the muted-autoplay note.
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || !note) return;
    const clear = () => setNote(null);
    video.addEventListener('volumechange', clear, { once: true });
    return () => video.removeEventListener('volumechange', clear);
  }, [videoId, note]);

  return note ? (
    <span className="player-note" role="status">
      {note}
    </span>
  ) : null;
}
