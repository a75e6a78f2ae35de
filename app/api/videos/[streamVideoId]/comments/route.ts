import { findSession, requireUser } from '@/lib/server/auth/session';
import { listComments, postComment } from '@/lib/server/community/comments';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { commentBodySchema, commentListQuerySchema } from '@/lib/validation/community';
import { queryOf } from '@/lib/validation/videos';

type Context = { params: Promise<{ streamVideoId: string }> };

// GET /api/videos/{streamVideoId}/comments?cursor&limit — newest first; a member does not get comments of members they blocked.
export const GET = route<Context>(async (request, { params }) => {
  const { streamVideoId } = await params;
  const query = parseInput(commentListQuerySchema, queryOf(request.url));
  const viewer = await findSession(request);
  return json(await listComments(streamVideoId, { ...query, viewerId: viewer?.user.id ?? null }));
});

// POST /api/videos/{streamVideoId}/comments — { body } → 201 { comment }; login required.
export const POST = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  const input = parseInput(commentBodySchema, await readJson(request));
  return json({ comment: await postComment(auth, (await params).streamVideoId, input) }, { status: 201 });
});
