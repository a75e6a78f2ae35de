/**
 * The quality menu's data: hls.js's levels as the video's renditions (the media-tracks polyfill of the
 * VideoTrack / VideoRendition API that media-chrome's rendition menu reads), and the viewer's choice back to hls.js.
 * Auto is hls.js's own adaptive choice. As hls-video-element does it, on a plain <video> (decision 047).
 */
import 'media-tracks/polyfill';

import type Hls from 'hls.js';
import type { Level } from 'hls.js';

interface TrackedVideo extends HTMLVideoElement {
  videoTracks: { getTrackById(id: string): TrackedTrack | null; [index: number]: TrackedTrack; length: number };
  videoRenditions: EventTarget & { selectedIndex: number };
  addVideoTrack(kind: string, label?: string, language?: string): TrackedTrack;
  removeVideoTrack(track: TrackedTrack): void;
}
interface TrackedTrack {
  id: string;
  selected: boolean;
  addRendition(src: string, width?: number, height?: number, codec?: string, bitrate?: number): { id: string };
}

/** Mirrors hls's levels into the video's renditions; returns what undoes it. */
export function exposeRenditions(hls: Hls, events: typeof Hls.Events, element: HTMLVideoElement): () => void {
  const video = element as TrackedVideo;
  // The player shows its Quality item only when there is a choice (videos.css).
  const player = video.closest<HTMLElement>('.player');
  const removeTracks = () => {
    while (video.videoTracks.length > 0) video.removeVideoTrack(video.videoTracks[0]!);
    delete player?.dataset.renditions;
  };
  const onManifest = (_event: string, data: { levels: Level[] }) => {
    removeTracks();
    const track = video.addVideoTrack('main');
    track.id = 'main';
    track.selected = true;
    data.levels.forEach((level, index) => {
      const rendition = track.addRendition(level.url[0] ?? '', level.width, level.height, level.videoCodec, level.bitrate);
      rendition.id = String(index);
    });
    if (player && data.levels.length > 1) player.dataset.renditions = String(data.levels.length);
  };
  // The menu's choice: a rung from the next segment on (nextLevel, no stall), or -1 for Auto.
  const onChoice = () => {
    const level = video.videoRenditions.selectedIndex;
    if (level !== hls.nextLevel) hls.nextLevel = level;
  };
  hls.on(events.MANIFEST_PARSED, onManifest);
  video.videoRenditions.addEventListener('change', onChoice);
  return () => {
    hls.off(events.MANIFEST_PARSED, onManifest);
    video.videoRenditions.removeEventListener('change', onChoice);
    removeTracks();
  };
}
