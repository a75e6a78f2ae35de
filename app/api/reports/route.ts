import { clientAddress } from '@/lib/server/client-address';
import { createReport } from '@/lib/server/reports/file';
import { handler, json } from '@/lib/server/route-handler';
import { reportSchema } from '@/lib/validation/community';

// POST /api/reports — { targetType, target, reason, details }: anyone may report a video; comments and profiles need a login.
export const POST = handler({ body: reportSchema }, async ({ actor, request, body }) => {
  const outcome = await createReport(actor, body, clientAddress(request));
  return json({ message: outcome.message }, { status: outcome.created ? 201 : 200 });
});
