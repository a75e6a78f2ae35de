'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Each island twice: `import()` for the browser (the video page's islands' chunk), and `require`
// where `typeof window` is 'undefined', so the server renders it synchronously; the bundler replaces `typeof window`
// and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

// The video page's community islands, whose code loads once the page has hydrated (decision 031); the server's HTML holds them in full.

/** The video page's comments: the first page is in the server's HTML; the threads' code comes after. */
export const DeferredComments = deferredIsland(
  () => import('@/components/videos/video-page-islands').then((m) => m.Comments),
  typeof window === 'undefined' ? (require('./Comments') as typeof import('./Comments')).Comments : null,
  'Comments',
);

/** Renders an aria-hidden placeholder until the session is known, so there is nothing to click early. */
export const DeferredFollowButton = deferredIsland(
  () => import('@/components/videos/video-page-islands').then((m) => m.FollowButton),
  typeof window === 'undefined' ? (require('./FollowButton') as typeof import('./FollowButton')).FollowButton : null,
  'FollowButton',
  { as: 'span' },
);

/** A plain button in the server's markup: inert until its dialog can open. */
export const DeferredReportDialog = deferredIsland(
  () => import('@/components/videos/video-page-islands').then((m) => m.ReportDialog),
  typeof window === 'undefined' ? (require('./ReportDialog') as typeof import('./ReportDialog')).ReportDialog : null,
  'ReportDialog',
  { as: 'span', inertUntilLoaded: true },
);
