'use client';

import { deferredIsland } from './deferred-island';

/**
 * The root layout's islands that need not answer before the page has hydrated (decision 031): their code stays out
 * of every page's first load. The account area's server markup is a placeholder until the session is known anyway.
 */
export const DeferredAccountArea = deferredIsland(() => import('./AccountArea').then((m) => m.AccountArea), 'AccountArea');

/** Scrolls to top and closes the header's menus after a router push; nothing to do before a first push. */
export const DeferredScrollToTop = deferredIsland(() => import('./ScrollToTop').then((m) => m.ScrollToTop), 'ScrollToTop');

/** The not-found page's stand-in for the layout's inline scripts (see ShellInBrowser). */
export const DeferredShellInBrowser = deferredIsland(() => import('./ShellInBrowser').then((m) => m.ShellInBrowser), 'ShellInBrowser');
