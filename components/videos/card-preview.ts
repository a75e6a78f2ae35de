/**
 * A card's preview clip (lib/media/previews.ts) plays over its thumbnail, silent and looping, while a mouse rests on
 * it, or after a touch held on it on phones; never for a viewer who asks for reduced motion or to save data. The
 * <video> exists only while it plays, so nothing is fetched before a viewer asks for it.
 */

/** A pointer resting this long means interest, not a pass over the grid on the way elsewhere. */
const HOVER_MS = 250;
/** A touch held this long without moving is a hold, before the browser's own long press (about 500 ms). */
const HOLD_MS = 400;
const MOVE_PX = 10;

let playing: { thumb: HTMLElement; video: HTMLVideoElement } | null = null;

function wanted(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return !window.matchMedia('(prefers-reduced-motion: reduce)').matches && connection?.saveData !== true;
}

const thumbOf = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLElement>('[data-preview]') : null;

function start(thumb: HTMLElement): void {
  if (playing?.thumb === thumb || !wanted()) return;
  stop();
  const video = document.createElement('video');
  video.className = 'video-thumb-preview';
  video.muted = true;
  video.loop = true;
  video.playsInline = true;
  video.disablePictureInPicture = true;
  video.setAttribute('aria-hidden', 'true');
  video.src = thumb.dataset.preview!;
  // Shown once it has a frame, so the thumbnail never blinks to black while the clip loads.
  video.addEventListener('playing', () => (thumb.dataset.previewing = 'playing'), { once: true });
  thumb.append(video);
  playing = { thumb, video };
  video.play().catch(() => {
    if (playing?.video === video) stop();
  });
}

function stop(): void {
  if (!playing) return;
  const { thumb, video } = playing;
  playing = null;
  delete thumb.dataset.previewing;
  video.pause();
  // Releases the connection and the decoder now rather than at garbage collection.
  video.removeAttribute('src');
  video.load();
  video.remove();
}

export function installCardPreviews(firstEvent: Event): void {
  let hoverTimer: ReturnType<typeof setTimeout> | undefined;
  let hovered: HTMLElement | null = null;

  const onOver = (event: PointerEvent) => {
    if (event.pointerType === 'touch') return;
    const thumb = thumbOf(event.target);
    if (thumb === hovered) return;
    clearTimeout(hoverTimer);
    hovered = thumb;
    if (thumb) hoverTimer = setTimeout(() => start(thumb), HOVER_MS);
  };
  const onOut = (event: PointerEvent) => {
    if (event.pointerType === 'touch' || !hovered) return;
    if (event.relatedTarget instanceof Node && hovered.contains(event.relatedTarget)) return;
    clearTimeout(hoverTimer);
    if (playing?.thumb === hovered) stop();
    hovered = null;
  };

  // Touch: a hold previews; the tap that follows opens the video, the release of the hold itself does not.
  let hold: { thumb: HTMLElement; x: number; y: number; timer: ReturnType<typeof setTimeout> } | null = null;
  let swallowClickOf: HTMLElement | null = null;
  const onTouchStart = (event: TouchEvent) => {
    const thumb = thumbOf(event.target);
    if (playing && playing.thumb !== thumb) stop();
    if (!thumb || event.touches.length !== 1) return;
    const touch = event.touches[0]!;
    // The first touch reaches here after this module loaded: the hold counts from the touch itself.
    const elapsed = Math.max(0, performance.now() - event.timeStamp);
    hold = {
      thumb,
      x: touch.clientX,
      y: touch.clientY,
      timer: setTimeout(
        () => {
          start(thumb);
          swallowClickOf = thumb;
        },
        Math.max(0, HOLD_MS - elapsed),
      ),
    };
  };
  const onTouchMove = (event: TouchEvent) => {
    const touch = event.touches[0];
    if (hold && touch && Math.hypot(touch.clientX - hold.x, touch.clientY - hold.y) > MOVE_PX) cancelHold();
  };
  const cancelHold = () => {
    if (hold) clearTimeout(hold.timer);
    hold = null;
  };
  const onClick = (event: MouseEvent) => {
    if (!swallowClickOf) return;
    const held = swallowClickOf;
    swallowClickOf = null;
    if (held.contains(event.target as Node)) event.preventDefault();
  };
  // The browser's long-press menu would cover the clip the hold asked for.
  const onContextMenu = (event: Event) => {
    if (hold && thumbOf(event.target) === hold.thumb) event.preventDefault();
  };
  const onHidden = () => {
    if (document.hidden) stop();
  };

  document.addEventListener('pointerover', onOver);
  document.addEventListener('pointerout', onOut);
  document.addEventListener('touchstart', onTouchStart, { passive: true });
  document.addEventListener('touchmove', onTouchMove, { passive: true });
  document.addEventListener('touchend', cancelHold);
  document.addEventListener('touchcancel', cancelHold);
  document.addEventListener('click', onClick, true);
  document.addEventListener('contextmenu', onContextMenu);
  document.addEventListener('visibilitychange', onHidden);
  // Leaving the page (client navigation) takes the card with it; the clip must not keep playing unseen.
  window.addEventListener('pagehide', stop);

  if (firstEvent.type === 'pointerover') onOver(firstEvent as PointerEvent);
  else if (firstEvent.type === 'touchstart') onTouchStart(firstEvent as TouchEvent);
}
