import { listComments, postComment } from '@/lib/server/community/comments';
import { handler } from '@/lib/server/http';
import { commentBodySchema, commentListQuerySchema } from '@/lib/validation/community';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/comments?cursor&limit — newest first; a member does not get comments of members they blocked.
export const GET = handler({ params: streamVideoIdParamsSchema, query: commentListQuerySchema }, async ({ actor, params, query }) =>
  listComments(actor, params.streamVideoId, query),
);

// POST /api/videos/{streamVideoId}/comments — { body } → 201 { comment }; login required.
export const POST = handler({ auth: 'member', params: streamVideoIdParamsSchema, body: commentBodySchema, status: 201 }, async ({ actor, params, body }) => ({
  comment: await postComment(actor, params.streamVideoId, body),
}));
