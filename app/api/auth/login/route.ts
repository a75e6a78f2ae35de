import { login } from '@/lib/server/accounts';
import { setSessionCookie } from '@/lib/server/auth/session';
import { clientAddress } from '@/lib/server/client-address';
import { json, readJson, route } from '@/lib/server/http';

// POST /api/auth/login — { email, password } → { token, user }, and the session cookie.
export const POST = route(async (request) => {
  const { token, user } = await login(await readJson(request), clientAddress(request));
  const response = json({ token, user });
  setSessionCookie(response, token);
  return response;
});
