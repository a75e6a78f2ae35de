/**
 * The player's controls (decision 047): media-chrome's elements, registered when this module loads (PlayerEnhancer
 * imports it at the first sign of intent), upgrade the markup VideoPlayer rendered on the server. What media-chrome
 * lacks and viewers of the big sites expect is added here: j/l and 0–9 (player-keys.ts) and a double tap on either
 * side of the picture to seek on touch screens.
 */
import 'media-tracks/polyfill';
import 'media-chrome/dist/media-controller.js';
import 'media-chrome/dist/media-control-bar.js';
import 'media-chrome/dist/media-play-button.js';
import 'media-chrome/dist/media-mute-button.js';
import 'media-chrome/dist/media-volume-range.js';
import 'media-chrome/dist/media-time-range.js';
import 'media-chrome/dist/media-time-display.js';
import 'media-chrome/dist/media-captions-button.js';
import 'media-chrome/dist/media-pip-button.js';
import 'media-chrome/dist/media-fullscreen-button.js';
import 'media-chrome/dist/media-loading-indicator.js';
import 'media-chrome/dist/menu/media-settings-menu.js';
import 'media-chrome/dist/menu/media-settings-menu-item.js';
import 'media-chrome/dist/menu/media-settings-menu-button.js';
import 'media-chrome/dist/menu/media-rendition-menu.js';
import 'media-chrome/dist/menu/media-playback-rate-menu.js';
import 'media-chrome/dist/menu/media-captions-menu.js';

import { playerKeySeek, SEEK_JL_SECONDS } from './player-keys';

/** Two taps closer together than this are a double tap, as on YouTube's phone player. */
const DOUBLE_TAP_MS = 300;

/** Turns the player's markup into the full player; returns what undoes it. */
export function installChrome(player: HTMLElement, video: HTMLVideoElement): () => void {
  const controller = player.querySelector<HTMLElement>('media-controller');
  if (!controller) return () => {};
  // From here media-chrome draws the controls: the browser's own (the stand-in until now) go.
  player.dataset.chrome = 'ready';
  video.controls = false;
  const removeStoryboard = addStoryboard(player, video);
  const hint = document.createElement('span');
  hint.className = 'player-seek-hint';
  hint.setAttribute('role', 'status');
  player.append(hint);

  const seekTo = (time: number, label?: string) => {
    video.currentTime = time;
    if (!label) return;
    hint.textContent = label;
    hint.dataset.shown = 'true';
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => delete hint.dataset.shown, 700);
  };
  let hintTimer: ReturnType<typeof setTimeout> | undefined;

  const onKey = (event: KeyboardEvent) => {
    if (event.metaKey || event.ctrlKey || event.altKey || event.defaultPrevented) return;
    const to = playerKeySeek(event.key, video.currentTime, video.duration);
    if (to === null) return;
    event.preventDefault();
    seekTo(to);
  };

  // A double tap on the left or right third seeks back or forward; media-chrome keeps the single tap (show the controls).
  let lastTap = { at: 0, side: 0 };
  const onTap = (event: PointerEvent) => {
    if (event.pointerType !== 'touch' || !tappedPicture(event)) return;
    const { left, width } = controller.getBoundingClientRect();
    const x = (event.clientX - left) / width;
    const side = x < 1 / 3 ? -1 : x > 2 / 3 ? 1 : 0;
    const now = event.timeStamp;
    if (side !== 0 && side === lastTap.side && now - lastTap.at < DOUBLE_TAP_MS) {
      const to = Math.max(0, Math.min(video.duration || Infinity, video.currentTime + side * SEEK_JL_SECONDS));
      seekTo(to, side < 0 ? `− ${SEEK_JL_SECONDS} s` : `+ ${SEEK_JL_SECONDS} s`);
      lastTap = { at: 0, side: 0 };
      return;
    }
    lastTap = { at: now, side };
  };

  controller.addEventListener('keydown', onKey);
  controller.addEventListener('pointerup', onTap);
  return () => {
    controller.removeEventListener('keydown', onKey);
    controller.removeEventListener('pointerup', onTap);
    clearTimeout(hintTimer);
    hint.remove();
    removeStoryboard();
  };
}

/**
 * The seek bar's previews: media-chrome shows the tile of a `<track kind="metadata" label="thumbnails">` when the
 * seek bar is hovered or dragged. Added here rather than in the server's markup, so the WebVTT loads with the
 * controls, not with every page view; hidden mode loads its cues without showing them.
 */
function addStoryboard(player: HTMLElement, video: HTMLVideoElement): () => void {
  const src = player.dataset.storyboard;
  if (!src) return () => {};
  const track = document.createElement('track');
  track.kind = 'metadata';
  track.label = 'thumbnails';
  track.src = src;
  track.default = true;
  video.append(track);
  track.track.mode = 'hidden';
  return () => track.remove();
}

/** A tap on the picture itself, not on a control, menu or the seek bar. */
function tappedPicture(event: PointerEvent): boolean {
  return !event
    .composedPath()
    .some((node) => node instanceof HTMLElement && /^MEDIA-(?!CONTROLLER$|GESTURE-RECEIVER$|CONTAINER$)/.test(node.tagName));
}
