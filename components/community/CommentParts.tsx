import { RelativeTime } from '@/components/videos/RelativeTime';
import type { CommentDto } from '@/lib/api-types';
import { relativeTime } from '@/lib/format/relative-time';

import { ReportDialog } from './ReportDialog';

/**
 * What every drawing of a comment shares: the server's list for visitors (VisitorComments) and the
 * interactive one (CommentItem, in LiveComments' chunk). No hooks here, so both can use it.
 */

export const repliesLabel = (count: number) => (count === 1 ? 'View 1 reply' : `View ${count} replies`);

export const commentLabel = (comment: CommentDto) => `Comment by ${comment.author.username}`;

/** A comment's Report button and its dialog. */
export function CommentReport({ comment }: { comment: CommentDto }) {
  return (
    <ReportDialog
      targetType="comment"
      target={comment._id}
      buttonClassName="comment-action"
      buttonAriaLabel={`Report comment by ${comment.author.username}`}
    />
  );
}

const commentsLoginHref = (streamVideoId: string) => `/login?next=${encodeURIComponent(`/video/${streamVideoId}`)}`;

function CommentAvatar({ author }: { author: CommentDto['author'] }) {
  if (author.profilePhotoUrl) {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- already a 64 px WebP from our own media route
      <img
        className="comment-avatar"
        src={author.profilePhotoUrl}
        alt=""
        width={32}
        height={32}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return (
    <span className="comment-avatar comment-avatar-letter" aria-hidden="true">
      {Array.from(author.username)[0] ?? '?'}
    </span>
  );
}

/** Avatar, author, time and "(edited)": the head of a comment. */
export function CommentHead({ comment }: { comment: CommentDto }) {
  return (
    <>
      <CommentAvatar author={comment.author} />
      <div className="comment-meta">
        <a className="comment-author" href={`/profile/${encodeURIComponent(comment.author.username)}`}>
          {comment.author.username}
        </a>
        <RelativeTime date={comment.createdAt} serverText={relativeTime(comment.createdAt)} />
        {comment.editedAt && (
          <span className="comment-edited" title={`Edited ${new Date(comment.editedAt).toUTCString()}`}>
            (edited)
          </span>
        )}
      </div>
    </>
  );
}

/** The section's heading with its count. */
export function CommentsHeading({ total }: { total: number }) {
  return (
    <div className="comments-head">
      <h2 id="comments-heading">Comments</h2>
      {total > 0 && (
        <span className="comments-count">
          {total}
          <span className="visually-hidden"> {total === 1 ? 'comment' : 'comments'}</span>
        </span>
      )}
    </div>
  );
}

/** What a visitor is offered instead of the form. */
export function CommentsLogin({ streamVideoId }: { streamVideoId: string }) {
  return (
    <div className="comment-login">
      <p>Join the conversation.</p>
      <a className="btn btn-primary" href={commentsLoginHref(streamVideoId)}>
        Log in to comment
      </a>
    </div>
  );
}
