/**
 * The media-chrome custom elements the video player renders on the server (components/videos/VideoPlayer.tsx).
 * Their classes register in the browser when components/videos/player-chrome.ts loads; React renders them as
 * plain elements with attributes, which is all the server needs to know.
 */
import type { HTMLAttributes } from 'react';

type MediaElementProps = HTMLAttributes<HTMLElement> & {
  [attribute: `${string}`]: string | number | boolean | undefined | unknown;
};

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'media-controller': MediaElementProps;
      'media-control-bar': MediaElementProps;
      'media-play-button': MediaElementProps;
      'media-seek-backward-button': MediaElementProps;
      'media-seek-forward-button': MediaElementProps;
      'media-mute-button': MediaElementProps;
      'media-volume-range': MediaElementProps;
      'media-time-range': MediaElementProps;
      'media-time-display': MediaElementProps;
      'media-captions-button': MediaElementProps;
      'media-pip-button': MediaElementProps;
      'media-fullscreen-button': MediaElementProps;
      'media-loading-indicator': MediaElementProps;
      'media-preview-thumbnail': MediaElementProps;
      'media-settings-menu': MediaElementProps;
      'media-settings-menu-item': MediaElementProps;
      'media-settings-menu-button': MediaElementProps;
      'media-rendition-menu': MediaElementProps;
      'media-playback-rate-menu': MediaElementProps;
      'media-captions-menu': MediaElementProps;
    }
  }
}
