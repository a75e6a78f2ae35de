import { createReport } from '@/lib/server/community/reports';
import { parseInput } from '@/lib/server/errors';
import { clientAddress } from '@/lib/server/client-address';
import { json, readJson, route } from '@/lib/server/http';
import { reportSchema } from '@/lib/validation/community';

// POST /api/reports — { targetType, target, reason, details }: anyone may report a video; comments and profiles need a login.
export const POST = route(async (request) => {
  const input = parseInput(reportSchema, await readJson(request));
  const outcome = await createReport(request, input, clientAddress(request));
  return json({ message: outcome.message }, { status: outcome.created ? 201 : 200 });
});
