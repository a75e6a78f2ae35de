import { disableTwoFactor, twoFactorStatus } from '@/lib/server/accounts/two-factor';
import { handler } from '@/lib/server/route-handler';
import { disableTwoFactorSchema } from '@/lib/validation/two-factor';

// GET /api/users/settings/two-factor — whether it is on, recovery codes left, whether it is required (admins).
export const GET = handler({ auth: 'member' }, async ({ actor }) => twoFactorStatus(actor));

// DELETE /api/users/settings/two-factor — { currentPassword, code }: turns it off (not for admins).
export const DELETE = handler({ auth: 'member', body: disableTwoFactorSchema }, async ({ actor, body }) =>
  disableTwoFactor(actor, body),
);
