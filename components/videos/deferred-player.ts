'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

// Each island twice: `import()` for the browser (the video page's islands' chunk), and `require` where `typeof window`
// is 'undefined', so the server renders it synchronously; the bundler replaces `typeof window` and drops the browser's
// `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * The player's enhancements (decision 031). The <video> itself is server HTML outside the island, so its code
 * arriving never replaces an element that may be playing; the island renders nothing but the autoplay note.
 */
export const DeferredPlayerEnhancer = deferredIsland(
  () => import('./video-page-islands').then((m) => m.PlayerEnhancer),
  typeof window === 'undefined' ? (require('./PlayerEnhancer') as typeof import('./PlayerEnhancer')).PlayerEnhancer : null,
  'PlayerEnhancer',
  { as: 'span' },
);
