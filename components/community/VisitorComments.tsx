import type { CommentPageDto } from '@/lib/api-types';

import { commentLabel, CommentHead, CommentReport, CommentsHeading, CommentsLogin, repliesLabel } from './CommentParts';
import { CommentsLoginPrompt, CommentsRequestButton } from './Comments';
import { CommentText } from './CommentText';

/**
 * The comments section as a visitor first sees it, drawn on the server: the first page, a Report button on
 * each comment, and the buttons LiveComments carries out (Comments). Only those buttons, the report dialog and
 * the login prompt are client code; the list itself is HTML.
 */
export function VisitorComments({ streamVideoId, page }: { streamVideoId: string; page: CommentPageDto | null }) {
  return (
    <section className="comments" id="comments" aria-labelledby="comments-heading">
      <CommentsHeading total={page?.total ?? 0} />
      <CommentsLoginPrompt>
        <CommentsLogin streamVideoId={streamVideoId} />
      </CommentsLoginPrompt>
      {!page ? (
        <p className="comments-empty" role="status">
          Loading comments…
        </p>
      ) : page.comments.length === 0 ? (
        <p className="comments-empty">No comments yet.</p>
      ) : (
        <ol className="comment-list" aria-label="Comments">
          {page.comments.map((comment) => (
            <li key={comment._id}>
              <div className="comment-thread">
                <article className="comment" id={`comment-${comment._id}`} aria-label={commentLabel(comment)}>
                  <CommentHead comment={comment} />
                  <CommentText text={comment.body} />
                  <div className="comment-actions">
                    <CommentReport comment={comment} />
                  </div>
                </article>
                {comment.replyCount > 0 && (
                  <div className="comment-replies">
                    <CommentsRequestButton request={{ thread: comment._id }} className="comment-replies-toggle">
                      <span aria-hidden="true">▸</span> {repliesLabel(comment.replyCount)}
                    </CommentsRequestButton>
                  </div>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
      {page?.pagination.hasMore && (
        <div className="comments-more">
          <CommentsRequestButton request={{ more: true }} className="btn btn-ghost" busyLabel="Loading…">
            Load more comments
          </CommentsRequestButton>
        </div>
      )}
    </section>
  );
}
