import { logout } from '@/lib/server/accounts';
import { clearSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/route-handler';

// POST /api/auth/logout — ends this session (cookie and token); always clears the cookie. From another site the cookie is not believed, so nothing is ended.
export const POST = handler({}, async ({ actor }) => {
  await logout(actor);
  const response = json({ success: true });
  clearSessionCookie(response);
  return response;
});
