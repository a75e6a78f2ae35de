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
 * first load, decision 031, and may find playback already started): adaptive HLS from the first play, so visitors who
 * do not play pay for the poster alone, with hls.js where Media Source Extensions exist and the browser's own HLS
 * where they do not (iPhones before ManagedMediaSource); any fatal HLS error falls back to the MP4. The controls
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

  // Adaptive streaming, when there is a ladder.
  useEffect(() => {
    const video = findVideo(videoId);
    if (!video || !hlsUrl) return;
    let destroyed = false;
    let hls: import('hls.js').default | null = null;
    let hideRenditions = () => {};
    const fallBack = () => {
      if (mp4Url && video.currentSrc !== new URL(mp4Url, location.href).href) {
        const at = video.currentTime;
        video.src = mp4Url;
        video.currentTime = at;
      }
    };
    // Playback starts from the MP4 and moves to HLS at the same position at the first play (decision 027). The
    // browser's own HLS is used only without Media Source Extensions: Chromium plays HLS itself now too, and given
    // the playlist as the source on load it fetched the ladder's first segments (200 KB) for a visitor who never
    // pressed play.
    const hasMediaSource = 'MediaSource' in window || 'ManagedMediaSource' in window;
    const playNatively = () => {
      const at = video.currentTime;
      const wasPlaying = !video.paused;
      video.addEventListener('error', fallBack, { once: true });
      video.src = hlsUrl;
      video.currentTime = at;
      if (wasPlaying) void video.play().catch(() => {});
    };
    // hls.js's light build (no alternate audio, HLS subtitles or DRM, none of which the ladder has; about 117 KB) and
    // its first segments wait for the first play. With it, the rungs for the quality menu (player-renditions.ts).
    const loadHlsJs = () => Promise.all([import('hls.js/light'), import('./player-renditions')]);
    const withHlsJs = () =>
      void loadHlsJs().then(([{ default: Hls }, { exposeRenditions }]) => {
        if (destroyed || !Hls.isSupported()) return;
        const at = video.currentTime;
        const wasPlaying = !video.paused;
        hls = new Hls({ capLevelToPlayerSize: true, startPosition: at });
        hideRenditions = exposeRenditions(hls, Hls.Events, video);
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          hideRenditions();
          hls?.destroy();
          hls = null;
          fallBack();
        });
        hls.loadSource(hlsUrl);
        hls.attachMedia(video);
        if (wasPlaying) void video.play().catch(() => {});
      });
    const upgrade = hasMediaSource || !video.canPlayType('application/vnd.apple.mpegurl') ? withHlsJs : playNatively;
    // Loaded when the page is idle, hls.js is ready at the press: otherwise its download comes first on a
    // slow phone, and the ladder's first segment after it (decision 055). Not with data saver on.
    const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
    const idle =
      upgrade === withHlsJs && !saveData && 'requestIdleCallback' in window
        ? requestIdleCallback(() => void loadHlsJs().catch(() => {}), {
            timeout: 4000,
          })
        : null;
    if (!video.paused) upgrade();
    else video.addEventListener('play', upgrade, { once: true });
    return () => {
      destroyed = true;
      if (idle !== null) cancelIdleCallback(idle);
      video.removeEventListener('play', upgrade);
      video.removeEventListener('error', fallBack);
      hideRenditions();
      hls?.destroy();
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
