import { handler } from '@/lib/server/route-handler';
import { moderateVideo } from '@/lib/server/videos/moderation';
import { videoIdParamsSchema } from '@/lib/validation/community';
import { moderationSchema } from '@/lib/validation/videos';

// PATCH /api/admin/videos/{streamVideoId} — { action: 'approve' } or { action: 'reject', reason }; notifies the uploader.
export const PATCH = handler(
  { auth: 'admin', params: videoIdParamsSchema, body: moderationSchema },
  async ({ actor, params, body }) => ({
    video: await moderateVideo(actor, params.streamVideoId, body),
  }),
);
