import { listComments, postComment } from '@/lib/server/community/comments';
import { handler } from '@/lib/server/route-handler';
import { commentListQuerySchema, newCommentSchema } from '@/lib/validation/community';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/comments?cursor&limit — top-level comments newest first, each with its replyCount; a member does not get comments of members they blocked.
export const GET = handler(
  { params: streamVideoIdParamsSchema, query: commentListQuerySchema },
  async ({ actor, params, query }) => listComments(actor, params.streamVideoId, query),
);

// POST /api/videos/{streamVideoId}/comments — { body, parentId? } → 201 { comment }; login required; with parentId a reply.
export const POST = handler(
  { auth: 'member', params: streamVideoIdParamsSchema, body: newCommentSchema, status: 201 },
  async ({ actor, params, body }) => ({
    comment: await postComment(actor, params.streamVideoId, body),
  }),
);
