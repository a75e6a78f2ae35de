import { login } from '@/lib/server/accounts';
import { setSessionCookie } from '@/lib/server/auth/session';
import { clientAddress } from '@/lib/server/client-address';
import { handler, json } from '@/lib/server/http';
import { loginSchema } from '@/lib/validation/auth';

// POST /api/auth/login — { email, password } → { token, user }, and the session cookie.
export const POST = handler({ body: loginSchema }, async ({ request, body }) => {
  const { token, user } = await login(body, clientAddress(request));
  const response = json({ token, user });
  setSessionCookie(response, token);
  return response;
});
