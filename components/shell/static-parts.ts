'use client';

// The static markup's components in one chunk, for a document React draws in the browser (static.ts): one loader in
// every page's first load instead of three.
export { AgeGateDialog } from './AgeGateDialog';
export { SiteFooter } from './SiteFooter';
export { SiteHeader } from './SiteHeader';
