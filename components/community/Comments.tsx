'use client';

import { lazy, Suspense, useState, useSyncExternalStore } from 'react';

import { useSession, type SessionUser } from '@/components/session/SessionProvider';
import type { CommentDto, CommentPageDto, CommentThreadDto } from '@/lib/api-types';

import { CommentForm } from './CommentForm';
import { CommentThread } from './CommentThread';

// Members' own pages, the next pages and linked threads (with SWR) load when someone needs them: a visitor
// reading the first page never fetches them.
const LiveComments = lazy(() => import('./LiveComments').then((m) => ({ default: m.LiveComments })));

export interface CommentsProps {
  streamVideoId: string;
  /** The video's owner may delete any comment on it. */
  videoOwnerId: string;
  /** The first page as the server rendered it (the same for every visitor); null when it could not be read. */
  initial: CommentPageDto | null;
}

export function subscribeToHash(changed: () => void) {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
}

const noChange = async () => undefined;

/**
 * The video page's comments. The first page arrives in the cached HTML, so
 * crawlers and visitors read it without JavaScript, and a visitor's browser
 * shows it as it is; LiveComments takes over once the session has a member,
 * a visitor asks for more, or a #comment-{id} link needs its thread.
 */
export function Comments(props: CommentsProps) {
  const { loading, user } = useSession();
  const [wantsMore, setWantsMore] = useState(false);
  const hash = useSyncExternalStore(
    subscribeToHash,
    () => window.location.hash,
    () => '',
  );
  const pages = props.initial ? [props.initial] : undefined;
  const view = (waiting: boolean) => (
    <CommentsView
      {...props}
      user={null}
      loading={loading || waiting}
      pages={pages}
      failed={false}
      threads={props.initial?.comments ?? []}
      pinned={null}
      linked={null}
      total={props.initial?.total ?? 0}
      hasMore={props.initial?.pagination.hasMore ?? false}
      loadingMore={waiting && wantsMore}
      canLoadMore={!loading && !waiting}
      moreFailed={false}
      inert={waiting}
      onRetry={() => undefined}
      onLoadMore={() => setWantsMore(true)}
      onPost={noChange}
      onEdit={noChange}
      onDelete={noChange}
    />
  );
  if (!user && !wantsMore && props.initial && !hash.startsWith('#comment-')) return view(false);
  return (
    <Suspense fallback={view(true)}>
      <LiveComments {...props} loadMoreOnMount={wantsMore} />
    </Suspense>
  );
}

interface CommentsViewProps {
  streamVideoId: string;
  videoOwnerId: string;
  user: SessionUser | null;
  /** Until the session is known, neither the form nor the login link. */
  loading: boolean;
  /** undefined while the first page is being fetched (or could not be). */
  pages: CommentPageDto[] | undefined;
  failed: boolean;
  threads: CommentDto[];
  /** The thread a #comment-{id} link points at, shown first. */
  pinned: CommentDto | null;
  linked: CommentThreadDto | null;
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  canLoadMore: boolean;
  /** A later page could not be loaded. */
  moreFailed: boolean;
  /**
   * While LiveComments loads, the list it will replace is shown but not usable: a thread opened now would
   * close again when it is redrawn (and assistive technology skips it meanwhile).
   */
  inert?: boolean;
  onRetry(): void;
  onLoadMore(): void;
  onPost(body: string): Promise<void>;
  onEdit(id: string, body: string): Promise<void>;
  onDelete(id: string): Promise<void>;
}

/** The comments section as both the first load and LiveComments draw it. */
export function CommentsView({
  streamVideoId,
  videoOwnerId,
  user,
  loading,
  pages,
  failed,
  threads,
  pinned,
  linked,
  total,
  hasMore,
  loadingMore,
  canLoadMore,
  moreFailed,
  inert = false,
  onRetry,
  onLoadMore,
  onPost,
  onEdit,
  onDelete,
}: CommentsViewProps) {
  const loginHref = `/login?next=${encodeURIComponent(`/video/${streamVideoId}`)}`;

  return (
    <section className="comments" id="comments" aria-labelledby="comments-heading">
      <div className="comments-head">
        <h2 id="comments-heading">Comments</h2>
        {total > 0 && (
          <span className="comments-count" aria-label={`${total} ${total === 1 ? 'comment' : 'comments'}`}>
            {total}
          </span>
        )}
      </div>

      {user ? (
        <CommentForm
          label="Add a comment"
          placeholder="Add a comment…"
          submitLabel="Post comment"
          busyLabel="Posting…"
          onSubmit={onPost}
          resetOnSuccess
        />
      ) : loading ? null : (
        <div className="comment-login">
          <p>Join the conversation.</p>
          <a className="btn btn-primary" href={loginHref}>
            Log in to comment
          </a>
        </div>
      )}

      {pages === undefined && failed ? (
        <div className="comments-empty" role="alert">
          <p>Comments could not be loaded.</p>
          <button type="button" className="btn btn-ghost" onClick={onRetry}>
            Try again
          </button>
        </div>
      ) : pages === undefined ? (
        <p className="comments-empty" role="status">
          Loading comments…
        </p>
      ) : threads.length === 0 ? (
        <p className="comments-empty">No comments yet.{user ? ' Be the first to say something.' : ''}</p>
      ) : (
        <ol className="comment-list" aria-label="Comments" inert={inert}>
          {threads.map((comment) => (
            <li key={comment === pinned ? `linked-${comment._id}` : comment._id}>
              {comment === pinned && <p className="comment-thread-linked">Linked comment</p>}
              <CommentThread
                streamVideoId={streamVideoId}
                videoOwnerId={videoOwnerId}
                comment={comment}
                viewer={user}
                initialReplies={comment === pinned && linked?.parent ? [linked.comment] : undefined}
                highlightId={comment === pinned ? linked?.comment._id : undefined}
                onEdit={(body) => onEdit(comment._id, body)}
                onDelete={() => onDelete(comment._id)}
              />
            </li>
          ))}
        </ol>
      )}

      {hasMore && (
        <div className="comments-more">
          <button type="button" className="btn btn-ghost" disabled={loadingMore || !canLoadMore} onClick={onLoadMore}>
            {loadingMore ? 'Loading…' : 'Load more comments'}
          </button>
          {moreFailed && (
            <p className="comment-error" role="alert">
              More comments could not be loaded. Please try again.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
