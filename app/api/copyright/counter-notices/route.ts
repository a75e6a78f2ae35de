import { handler } from '@/lib/server/route-handler';
import { sendCounterNotice } from '@/lib/server/trust/copyright';
import { counterNoticeSchema } from '@/lib/validation/notices';

// POST /api/copyright/counter-notices — the 17 U.S.C. 512(g)(3) fields, from the uploader of a taken-down video: 201 { message, restoreAt }.
export const POST = handler({ auth: 'member', body: counterNoticeSchema, status: 201 }, ({ actor, body }) =>
  sendCounterNotice(actor, body),
);
