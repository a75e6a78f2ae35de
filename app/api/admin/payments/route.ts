import { listPaymentEvents } from '@/lib/server/admin/payments';
import { handler } from '@/lib/server/route-handler';
import { paymentEventsQuerySchema } from '@/lib/validation/admin';

// GET /api/admin/payments?page&limit — the payment log (postbacks and manual grants), newest first.
export const GET = handler({ auth: 'admin', query: paymentEventsQuerySchema }, ({ actor, query }) =>
  listPaymentEvents(actor, query),
);
