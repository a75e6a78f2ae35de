import { decideReport } from '@/lib/server/reports/decide';
import { handler } from '@/lib/server/route-handler';
import { reportDecisionSchema, reportIdParamsSchema } from '@/lib/validation/admin';

// PATCH /api/admin/reports/{id} — { action: 'remove'|'dismiss', note? }: closes the report and the other open ones on its target: { closed, outcome }.
export const PATCH = handler({ auth: 'admin', params: reportIdParamsSchema, body: reportDecisionSchema }, ({ actor, params, body }) => decideReport(actor, params.id, body));
