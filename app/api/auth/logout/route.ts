import { logout } from '@/lib/server/accounts';
import { clearSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/http';

// POST /api/auth/logout — ends this session (cookie and token); always clears the cookie. A cross-site cookie request is refused (403) by the wrapper.
export const POST = handler({}, async ({ actor }) => {
  await logout(actor);
  const response = json({ success: true });
  clearSessionCookie(response);
  return response;
});
