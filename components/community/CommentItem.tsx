'use client';

import { useEffect, useRef, useState } from 'react';

import type { CommentDto } from '@/lib/api-types';
import { ApiClientError } from '@/lib/client/api-client';

import { CommentForm } from './CommentForm';
import { commentLabel, CommentHead, CommentReport } from './CommentParts';
import { CommentText } from './CommentText';

interface Props {
  comment: CommentDto;
  canEdit: boolean;
  canDelete: boolean;
  /** Everyone but the author may report a comment (visitors are asked to log in first). */
  canReport?: boolean;
  onEdit(body: string): Promise<void>;
  onDelete(): Promise<void>;
  /** Opens the thread's reply form; absent for visitors. */
  onReply?(): void;
  /** The comment a #comment-{id} link points at. */
  highlight?: boolean;
}

/** A parent's replies go with it (ON DELETE CASCADE), so the question says so. */
export function deleteQuestion(comment: Pick<CommentDto, 'replyCount'>): string {
  if (comment.replyCount === 0) return 'Delete this comment? This cannot be undone.';
  return `Delete this comment and its ${comment.replyCount === 1 ? 'reply' : `${comment.replyCount} replies`}? This cannot be undone.`;
}

/** One comment: author, time, text; edit for its author, delete (after a confirmation) for its author, the video's owner and admins. */
export function CommentItem({ comment, canEdit, canDelete, canReport = false, onEdit, onDelete, onReply, highlight }: Props) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  async function remove() {
    setDeleting(true);
    setError(null);
    try {
      await onDelete();
    } catch (caught) {
      setError(caught instanceof ApiClientError ? caught.message : 'Could not delete the comment. Please try again.');
      setDeleting(false);
      setConfirming(false);
    }
  }

  return (
    <article
      className="comment"
      id={`comment-${comment._id}`}
      data-highlight={highlight || undefined}
      aria-label={commentLabel(comment)}
    >
      <CommentHead comment={comment} />
      {editing ? (
        <CommentForm
          label="Edit your comment"
          submitLabel="Save"
          busyLabel="Saving…"
          initialBody={comment.body}
          autoFocus
          onSubmit={async (body) => {
            await onEdit(body);
            setEditing(false);
            requestAnimationFrame(() => editButton.current?.focus());
          }}
          onCancel={() => {
            setEditing(false);
            requestAnimationFrame(() => editButton.current?.focus());
          }}
        />
      ) : (
        <CommentText text={comment.body} />
      )}
      {!editing && (canEdit || canDelete || canReport || onReply) && !confirming && (
        <div className="comment-actions">
          {onReply && (
            <button type="button" className="comment-action" aria-label={`Reply to ${comment.author.username}`} onClick={onReply}>
              Reply
            </button>
          )}
          {canEdit && (
            <button ref={editButton} type="button" className="comment-action" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {canDelete && (
            <button
              ref={deleteButton}
              type="button"
              className="comment-action comment-action-danger"
              onClick={() => setConfirming(true)}
            >
              Delete
            </button>
          )}
          {canReport && <CommentReport comment={comment} />}
        </div>
      )}
      {confirming && (
        <div className="comment-confirm" role="group" aria-label="Confirm deletion">
          <p>{deleteQuestion(comment)}</p>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={deleting}
            onClick={() => {
              setConfirming(false);
              requestAnimationFrame(() => deleteButton.current?.focus());
            }}
          >
            Cancel
          </button>
          <button ref={confirmButton} type="button" className="btn btn-danger" disabled={deleting} onClick={() => void remove()}>
            {deleting ? 'Deleting…' : 'Delete comment'}
          </button>
        </div>
      )}
      {error && (
        <p className="comment-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
