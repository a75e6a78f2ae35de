// hls.js ships its light build (no alternate audio, HLS subtitles, DRM or CMCD, none of which our ladder uses;
// captions are <track>s, decision 051) without a declaration of its own: it is the same API.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
