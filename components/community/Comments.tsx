'use client';

import { createContext, startTransition, use, useEffect, useState, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { CommentPageDto } from '@/lib/api-types';
import { useHydrated } from '@/lib/client/use-hydrated';

type LiveComments = typeof import('./LiveComments').LiveComments;

export interface CommentsProps {
  streamVideoId: string;
  /** The video's owner may delete any comment on it. */
  videoOwnerId: string;
  /** The first page as the server rendered it (the same for every visitor); null when it could not be read. */
  initial: CommentPageDto | null;
}

/** What a visitor asked of the server's list: the next page, or a thread's replies. */
type Request = { more: true } | { thread: string };

const RequestContext = createContext<{ ask(request: Request): void; pending: Request | null }>({
  ask: () => undefined,
  pending: null,
});

export function subscribeToHash(changed: () => void) {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
}

/**
 * The video page's comments. The first page is the server's drawing (VisitorComments, passed as
 * `visitorView`): crawlers and visitors read it without JavaScript, and it costs the page no component code.
 * LiveComments (members' own first page, the next pages, linked threads, the forms) takes over once the session has
 * a member, a visitor asks for more, or a #comment-{id} link needs its thread: its module is imported then, and the
 * server's list stays on screen, its pressed button busy, until it arrives; LiveComments then carries out that press.
 *
 * Why an import in an effect rather than React.lazy in a Suspense boundary: the server renders that boundary around
 * the visitor's list, and React streams a large boundary out of line (the fallback first, the content hidden after
 * it, swapped by a script), which sent every comment twice and showed both copies for a moment.
 */
export function Comments({ visitorView, ...props }: CommentsProps & { visitorView: ReactNode }) {
  const { user } = useSession();
  const [request, setRequest] = useState<Request | null>(null);
  // A #comment-{id} link (on arrival, or a later hash change) needs the live list to find its comment.
  const [linked, setLinked] = useState(false);
  useEffect(() => {
    const follow = () => {
      if (window.location.hash.startsWith('#comment-')) setLinked(true);
    };
    follow();
    return subscribeToHash(follow);
  }, []);
  const [Live, setLive] = useState<LiveComments | null>(null);
  const wanted = Boolean(user) || request !== null || !props.initial || linked;
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    import('./LiveComments').then(
      // A transition: the live list's first render is sliced like the page's hydration.
      ({ LiveComments }) => current && startTransition(() => setLive(() => LiveComments)),
      // Unreachable now (offline): the press is given back, so the button can be pressed again.
      () => current && setRequest(null),
    );
    return () => {
      current = false;
    };
  }, [wanted]);
  return (
    <RequestContext value={{ ask: setRequest, pending: Live ? null : request }}>
      {Live ? (
        <Live
          {...props}
          loadMoreOnMount={request !== null && 'more' in request}
          openThread={request !== null && 'thread' in request ? request.thread : undefined}
        />
      ) : (
        visitorView
      )}
    </RequestContext>
  );
}

/**
 * A button of the server's list that LiveComments carries out ("Load more comments", "View N replies"):
 * disabled until the page hydrates (a press would be lost), then busy while the live list loads.
 */
export function CommentsRequestButton({
  request,
  className,
  busyLabel,
  children,
}: {
  request: Request;
  className: string;
  busyLabel?: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const { ask, pending } = use(RequestContext);
  const busy =
    pending !== null && ('more' in pending ? 'more' in request : 'thread' in request && pending.thread === request.thread);
  return (
    <button
      type="button"
      className={className}
      disabled={!hydrated || busy}
      aria-busy={!hydrated || busy || undefined}
      aria-expanded={'thread' in request ? false : undefined}
      onClick={() => ask(request)}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

/** The visitor's "Log in to comment" (drawn by the server), once the session is known to be a visitor's: a member never sees it flash. */
export function CommentsLoginPrompt({ children }: { children: ReactNode }) {
  const { loading } = useSession();
  return loading ? null : children;
}
