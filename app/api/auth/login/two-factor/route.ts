import { completeTwoFactorLogin } from '@/lib/server/accounts/two-factor';
import { setSessionCookie } from '@/lib/server/auth/session';
import { clientAddress } from '@/lib/server/client-address';
import { handler, json } from '@/lib/server/route-handler';
import { twoFactorLoginSchema } from '@/lib/validation/two-factor';

// POST /api/auth/login/two-factor — { challenge, code } (a 6-digit code or a recovery code) → { token, user }, and the session cookie.
export const POST = handler({ body: twoFactorLoginSchema }, async ({ request, body }) => {
  const { token, user } = await completeTwoFactorLogin(body, clientAddress(request));
  const response = json({ token, user });
  setSessionCookie(response, token);
  return response;
});
