'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Each island twice: `import()` for the browser (its own chunk), and `require` where `typeof window` is 'undefined',
// so the server renders it synchronously; the bundler replaces `typeof window` and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

// A card's buttons (and the video page's), whose code loads once the page has hydrated (decision 031). A module of
// their own: a page's first load carries a loader for every deferred island of the modules it imports.

/** `data-state="loading"` until the session is known. */
export const DeferredLikeButton = deferredIsland(
  () => import('@/components/community/LikeButton').then((m) => m.LikeButton),
  typeof window === 'undefined' ? (require('@/components/community/LikeButton') as typeof import('@/components/community/LikeButton')).LikeButton : null,
  'LikeButton',
  { as: 'span' },
);

/** `data-state="loading"` until the session is known. */
export const DeferredWatchLaterButton = deferredIsland(
  () => import('./WatchLaterButton').then((m) => m.WatchLaterButton),
  typeof window === 'undefined' ? (require('./WatchLaterButton') as typeof import('./WatchLaterButton')).WatchLaterButton : null,
  'WatchLaterButton',
  { as: 'span' },
);
