'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Each island twice: `import()` for the browser (its own chunk), and `require` where `typeof window` is 'undefined',
// so the server renders it synchronously; the bundler replaces `typeof window` and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * A feed (home's Top Videos and Recent Uploads) whose code loads once the page has hydrated (decision 031): the
 * server's cards are plain links with the first row's eager picture; the infinite scroll, the local-storage cache
 * and the cards' buttons come with the feed's chunk.
 */
export const DeferredVideoFeed = deferredIsland(
  () => import('./VideoFeed').then((m) => m.VideoFeed),
  typeof window === 'undefined' ? (require('./VideoFeed') as typeof import('./VideoFeed')).VideoFeed : null,
  'VideoFeed',
);

/** An empty list's links (log in, or upload for a member), read from local storage once the page has hydrated. */
export const DeferredNoVideos = deferredIsland(
  () => import('./NoVideos').then((m) => m.NoVideos),
  typeof window === 'undefined' ? (require('./NoVideos') as typeof import('./NoVideos')).NoVideos : null,
  'NoVideos',
);
