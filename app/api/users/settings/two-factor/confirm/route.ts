import { confirmTwoFactorSetup } from '@/lib/server/accounts/two-factor';
import { handler } from '@/lib/server/route-handler';
import { totpCodeSchema } from '@/lib/validation/two-factor';

// POST /api/users/settings/two-factor/confirm — { currentPassword, code } from the app: turns it on; answers the 10 recovery codes, once.
export const POST = handler({ auth: 'member', body: totpCodeSchema }, async ({ actor, body }) =>
  confirmTwoFactorSetup(actor, body),
);
