import { handler } from '@/lib/server/route-handler';
import { getVideoFor } from '@/lib/server/videos/access';
import { deleteVideo, editVideo } from '@/lib/server/videos/manage';
import { videoEditSchema } from '@/lib/validation/video-edit';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId} — the video; its owner and admins also get status, review and playback URLs.
export const GET = handler({ params: streamVideoIdParamsSchema }, async ({ actor, params }) => ({
  video: await getVideoFor(actor, params.streamVideoId),
}));

// PATCH /api/videos/{streamVideoId} — the owner or an admin edits title, description, category and tags (upload rules); audited.
export const PATCH = handler(
  { auth: 'member', params: streamVideoIdParamsSchema, body: videoEditSchema },
  async ({ actor, params, body }) => editVideo(actor, params.streamVideoId, body),
);

// DELETE /api/videos/{streamVideoId} — the owner or an admin deletes the video; its files are removed by a job.
export const DELETE = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) =>
  deleteVideo(actor, params.streamVideoId),
);
