import { deleteAccount } from '@/lib/server/accounts/deletion';
import { clearSessionCookie } from '@/lib/server/auth/session';
import { handler, json } from '@/lib/server/route-handler';
import { deleteAccountSchema } from '@/lib/validation/deletion';

// DELETE /api/users/settings/account — { currentPassword, username }: deletes the caller's account and logs it out everywhere.
export const DELETE = handler({ auth: 'member', body: deleteAccountSchema }, async ({ actor, body }) => {
  const response = json(await deleteAccount(actor, body));
  clearSessionCookie(response);
  return response;
});
