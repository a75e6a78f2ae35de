import { resendVerificationFor } from '@/lib/server/admin/members';
import { requireAdmin } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, route } from '@/lib/server/http';
import { memberIdParamsSchema } from '@/lib/validation/admin';

type Context = { params: Promise<{ id: string }> };

// POST /api/admin/users/{id}/resend-verification — a new verification link to an unverified member: { message }.
export const POST = route<Context>(async (request, { params }) => {
  const admin = await requireAdmin(request);
  const { id } = parseInput(memberIdParamsSchema, await params);
  return json(await resendVerificationFor(admin, id));
});
