import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';
import { createDmcaNotice } from '@/lib/server/trust/copyright';
import { dmcaNoticeSchema } from '@/lib/validation/notices';

// POST /api/copyright/notices — the 17 U.S.C. 512(c)(3) fields: takes the video down at once: 201 { reference, message }.
export const POST = handler({ body: dmcaNoticeSchema, status: 201 }, ({ actor, request, body }) =>
  createDmcaNotice(actor, body, clientAddress(request)),
);
