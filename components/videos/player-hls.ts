/**
 * Adaptive streaming for the player's <video> (PlayerEnhancer loads this when the video page is idle, or at the first
 * play with data saver on; decision 055). Playback starts from the MP4 and moves to HLS at the same position at the
 * first play (decision 027), with hls.js where Media Source Extensions exist and the browser's own HLS where they do
 * not (iPhones before ManagedMediaSource); any fatal HLS error falls back to the MP4. No playlist or segment is
 * fetched before the first play. Returns what undoes it.
 */
export function attachHls(video: HTMLVideoElement, hlsUrl: string, mp4Url: string | null): () => void {
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
  // The browser's own HLS only without Media Source Extensions: Chromium plays HLS itself now too, and given the
  // playlist as the source on load it fetched the ladder's first segments (200 KB) for a visitor who never pressed play.
  const hasMediaSource = 'MediaSource' in window || 'ManagedMediaSource' in window;
  const playNatively = () => {
    const at = video.currentTime;
    const wasPlaying = !video.paused;
    video.addEventListener('error', fallBack, { once: true });
    video.src = hlsUrl;
    video.currentTime = at;
    if (wasPlaying) void video.play().catch(() => {});
  };
  // hls.js's light build (no alternate audio, HLS subtitles or DRM, none of which the ladder has; about 115 KB), asked
  // for now so that it is ready at the press: fetched at the press, its download came before the ladder's first
  // segment on a slow phone. With it, the rungs for the quality menu (player-renditions.ts).
  const withHlsJs = () => {
    const loaded = Promise.all([import('hls.js/light'), import('./player-renditions')]);
    return () =>
      void loaded.then(([{ default: Hls }, { exposeRenditions }]) => {
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
  };
  const upgrade = hasMediaSource || !video.canPlayType('application/vnd.apple.mpegurl') ? withHlsJs() : playNatively;
  if (!video.paused) upgrade();
  else video.addEventListener('play', upgrade, { once: true });
  return () => {
    destroyed = true;
    video.removeEventListener('play', upgrade);
    video.removeEventListener('error', fallBack);
    hideRenditions();
    hls?.destroy();
  };
}
