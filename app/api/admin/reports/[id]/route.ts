import { decideReport } from '@/lib/server/admin/reports';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { reportDecisionSchema, reportIdParamsSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// PATCH /api/admin/reports/{id} — { action: 'remove'|'dismiss', note? }: closes the report and the other open ones on its target: { closed, outcome }.
export const PATCH = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(reportIdParamsSchema, await params);
  return json(await decideReport(admin, id, parseInput(reportDecisionSchema, await readJson(request))));
});
