'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// The video page's own islands, whose code loads once the page has hydrated (decision 031); the server's HTML holds them in full.

/** A plain button in the server's markup: inert until its dialog can open. */
export const DeferredShareButton = deferredIsland(() => import('./ShareButton').then((m) => m.ShareButton), 'ShareButton', { as: 'span', inertUntilLoaded: true });

/** Nothing in the server's markup (it waits for the session). */
export const DeferredVideoPageManage = deferredIsland(() => import('./VideoPageManage').then((m) => m.VideoPageManage), 'VideoPageManage');

/** The server's text until the reader's clock replaces it. */
export const DeferredRelativeTime = deferredIsland(() => import('./RelativeTime').then((m) => m.RelativeTime), 'RelativeTime', { as: 'span' });

