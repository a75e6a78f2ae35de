import { toUserDto } from '@/lib/server/accounts';
import { requireUser, setSessionCookie } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';

// GET /api/auth/me — the calling member.
export const GET = route(async (request) => {
  const auth = await requireUser(request);
  const response = json({ user: toUserDto(auth.user) });
  // Keeps the cookie in step with a stored token (e.g. after the cookie expired or was cleared), so page guards agree with the app.
  if (auth.via === 'bearer' && !auth.hasCookie) setSessionCookie(response, auth.token);
  return response;
});
