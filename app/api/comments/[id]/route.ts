import { requireUser } from '@/lib/server/auth/session';
import { deleteComment, editComment } from '@/lib/server/community/comments';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { commentBodySchema } from '@/lib/validation/community';

type Context = { params: Promise<{ id: string }> };

// PATCH /api/comments/{id} — { body } → { comment }; only its author, and it is marked edited.
export const PATCH = route<Context>(async (request, { params }) => {
  const auth = await requireUser(request);
  const input = parseInput(commentBodySchema, await readJson(request));
  return json({ comment: await editComment(auth, (await params).id, input) });
});

// DELETE /api/comments/{id} — { success: true }; its author, the video's owner or an admin.
export const DELETE = route<Context>(async (request, { params }) => {
  await deleteComment(await requireUser(request), (await params).id);
  return json({ success: true });
});
