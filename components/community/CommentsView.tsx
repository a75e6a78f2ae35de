'use client';

import type { SessionUser } from '@/components/session/SessionProvider';
import type { CommentDto, CommentPageDto, CommentThreadDto } from '@/lib/api-types';

import { CommentForm } from './CommentForm';
import { CommentsHeading, CommentsLogin } from './CommentParts';
import { CommentThread } from './CommentThread';

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
  /** The thread whose "View N replies" a visitor pressed in the server's list before this loaded. */
  openThread?: string;
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  canLoadMore: boolean;
  /** A later page could not be loaded. */
  moreFailed: boolean;
  onRetry(): void;
  onLoadMore(): void;
  onPost(body: string): Promise<void>;
  onEdit(id: string, body: string): Promise<void>;
  onDelete(id: string): Promise<void>;
}

/** The comments section once it is live (LiveComments); VisitorComments is the server's drawing of its visitor state. */
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
  openThread,
  total,
  hasMore,
  loadingMore,
  canLoadMore,
  moreFailed,
  onRetry,
  onLoadMore,
  onPost,
  onEdit,
  onDelete,
}: CommentsViewProps) {
  return (
    <section className="comments" id="comments" aria-labelledby="comments-heading">
      <CommentsHeading total={total} />

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
        <CommentsLogin streamVideoId={streamVideoId} />
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
        <ol className="comment-list" aria-label="Comments">
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
                openOnMount={comment._id === openThread && comment !== pinned}
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
