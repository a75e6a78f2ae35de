import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { moderateVideos } from '@/lib/server/videos/moderation';
import { bulkModerationSchema } from '@/lib/validation/videos';

// POST /api/admin/videos/bulk — { streamVideoIds, action: 'approve' } or { …, action: 'reject', reason }: { results: [{ streamVideoId, ok, message }] }.
export const POST = route(async (request) => {
  const admin = await requireAdmin(request);
  const { streamVideoIds, ...decision } = parseInput(bulkModerationSchema, await readJson(request));
  return json({ results: await moderateVideos(admin, streamVideoIds, decision) });
});
