'use client';

import { createContext, lazy, Suspense, use, useEffect, useState, useTransition, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { CommentPageDto } from '@/lib/api-types';
import { useHydrated } from '@/lib/client/use-hydrated';

// The live list (members' own first page, the next pages, linked threads, the forms) loads when someone needs
// it: a visitor reading the first page never fetches it.
const LiveComments = lazy(() => import('./LiveComments').then((m) => ({ default: m.LiveComments })));

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
 * LiveComments takes over once the session has a member, a visitor asks for more, or a #comment-{id} link
 * needs its thread. The switch is a transition, so the server's list stays on screen until the live one is
 * ready, and the press that asked is carried out by it.
 */
export function Comments({ visitorView, ...props }: CommentsProps & { visitorView: ReactNode }) {
  const { user } = useSession();
  const [request, setRequest] = useState<Request | null>(null);
  const [waiting, startTransition] = useTransition();
  const [asked, setAsked] = useState<Request | null>(null);
  // A #comment-{id} link (on arrival, or a later hash change) needs the live list to find its comment. Read in an
  // effect and switched in a transition, like a press: the server's list stays on screen, alone, until the live one
  // is ready (a synchronous switch would show the fallback beside a hidden copy, every comment id twice).
  const [linked, setLinked] = useState(false);
  useEffect(() => {
    const follow = () => {
      if (window.location.hash.startsWith('#comment-')) startTransition(() => setLinked(true));
    };
    follow();
    return subscribeToHash(follow);
  }, []);
  const ask = (next: Request) => {
    setAsked(next);
    startTransition(() => setRequest(next));
  };
  const live = Boolean(user) || request !== null || !props.initial || linked;
  // The switches made here and the session's restore are transitions, so the fallback shows only when the server
  // itself drew the live list's place (a first page it could not read) or a login on this page switches at once.
  return (
    <RequestContext value={{ ask, pending: waiting ? asked : null }}>
      <Suspense fallback={<div inert>{visitorView}</div>}>
        {live ? (
          <LiveComments
            {...props}
            loadMoreOnMount={request !== null && 'more' in request}
            openThread={request !== null && 'thread' in request ? request.thread : undefined}
          />
        ) : (
          visitorView
        )}
      </Suspense>
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
