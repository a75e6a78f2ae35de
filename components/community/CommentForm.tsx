'use client';

import dynamic from 'next/dynamic';

/**
 * The comment, reply and edit form. Only members see it, once their session has loaded, so it loads then:
 * its checks share the API's zod schema, which stays out of the video page's first-load JavaScript.
 */
export const CommentForm = dynamic(() => import('./CommentEditor').then((m) => m.CommentEditor), { ssr: false });
