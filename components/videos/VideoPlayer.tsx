'use client';

import { useEffect, useRef, useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import { apiRequest } from '@/lib/client/http';

export interface PlayerSource {
  mp4Url: string | null;
  hlsUrl: string | null;
}

interface PlayerProps extends PlayerSource {
  streamVideoId: string;
  title: string;
  poster: string | null;
  /** Count a view when playback starts (public videos; not owner previews). */
  countView?: boolean;
  /** The embed page autoplays never; the video page follows the member's preference. */
  allowAutoplay?: boolean;
}

/**
 * The video player: a native <video> element that plays the web MP4 from
 * the server HTML (works without JavaScript, and for crawlers), upgraded to
 * adaptive HLS with hls.js where Media Source Extensions exist (Safari plays
 * HLS natively). hls.js loads at the first play, so it costs pages without a
 * player, and visitors who do not play, nothing. Any fatal HLS error falls back to the MP4.
 */
export function VideoPlayer({ streamVideoId, title, poster, mp4Url, hlsUrl, countView = true, allowAutoplay = true }: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { user, loading } = useSession();
  const [note, setNote] = useState<string | null>(null);

  // Adaptive streaming, when there is a ladder.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !hlsUrl) return;
    let destroyed = false;
    let hls: import('hls.js').default | null = null;
    const fallBack = () => {
      if (mp4Url && video.currentSrc !== new URL(mp4Url, location.href).href) {
        const at = video.currentTime;
        video.src = mp4Url;
        video.currentTime = at;
      }
    };
    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = hlsUrl;
      return;
    }
    // hls.js (about 90 KB) and its first segments wait for the first play: until then the page costs a phone
    // only the poster, and playback starts from the MP4 and moves to HLS at the same position (decision 027).
    const upgrade = () => void import('hls.js').then(({ default: Hls }) => {
      if (destroyed || !Hls.isSupported()) return;
      const at = video.currentTime;
      const wasPlaying = !video.paused;
      hls = new Hls({ capLevelToPlayerSize: true, startPosition: at });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        hls?.destroy();
        hls = null;
        fallBack();
      });
      hls.loadSource(hlsUrl);
      hls.attachMedia(video);
      if (wasPlaying) void video.play().catch(() => {});
    });
    if (!video.paused) upgrade();
    else video.addEventListener('play', upgrade, { once: true });
    return () => {
      destroyed = true;
      video.removeEventListener('play', upgrade);
      hls?.destroy();
    };
  }, [hlsUrl, mp4Url]);

  // The member's autoplay preference (settings); visitors get no autoplay.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || loading || !allowAutoplay || !user?.autoPlayVideos) return;
    video.play().catch(() => {
      // Browsers allow autoplay with sound only after interaction; muted autoplay is always allowed.
      video.muted = true;
      void video
        .play()
        .then(() => setNote('Muted autoplay. Unmute with the speaker button.'))
        .catch(() => {});
    });
  }, [loading, user, allowAutoplay]);

  // One view when playback first starts; the server counts once per viewer per day and ignores bots.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !countView) return;
    const onPlaying = () => {
      video.removeEventListener('playing', onPlaying);
      void apiRequest(`/api/videos/${streamVideoId}/view`, { method: 'POST', json: {} }).catch(() => {});
    };
    video.addEventListener('playing', onPlaying);
    return () => video.removeEventListener('playing', onPlaying);
  }, [streamVideoId, countView]);

  return (
    <div className="player">
      <video
        ref={videoRef}
        controls
        playsInline
        preload="metadata"
        poster={poster ?? undefined}
        aria-label={`Video: ${title}`}
        src={mp4Url ?? undefined}
        onVolumeChange={() => setNote(null)}
      >
        Your browser cannot play this video.{mp4Url && <a href={mp4Url}> Download it instead.</a>}
      </video>
      {note && (
        <span className="player-note" role="status">
          {note}
        </span>
      )}
    </div>
  );
}
