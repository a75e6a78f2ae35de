'use client';

import { deferredIsland } from './deferred-island';

// Each island twice: `import()` for the browser (its own chunk), and `require` where `typeof window` is 'undefined',
// so the server renders it synchronously; the bundler replaces `typeof window` and drops the browser's `require`.
/* eslint-disable @typescript-eslint/no-require-imports */

/**
 * The root layout's islands that need not answer before the page has hydrated (decision 031): their code stays out
 * of every page's first load. The account area's server markup is a placeholder until the session is known anyway.
 */
export const DeferredAccountArea = deferredIsland(
  () => import('./AccountArea').then((m) => m.AccountArea),
  typeof window === 'undefined' ? (require('./AccountArea') as typeof import('./AccountArea')).AccountArea : null,
  'AccountArea',
);

/** Scrolls to top and closes the header's menus after a router push; nothing to do before a first push. */
export const DeferredScrollToTop = deferredIsland(
  () => import('./ScrollToTop').then((m) => m.ScrollToTop),
  typeof window === 'undefined' ? (require('./ScrollToTop') as typeof import('./ScrollToTop')).ScrollToTop : null,
  'ScrollToTop',
);

/** The not-found page's stand-in for the layout's inline scripts (see ShellInBrowser). */
export const DeferredShellInBrowser = deferredIsland(
  () => import('./ShellInBrowser').then((m) => m.ShellInBrowser),
  typeof window === 'undefined' ? (require('./ShellInBrowser') as typeof import('./ShellInBrowser')).ShellInBrowser : null,
  'ShellInBrowser',
);

/** The footer's Admin Panel link: admins only, so nothing to show before the session is known. */
export const DeferredAdminFooterLink = deferredIsland(
  () => import('@/components/admin/AdminFooterLink').then((m) => m.AdminFooterLink),
  typeof window === 'undefined' ? (require('@/components/admin/AdminFooterLink') as typeof import('@/components/admin/AdminFooterLink')).AdminFooterLink : null,
  'AdminFooterLink',
);

/**
 * The video page's 404 for the video's owner and admins: a preview (status and player) in place of the 404. Nothing in
 * the server's markup (the 404 is cached and the same for everyone); its own small chunk, and the API's only for members.
 */
export const DeferredOwnerPreview = deferredIsland(
  () => import('@/components/videos/OwnerPreview').then((m) => m.OwnerPreview),
  typeof window === 'undefined' ? (require('@/components/videos/OwnerPreview') as typeof import('@/components/videos/OwnerPreview')).OwnerPreview : null,
  'OwnerPreview',
);
