import { banMember, unbanMember } from '@/lib/server/admin/members';
import { handler } from '@/lib/server/route-handler';
import { banSchema, memberIdParamsSchema, unbanSchema } from '@/lib/validation/admin';

// POST /api/admin/users/{id}/ban — { reason, ground? }: bans the member (sessions and tokens revoked, videos hidden) and emails the member a statement of reasons they can appeal: { member }.
export const POST = handler(
  { auth: 'admin', params: memberIdParamsSchema, body: banSchema },
  async ({ actor, params, body }) => ({
    member: await banMember(actor, params.id, body.reason, body.ground),
  }),
);

// DELETE /api/admin/users/{id}/ban — { note? } (body optional): lifts the ban: { member }.
export const DELETE = handler(
  { auth: 'admin', params: memberIdParamsSchema, body: unbanSchema, optionalBody: true },
  async ({ actor, params, body }) => ({
    member: await unbanMember(actor, params.id, body.note),
  }),
);
