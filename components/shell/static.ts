'use client';

import { DeferredAccountArea, DeferredAdminFooterLink } from './deferred';
import { staticMarkup } from './static-markup';

// Each part twice: `import()` for a document React draws in the browser (one chunk for the three, fetched only there), and
// `require` where `typeof window` is 'undefined': the bundler replaces the test and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * The root layout's static markup (decision 033): server-rendered on every page, never hydrated in the browser. Their
 * behaviour is the inline scripts of header-script.ts and age-gate-boot.ts and the browser's popovers; the deferred
 * islands inside them hydrate in roots of their own.
 */
export const StaticSiteHeader = staticMarkup(
  () => import('./static-parts').then((m) => m.SiteHeader),
  typeof window === 'undefined' ? (require('./SiteHeader') as typeof import('./SiteHeader')).SiteHeader : null,
  'SiteHeader',
  [DeferredAccountArea],
);

export const StaticSiteFooter = staticMarkup(
  () => import('./static-parts').then((m) => m.SiteFooter),
  typeof window === 'undefined' ? (require('./SiteFooter') as typeof import('./SiteFooter')).SiteFooter : null,
  'SiteFooter',
  [DeferredAdminFooterLink],
);

export const StaticAgeGateDialog = staticMarkup(
  () => import('./static-parts').then((m) => m.AgeGateDialog),
  typeof window === 'undefined' ? (require('./AgeGateDialog') as typeof import('./AgeGateDialog')).AgeGateDialog : null,
  'AgeGateDialog',
);
