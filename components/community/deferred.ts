'use client';

import { deferredIsland } from '@/components/shell/deferred-island';

/** The video page's comments: the first page is in the server's HTML; the threads' code loads as the page hydrates. */
export const DeferredComments = deferredIsland(() => import('./Comments').then((m) => m.Comments), 'Comments');
