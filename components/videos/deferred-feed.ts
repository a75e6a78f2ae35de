'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

/**
 * A feed (home's Top Videos and Recent Uploads) whose code loads once the page has hydrated (decision 031): the
 * server's cards are plain links with the first row's eager picture; the infinite scroll, the local-storage cache
 * and the cards' buttons come with the feed's chunk.
 */
export const DeferredVideoFeed = deferredIsland(() => import('./VideoFeed').then((m) => m.VideoFeed), 'VideoFeed');

/** An empty list's links (log in, or upload for a member), read from local storage once the page has hydrated. */
export const DeferredNoVideos = deferredIsland(() => import('./NoVideos').then((m) => m.NoVideos), 'NoVideos');
