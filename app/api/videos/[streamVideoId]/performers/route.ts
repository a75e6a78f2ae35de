import { handler } from '@/lib/server/route-handler';
import { getVideoPerformers, saveVideoPerformers } from '@/lib/server/trust/performers';
import { MAX_PERFORMER_FORM_BYTES, PERFORMER_MESSAGES } from '@/lib/trust/performers';
import { streamVideoIdParamsSchema } from '@/lib/validation/params';

// GET /api/videos/{streamVideoId}/performers — who appears in the video: its owner, and admins (with links to the documents).
export const GET = handler({ auth: 'member', params: streamVideoIdParamsSchema }, async ({ actor, params }) => ({
  records: await getVideoPerformers(actor, params.streamVideoId),
}));

// PUT /api/videos/{streamVideoId}/performers — multipart: `records` (JSON: recordedOn, uploaderAppears, coPerformers) and each
// co-performer's ID document and signed release as files; the owner only, replaces earlier records, one transaction.
export const PUT = handler(
  {
    auth: 'member',
    params: streamVideoIdParamsSchema,
    form: { tooLargeMessage: PERFORMER_MESSAGES.tooLarge, maxBytes: MAX_PERFORMER_FORM_BYTES },
  },
  async ({ actor, params, form }) => saveVideoPerformers(actor, params.streamVideoId, form),
);
