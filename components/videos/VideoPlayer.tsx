import { PlayIcon } from '@/components/icons';
import type { CaptionTrackDto } from '@/lib/api-types';
import { PLAYER_START_SCRIPT } from '@/lib/app-scripts/generated';
import { formatDuration } from '@/lib/format/numbers';

import { PlayerEnhancer, type PlayerSource } from './PlayerEnhancer';
import { PLAYBACK_RATES, SEEK_ARROW_SECONDS } from './player-keys';

interface PlayerProps extends PlayerSource {
  streamVideoId: string;
  title: string;
  poster: string | null;
  /** Shown on the start button, as on the cards, and by the time display before the file's metadata arrives. */
  durationSeconds?: number | null;
  /** Count a view when playback starts (public videos; not owner previews). */
  countView?: boolean;
  /** The embed page autoplays never; the video page follows the member's preference. */
  allowAutoplay?: boolean;
  /**
   * The start button over the poster until playback starts (decision 035). Its inline script runs only in server
   * HTML: a player React draws in the browser (the owner's preview) loads its controls at once.
   */
  startButton?: boolean;
  /** The seek bar's thumbnails track (lib/media/previews.ts); the controls' code adds it, so it loads with them. */
  storyboardUrl?: string | null;
  /** The video's captions (decision 051): browsers fetch a track only when it is turned on; without any, the CC button and menu hide (videos.css). */
  captions?: CaptionTrackDto[];
}

/**
 * The video player (decision 047): a native <video> that plays the web MP4 from the server HTML (works without
 * JavaScript, and for crawlers) inside media-chrome's controller, whose controls are plain markup here and come alive
 * when PlayerEnhancer loads their code at the first sign of intent (a pointer or the focus on the player, or playback).
 * Until then the browser's own controls stand in, so a press is always answered.
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
  storyboardUrl = null,
  captions = [],
}: PlayerProps) {
  const videoId = `player-${streamVideoId}`;
  const settingsId = `player-settings-${streamVideoId}`;
  const source = mp4Url ?? hlsUrl;
  const withStart = startButton && source !== null;
  const duration = formatDuration(durationSeconds);
  return (
    <>
      <div className="player" data-storyboard={storyboardUrl ?? undefined}>
        <media-controller
          class="player-chrome"
          keyboardforwardseekoffset={SEEK_ARROW_SECONDS}
          keyboardbackwardseekoffset={SEEK_ARROW_SECONDS}
          hotkeys="noj nol"
          defaultduration={durationSeconds ?? undefined}
        >
          <video
            slot="media"
            id={videoId}
            controls={!withStart}
            playsInline
            preload="metadata"
            poster={poster ?? undefined}
            aria-label={`Video: ${title}`}
            src={mp4Url ?? undefined}
          >
            {captions.map((track) => (
              <track key={track.language} kind="subtitles" srcLang={track.language} label={track.label} src={track.url} />
            ))}
            Your browser cannot play this video.{mp4Url && <a href={mp4Url}> Download it instead.</a>}
          </video>
          <media-loading-indicator slot="centered-chrome" noautohide="" />
          <media-settings-menu id={settingsId} hidden anchor="auto">
            {hlsUrl && (
              <media-settings-menu-item>
                Quality
                <media-rendition-menu slot="submenu" hidden>
                  <div slot="title">Quality</div>
                </media-rendition-menu>
              </media-settings-menu-item>
            )}
            <media-settings-menu-item>
              Speed
              <media-playback-rate-menu slot="submenu" hidden rates={PLAYBACK_RATES.join(' ')}>
                <div slot="title">Speed</div>
              </media-playback-rate-menu>
            </media-settings-menu-item>
            <media-settings-menu-item>
              Captions
              <media-captions-menu slot="submenu" hidden>
                <div slot="title">Captions</div>
              </media-captions-menu>
            </media-settings-menu-item>
          </media-settings-menu>
          <media-control-bar class="player-time-bar">
            <media-time-range />
          </media-control-bar>
          <media-control-bar>
            <media-play-button />
            <media-mute-button />
            <media-volume-range />
            <media-time-display showduration="" />
            <span className="player-bar-gap" />
            <media-captions-button />
            <media-settings-menu-button invoketarget={settingsId} />
            <media-pip-button />
            <media-fullscreen-button />
          </media-control-bar>
        </media-controller>
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
          startButton={withStart}
        />
      </div>
      {withStart && <script dangerouslySetInnerHTML={{ __html: PLAYER_START_SCRIPT.text }} />}
    </>
  );
}
