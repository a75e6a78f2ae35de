import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { moderateVideo } from '@/lib/server/videos/moderation';
import { moderationSchema } from '@/lib/validation/videos';

type Context = { params: Promise<{ streamVideoId: string }> };

// PATCH /api/admin/videos/{streamVideoId} — { action: 'approve' } or { action: 'reject', reason }; notifies the uploader.
export const PATCH = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const decision = parseInput(moderationSchema, await readJson(request));
  return json({ video: await moderateVideo(admin, (await params).streamVideoId, decision) });
});
