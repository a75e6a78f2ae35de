import { handler } from '@/lib/server/route-handler';
import { moderateVideos } from '@/lib/server/videos/moderation';
import { bulkModerationSchema } from '@/lib/validation/videos';

// POST /api/admin/videos/bulk — { streamVideoIds, action: 'approve' } or { …, action: 'reject', reason }: { results: [{ streamVideoId, ok, message }] }.
export const POST = handler(
  { auth: 'admin', body: bulkModerationSchema },
  async ({ actor, body: { streamVideoIds, ...decision } }) => ({
    results: await moderateVideos(actor, streamVideoIds, decision),
  }),
);
