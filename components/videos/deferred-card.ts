'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// A card's buttons (and the video page's), whose code loads once the page has hydrated (decision 031). A module of
// their own: a page's first load carries a loader for every deferred island of the modules it imports.

/** `data-state="loading"` until the session is known. */
export const DeferredLikeButton = deferredIsland(() => import('@/components/community/LikeButton').then((m) => m.LikeButton), 'LikeButton', { as: 'span' });

/** `data-state="loading"` until the session is known. */
export const DeferredWatchLaterButton = deferredIsland(() => import('./WatchLaterButton').then((m) => m.WatchLaterButton), 'WatchLaterButton', { as: 'span' });
