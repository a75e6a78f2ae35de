import { toUserDto } from '@/lib/server/accounts';
import { requireUser } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';

// GET /api/auth/me — the calling member.
export const GET = route(async (request) => {
  const { user } = await requireUser(request);
  return json({ user: toUserDto(user) });
});
