import { deleteComment, editComment, getCommentThread } from '@/lib/server/community/comments';
import { handler } from '@/lib/server/route-handler';
import { commentBodySchema } from '@/lib/validation/community';
import { commentIdParamsSchema } from '@/lib/validation/params';

// GET /api/comments/{id} — { comment, parent }: one comment and, for a reply, its parent (what a #comment-{id} link shows).
export const GET = handler({ params: commentIdParamsSchema }, async ({ actor, params }) => getCommentThread(actor, params.id));

// PATCH /api/comments/{id} — { body } → { comment }; only its author, and it is marked edited.
export const PATCH = handler(
  { auth: 'member', params: commentIdParamsSchema, body: commentBodySchema },
  async ({ actor, params, body }) => ({
    comment: await editComment(actor, params.id, body),
  }),
);

// DELETE /api/comments/{id} — { success: true }; its author, the video's owner or an admin.
export const DELETE = handler({ auth: 'member', params: commentIdParamsSchema }, async ({ actor, params }) => {
  await deleteComment(actor, params.id);
  return { success: true };
});
