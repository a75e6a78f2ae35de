import { PlayIcon } from '@/components/icons';
import { PLAYER_START_SCRIPT } from '@/lib/app-scripts/generated';
import { formatDuration } from '@/lib/format/numbers';

import { PlayerEnhancer, type PlayerSource } from './PlayerEnhancer';

interface PlayerProps extends PlayerSource {
  streamVideoId: string;
  title: string;
  poster: string | null;
  /** Shown on the start button, as on the cards: the browser's controls (and their time display) come at the first play. */
  durationSeconds?: number | null;
  /** Count a view when playback starts (public videos; not owner previews). */
  countView?: boolean;
  /** The embed page autoplays never; the video page follows the member's preference. */
  allowAutoplay?: boolean;
  /**
   * The start button over the poster instead of the browser's controls until playback starts (decision 035).
   * Its inline script runs only in server HTML: a player React draws in the browser (the owner's preview) has
   * the controls from the start.
   */
  startButton?: boolean;
}

/**
 * The video player: a native <video> element that plays the web MP4 from the server HTML (works without
 * JavaScript, and for crawlers), plays at once however long the page's scripts take, and is enhanced by
 * PlayerEnhancer (HLS, autoplay preference, view count), a client component that renders nothing but the autoplay note.
 */
export function VideoPlayer({
  streamVideoId,
  title,
  poster,
  durationSeconds = null,
  mp4Url,
  hlsUrl,
  countView = true,
  allowAutoplay = true,
  startButton = true,
}: PlayerProps) {
  const videoId = `player-${streamVideoId}`;
  const source = mp4Url ?? hlsUrl;
  const withStart = startButton && source !== null;
  const duration = formatDuration(durationSeconds);
  return (
    <>
      <div className="player">
        <video
          id={videoId}
          controls={!withStart}
          playsInline
          preload="metadata"
          poster={poster ?? undefined}
          aria-label={`Video: ${title}`}
          src={mp4Url ?? undefined}
        >
          Your browser cannot play this video.{mp4Url && <a href={mp4Url}> Download it instead.</a>}
        </video>
        {withStart && (
          <a className="player-start" href={source} aria-label={duration ? `Play: ${title} (${duration})` : `Play: ${title}`}>
            <span className="player-start-icon">
              <PlayIcon />
            </span>
            {duration && <span className="video-duration">{duration}</span>}
          </a>
        )}
        <PlayerEnhancer
          videoId={videoId}
          streamVideoId={streamVideoId}
          mp4Url={mp4Url}
          hlsUrl={hlsUrl}
          countView={countView}
          allowAutoplay={allowAutoplay}
        />
      </div>
      {withStart && <script dangerouslySetInnerHTML={{ __html: PLAYER_START_SCRIPT.text }} />}
    </>
  );
}
