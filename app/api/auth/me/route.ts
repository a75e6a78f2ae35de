import { toUserDto } from '@/lib/server/accounts';
import { requireMember } from '@/lib/server/auth/actor';
import { setSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/route-handler';

// GET /api/auth/me — the calling member.
export const GET = handler({ auth: 'member' }, async ({ actor }) => {
  const member = requireMember(actor);
  const response = json({ user: toUserDto(member.user) });
  // Keeps the cookie in step with a stored token (e.g. after the cookie expired or was cleared), so page guards agree with the app.
  if (member.via === 'bearer' && !member.hasCookie) setSessionCookie(response, member.token);
  return response;
});
