import { changeEmail } from '@/lib/server/accounts';
import { handler } from '@/lib/server/route-handler';
import { changeEmailSchema } from '@/lib/validation/auth';

// PUT /api/users/settings/email
export const PUT = handler({ auth: 'member', body: changeEmailSchema }, async ({ actor, body }) => changeEmail(actor, body));
