import { listReplies } from '@/lib/server/community/comments';
import { handler } from '@/lib/server/route-handler';
import { repliesQuerySchema } from '@/lib/validation/community';
import { commentIdParamsSchema } from '@/lib/validation/params';

// GET /api/comments/{id}/replies?page — a top-level comment's replies, oldest first, 10 a page; a member does not get replies of members they blocked.
export const GET = handler({ params: commentIdParamsSchema, query: repliesQuerySchema }, async ({ actor, params, query }) =>
  listReplies(actor, params.id, query.page),
);
