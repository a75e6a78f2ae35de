import { getDataExport, requestDataExport } from '@/lib/server/exports';
import { handler } from '@/lib/server/route-handler';

// GET /api/users/me/export — the caller's data export: being prepared, ready (with its download link) or failed; null when none.
export const GET = handler({ auth: 'member' }, async ({ actor }) => ({ export: await getDataExport(actor) }));

// POST /api/users/me/export — asks for an export of all the caller's data (a job builds it and emails them); 409 while one is pending or ready.
export const POST = handler({ auth: 'member', status: 202 }, async ({ actor }) => requestDataExport(actor));
