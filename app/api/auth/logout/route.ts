import { logout } from '@/lib/server/accounts';
import { clearSessionCookie, findSession, isSameOrigin } from '@/lib/server/auth/session';
import { json, route } from '@/lib/server/http';

// POST /api/auth/logout — ends this session (cookie and token); always clears the cookie.
export const POST = route(async (request) => {
  const auth = await findSession(request);
  // A cross-site page must not be able to log people out through their cookie.
  if (auth && (auth.via === 'bearer' || isSameOrigin(request))) await logout(auth);
  const response = json({ success: true });
  clearSessionCookie(response);
  return response;
});
