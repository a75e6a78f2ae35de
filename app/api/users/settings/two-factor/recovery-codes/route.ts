import { regenerateRecoveryCodes } from '@/lib/server/accounts/two-factor';
import { handler } from '@/lib/server/route-handler';
import { totpCodeSchema } from '@/lib/validation/two-factor';

// POST /api/users/settings/two-factor/recovery-codes — { currentPassword, code } from the app: 10 new recovery codes; the old ones stop working.
export const POST = handler({ auth: 'member', body: totpCodeSchema }, async ({ actor, body }) =>
  regenerateRecoveryCodes(actor, body),
);
