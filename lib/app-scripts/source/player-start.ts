/**
 * The player's start button (decision 035). The video page's `<video>` comes without the browser's controls: their
 * shadow tree (some sixty elements and the media controls' own stylesheet) is styled, laid out and painted on the
 * phone's main thread while the page loads, even when nobody presses play. Over the poster sits a link to the MP4
 * (without JavaScript it opens the video in the browser's own player); the inline script compiled from this file
 * (decision 044), right after the player's markup, turns it into the start button before the page's bundles arrive:
 * a click (or Enter) shows the controls, plays and moves the focus to the video. Playback started any other way (the
 * member's autoplay, a script) shows the controls too. The controls are the browser's until media-chrome's have
 * loaded (decision 047), then those.
 *
 * Only attributes and properties change, never elements: React hydrates the tree the server sent (in production it
 * does not patch attribute differences).
 */

/** Enhances the player just before the running script (the `.player` element VideoPlayer renders). */
export function startPlayerBeforeScript(): void {
  const player = document.currentScript?.previousElementSibling;
  const video = player?.querySelector('video');
  const start = player?.querySelector<HTMLElement>('.player-start');
  if (!player || !video || !start) return;
  // Once the player's own controls have loaded (PlayerEnhancer marks data-chrome) they are drawn instead.
  const showControls = () => {
    start.hidden = true;
    if (!player.hasAttribute('data-chrome')) video.controls = true;
  };
  video.addEventListener('play', showControls);
  start.addEventListener('click', (event) => {
    event.preventDefault();
    showControls();
    video.focus();
    // Refused (autoplay rules, no source yet): the controls are there to press play.
    video.play().catch(() => {});
  });
}
