import { previewImageResponse } from '@/lib/server/videos/preview-image';
import { handler } from '@/lib/server/route-handler';
import { previewImageQuerySchema } from '@/lib/validation/videos';

// GET /preview-image?list=home|category|tag|search&name=…&v=key — the list's 1200 × 630 link-preview PNG (og:image).
export const GET = handler({ query: previewImageQuerySchema }, async ({ request, query: { v, ...of } }) =>
  previewImageResponse(request, of, v),
);
