import { banMember, unbanMember } from '@/lib/server/admin/members';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, readOptionalJson, route } from '@/lib/server/http';
import { banSchema, memberIdParamsSchema, unbanSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// POST /api/admin/users/{id}/ban — { reason }: bans the member (sessions and tokens revoked, videos hidden): { member }.
export const POST = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  const { reason } = parseInput(banSchema, await readJson(request));
  return json({ member: await banMember(admin, id, reason) });
});

// DELETE /api/admin/users/{id}/ban — { note? } (body optional): lifts the ban: { member }.
export const DELETE = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  const { note } = parseInput(unbanSchema, await readOptionalJson(request));
  return json({ member: await unbanMember(admin, id, note) });
});
