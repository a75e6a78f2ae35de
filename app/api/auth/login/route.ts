import { login } from '@/lib/server/accounts';
import { setSessionCookie } from '@/lib/server/auth/session';
import { clientAddress } from '@/lib/server/client-address';
import { handler, json } from '@/lib/server/route-handler';
import { loginSchema } from '@/lib/validation/auth';

// POST /api/auth/login — { email, password } → { token, user }, and the session cookie;
// with two-factor on, { twoFactorRequired: true, challenge, message } and no session yet (then POST /api/auth/login/two-factor).
export const POST = handler({ body: loginSchema }, async ({ request, body }) => {
  const result = await login(body, clientAddress(request));
  if ('challenge' in result) return json(result);
  const { token, user } = result;
  const response = json({ token, user });
  setSessionCookie(response, token);
  return response;
});
