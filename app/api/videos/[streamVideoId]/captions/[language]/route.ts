import { CAPTION_FILE_MAX_BYTES } from '@/lib/media/captions';
import { handler } from '@/lib/server/route-handler';
import { removeCaptions, saveCaptions } from '@/lib/server/videos/captions';
import { CAPTION_MESSAGES } from '@/lib/server/videos/caption-files';
import { captionParamsSchema } from '@/lib/validation/params';

// PUT /api/videos/{streamVideoId}/captions/{language} — multipart `file` (WebVTT or SubRip, ≤ 512 KB) adds or replaces
// that language's captions: { message, captions }; 400 bad language or file (the message says what to fix), 401, 403, 404, 409 twenty languages already, 413.
export const PUT = handler(
  {
    auth: 'member',
    params: captionParamsSchema,
    // The file and the multipart framing around it.
    form: { tooLargeMessage: CAPTION_MESSAGES.tooLarge, maxBytes: CAPTION_FILE_MAX_BYTES + 16 * 1024 },
  },
  async ({ actor, params, form }) => saveCaptions(actor, params.streamVideoId, params.language, form.files.file),
);

// DELETE /api/videos/{streamVideoId}/captions/{language} — removes them: { message, captions }; 404 for a language the video has none in.
export const DELETE = handler({ auth: 'member', params: captionParamsSchema }, async ({ actor, params }) =>
  removeCaptions(actor, params.streamVideoId, params.language),
);
