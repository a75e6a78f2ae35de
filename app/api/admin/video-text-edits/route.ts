import { handler } from '@/lib/server/route-handler';
import { listTextEdits } from '@/lib/server/videos/text-edits';
import { textEditQueueQuerySchema } from '@/lib/validation/videos';

// GET /api/admin/video-text-edits?page&limit — owners' waiting text edits of approved videos, oldest first, with the total.
export const GET = handler({ auth: 'admin', query: textEditQueueQuerySchema }, ({ actor, query }) =>
  listTextEdits(actor, { page: query.page, limit: query.limit }),
);
