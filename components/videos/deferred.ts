'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Video islands whose code loads once the page has hydrated (decision 031); the server's HTML holds them in full.

/** `data-state="loading"` until the session is known. */
export const DeferredWatchLaterButton = deferredIsland(() => import('./WatchLaterButton').then((m) => m.WatchLaterButton), 'WatchLaterButton', { as: 'span' });

/** A plain button in the server's markup: inert until its dialog can open. */
export const DeferredShareButton = deferredIsland(() => import('./ShareButton').then((m) => m.ShareButton), 'ShareButton', { as: 'span', inertUntilLoaded: true });

/** Nothing in the server's markup (it waits for the session). */
export const DeferredVideoPageManage = deferredIsland(() => import('./VideoPageManage').then((m) => m.VideoPageManage), 'VideoPageManage');

/** The server's text until the reader's clock replaces it. */
export const DeferredRelativeTime = deferredIsland(() => import('./RelativeTime').then((m) => m.RelativeTime), 'RelativeTime', { as: 'span' });

/**
 * A feed (home's Top Videos and Recent Uploads): the server's cards are plain links with eager first-row pictures;
 * the infinite scroll, the local-storage cache and the cards' buttons come with the feed's code.
 */
export const DeferredVideoFeed = deferredIsland(() => import('./VideoFeed').then((m) => m.VideoFeed), 'VideoFeed');
