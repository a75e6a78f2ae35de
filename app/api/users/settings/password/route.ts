import { changePassword } from '@/lib/server/accounts';
import { handler } from '@/lib/server/route-handler';
import { changePasswordSchema } from '@/lib/validation/auth';

// PUT /api/users/settings/password
export const PUT = handler({ auth: 'member', body: changePasswordSchema }, async ({ actor, body }) =>
  changePassword(actor, body),
);
