import { handler } from '@/lib/server/route-handler';
import { recordLawsuitByAdmin } from '@/lib/server/trust/copyright';
import { adminLawsuitSchema, takedownIdParamsSchema } from '@/lib/validation/notices';

// POST /api/admin/copyright/takedowns/{id}/lawsuit — { details }: an admin records the claimant's lawsuit; the video stays down: { message }.
export const POST = handler(
  { auth: 'admin', params: takedownIdParamsSchema, body: adminLawsuitSchema },
  ({ actor, params, body }) => recordLawsuitByAdmin(actor, params.id, body),
);
