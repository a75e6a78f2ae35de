import { endSessions } from '@/lib/server/accounts';
import { clearSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/route-handler';
import { endSessionsSchema } from '@/lib/validation/two-factor';

// DELETE /api/users/settings/sessions — { which: "others" | "all" }: logs out every other device, or every one (this one too: the cookie is cleared).
export const DELETE = handler({ auth: 'member', body: endSessionsSchema }, async ({ actor, body }) => {
  const result = await endSessions(actor, body);
  const response = json(result);
  if (result.loggedOut) clearSessionCookie(response);
  return response;
});
