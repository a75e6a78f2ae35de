import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { createNotice } from '@/lib/server/trust/notices';
import { noticeSchema } from '@/lib/validation/notices';

// POST /api/notices — { video, reason, details, name, email, signature, goodFaith: true }: a notice from anyone (no account): 201 { reference, message, dueAt }.
export const POST = handler({ body: noticeSchema, status: 201 }, ({ actor, request, body }) =>
  createNotice(actor, body, clientAddress(request)),
);
