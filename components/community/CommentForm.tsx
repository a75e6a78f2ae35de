'use client';

import { lazy, Suspense } from 'react';

import type { CommentEditorProps } from './CommentEditor';

const CommentEditor = lazy(() => import('./CommentEditor').then((m) => ({ default: m.CommentEditor })));

/**
 * The comment, reply and edit form. Only members see it, once their session has loaded, so it loads then:
 * its checks share the API's zod schema, which stays out of the video page's first-load JavaScript.
 */
export function CommentForm(props: CommentEditorProps) {
  return (
    <Suspense fallback={null}>
      <CommentEditor {...props} />
    </Suspense>
  );
}
