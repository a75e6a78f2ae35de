'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Each island twice: `import()` for the browser (the video page's islands' chunk), and `require`
// where `typeof window` is 'undefined', so the server renders it synchronously; the bundler replaces `typeof window`
// and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

// The video page's own islands, whose code loads once the page has hydrated (decision 031); the server's HTML holds them in full.

/** A plain button in the server's markup: inert until its dialog can open. */
export const DeferredShareButton = deferredIsland(
  () => import('./video-page-islands').then((m) => m.ShareButton),
  typeof window === 'undefined' ? (require('./ShareButton') as typeof import('./ShareButton')).ShareButton : null,
  'ShareButton',
  { as: 'span', inertUntilLoaded: true },
);

/** Nothing in the server's markup (it waits for the session). */
export const DeferredVideoPageManage = deferredIsland(
  () => import('./video-page-islands').then((m) => m.VideoPageManage),
  typeof window === 'undefined' ? (require('./VideoPageManage') as typeof import('./VideoPageManage')).VideoPageManage : null,
  'VideoPageManage',
);

/** The server's text until the reader's clock replaces it. */
export const DeferredRelativeTime = deferredIsland(
  () => import('./video-page-islands').then((m) => m.RelativeTime),
  typeof window === 'undefined' ? (require('./RelativeTime') as typeof import('./RelativeTime')).RelativeTime : null,
  'RelativeTime',
  { as: 'span' },
);
