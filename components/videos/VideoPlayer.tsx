import type { PlayerSource } from './PlayerEnhancer';
import { DeferredPlayerEnhancer } from './deferred-player';

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
 * The video player: a native <video> element that plays the web MP4 from the server HTML (works without
 * JavaScript, and for crawlers), plays at once however long the page's scripts take, and is enhanced by
 * PlayerEnhancer (HLS, autoplay preference, view count), whose code loads after the page's first load.
 */
export function VideoPlayer({ streamVideoId, title, poster, mp4Url, hlsUrl, countView = true, allowAutoplay = true }: PlayerProps) {
  const videoId = `player-${streamVideoId}`;
  return (
    <div className="player">
      <video id={videoId} controls playsInline preload="metadata" poster={poster ?? undefined} aria-label={`Video: ${title}`} src={mp4Url ?? undefined}>
        Your browser cannot play this video.{mp4Url && <a href={mp4Url}> Download it instead.</a>}
      </video>
      <DeferredPlayerEnhancer videoId={videoId} streamVideoId={streamVideoId} mp4Url={mp4Url} hlsUrl={hlsUrl} countView={countView} allowAutoplay={allowAutoplay} />
    </div>
  );
}
