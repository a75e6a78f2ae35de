import { downloadDataExport } from '@/lib/server/exports';
import { handler } from '@/lib/server/route-handler';
import { dataExportParamsSchema } from '@/lib/validation/exports';

// GET /data-export/{exportId} — the caller's own ready export as a ZIP attachment, streamed from storage; anyone else (admins too) 404.
// Outside /api so that proxy.ts sends a visitor who opens the emailed link to log in first.
export const GET = handler({ auth: 'member', params: dataExportParamsSchema }, async ({ actor, params }) =>
  downloadDataExport(actor, params.exportId),
);
