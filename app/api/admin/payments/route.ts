import { listPaymentEvents } from '@/lib/server/admin/payments';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { paymentEventsQuerySchema } from '@/lib/validation/admin';
import { queryOf } from '@/lib/validation/videos';

// GET /api/admin/payments?page&limit — the payment log (postbacks and manual grants), newest first.
export const GET = route(async (request) => {
  await requireAdmin(request);
  return json(await listPaymentEvents(parseInput(paymentEventsQuerySchema, queryOf(request.url))));
});
