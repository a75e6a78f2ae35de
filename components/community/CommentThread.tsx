'use client';

import { useEffect, useId, useRef, useState } from 'react';

import type { CommentDto, ReplyPageDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';

import { CommentForm } from './CommentForm';
import { CommentItem } from './CommentItem';
import { repliesLabel } from './CommentParts';

interface Viewer {
  _id: string;
  isAdmin?: boolean;
}

interface Props {
  streamVideoId: string;
  videoOwnerId: string;
  /** A top-level comment. */
  comment: CommentDto;
  viewer: Viewer | null;
  /** Replies to show open from the start: the one a #comment-{id} link points at. */
  initialReplies?: CommentDto[];
  /** The id a #comment-{id} link points at, to mark it. */
  highlightId?: string;
  /** A visitor pressed "View N replies" in the server's list before this loaded: open, load and take the focus. */
  openOnMount?: boolean;
  onEdit(body: string): Promise<void>;
  onDelete(): Promise<void>;
}

/**
 * A top-level comment and its replies: collapsed behind "View N replies",
 * loaded a page at a time (oldest first) with "Show more replies", and an
 * inline reply form. A reply to a reply joins the same thread and starts
 * with the @username it answers.
 */
export function CommentThread({
  streamVideoId,
  videoOwnerId,
  comment,
  viewer,
  initialReplies = [],
  highlightId,
  openOnMount = false,
  onEdit,
  onDelete,
}: Props) {
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const [replies, setReplies] = useState<CommentDto[]>(initialReplies);
  const [count, setCount] = useState(Math.max(comment.replyCount, initialReplies.length));
  const [open, setOpen] = useState(initialReplies.length > 0 || openOnMount);
  // Pages read so far; 0 until the first page was asked for (replies linked to or just posted may be there already).
  const [pages, setPages] = useState(0);
  const [hasMore, setHasMore] = useState(true);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [replyingTo, setReplyingTo] = useState<CommentDto | null>(null);

  async function loadPage(page: number) {
    setLoading(true);
    setError(null);
    try {
      const answer = await apiRequest<ReplyPageDto>(`/api/comments/${encodeURIComponent(comment._id)}/replies?page=${page}`);
      // Replies already shown (posted here, or linked to) stay; a page may carry them again.
      setReplies((current) => {
        const byId = new Map(current.map((reply) => [reply._id, reply]));
        for (const reply of answer.replies) byId.set(reply._id, reply);
        return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id));
      });
      setCount(answer.total);
      setPages(page);
      setHasMore(answer.pagination.hasMore);
    } catch (caught) {
      setError(caught instanceof ApiClientError ? caught.message : 'Replies could not be loaded. Please try again.');
    } finally {
      setLoading(false);
    }
  }

  const openedOnMount = useRef(false);
  useEffect(() => {
    if (!openOnMount || openedOnMount.current) return;
    openedOnMount.current = true;
    toggle.current?.focus();
    void loadPage(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the press that loaded this
  }, [openOnMount]);

  function expand() {
    if (open) {
      setOpen(false);
      return;
    }
    setOpen(true);
    if (pages === 0) void loadPage(1);
  }

  async function postReply(body: string) {
    const { comment: reply } = await apiRequest<{ comment: CommentDto }>(
      `/api/videos/${encodeURIComponent(streamVideoId)}/comments`,
      { json: { body, parentId: comment._id } },
    );
    setReplies((current) => [...current.filter((other) => other._id !== reply._id), reply]);
    setCount((current) => current + 1);
    setOpen(true);
    setReplyingTo(null);
  }

  async function editReply(replyId: string, body: string) {
    const { comment: edited } = await apiRequest<{ comment: CommentDto }>(`/api/comments/${encodeURIComponent(replyId)}`, {
      method: 'PATCH',
      json: { body },
    });
    setReplies((current) => current.map((other) => (other._id === replyId ? edited : other)));
  }

  async function removeReply(replyId: string) {
    await apiRequest(`/api/comments/${encodeURIComponent(replyId)}`, { method: 'DELETE' });
    setReplies((current) => current.filter((other) => other._id !== replyId));
    setCount((current) => Math.max(0, current - 1));
  }

  const permissions = (item: CommentDto) => {
    const own = Boolean(viewer && viewer._id === item.author._id);
    return {
      canEdit: own,
      canDelete: Boolean(viewer && (own || viewer._id === videoOwnerId || viewer.isAdmin)),
      canReport: !own,
    };
  };
  const startReply = viewer ? (to: CommentDto) => () => setReplyingTo(to) : null;
  const listId = `${id}-replies`;
  const shownMore = pages > 0 && hasMore && replies.length < count;

  return (
    <div className="comment-thread">
      <CommentItem
        comment={{ ...comment, replyCount: count }}
        {...permissions(comment)}
        onEdit={onEdit}
        onDelete={onDelete}
        onReply={startReply?.(comment)}
        highlight={highlightId === comment._id}
      />
      {(count > 0 || replies.length > 0) && (
        <div className="comment-replies">
          <button
            ref={toggle}
            type="button"
            className="comment-replies-toggle"
            aria-expanded={open}
            aria-controls={listId}
            onClick={expand}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span> {open ? 'Hide replies' : repliesLabel(count)}
          </button>
          <div id={listId} hidden={!open}>
            {replies.length > 0 && (
              <ol className="comment-list comment-reply-list" aria-label={`Replies to ${comment.author.username}`}>
                {replies.map((reply) => (
                  <li key={reply._id}>
                    <CommentItem
                      comment={reply}
                      {...permissions(reply)}
                      onEdit={(body) => editReply(reply._id, body)}
                      onDelete={() => removeReply(reply._id)}
                      onReply={startReply?.(reply)}
                      highlight={highlightId === reply._id}
                    />
                  </li>
                ))}
              </ol>
            )}
            {loading && (
              <p className="comment-replies-status" role="status">
                Loading replies…
              </p>
            )}
            {error && (
              <p className="comment-error" role="alert">
                {error}
              </p>
            )}
            {!loading && (shownMore || (pages === 0 && replies.length < count)) && (
              <button type="button" className="comment-replies-toggle" onClick={() => void loadPage(pages + 1)}>
                Show more replies
              </button>
            )}
          </div>
        </div>
      )}
      {replyingTo && (
        <div className="comment-reply-form">
          <CommentForm
            key={replyingTo._id}
            label={`Reply to ${replyingTo.author.username}`}
            placeholder="Add a reply…"
            submitLabel="Reply"
            busyLabel="Replying…"
            initialBody={replyingTo._id === comment._id ? '' : `@${replyingTo.author.username} `}
            autoFocus
            onSubmit={postReply}
            onCancel={() => setReplyingTo(null)}
          />
        </div>
      )}
    </div>
  );
}
