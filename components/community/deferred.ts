'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// The video page's community islands, whose code loads once the page has hydrated (decision 031); the server's HTML holds them in full.

/** The video page's comments: the first page is in the server's HTML; the threads' code comes after. */
export const DeferredComments = deferredIsland(() => import('./Comments').then((m) => m.Comments), 'Comments');

/** Renders an aria-hidden placeholder until the session is known, so there is nothing to click early. */
export const DeferredFollowButton = deferredIsland(() => import('./FollowButton').then((m) => m.FollowButton), 'FollowButton', { as: 'span' });

/** A plain button in the server's markup: inert until its dialog can open. */
export const DeferredReportDialog = deferredIsland(() => import('./ReportDialog').then((m) => m.ReportDialog), 'ReportDialog', { as: 'span', inertUntilLoaded: true });
