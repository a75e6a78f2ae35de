import { beginTwoFactorSetup } from '@/lib/server/accounts/two-factor';
import { handler } from '@/lib/server/route-handler';
import { twoFactorSetupSchema } from '@/lib/validation/two-factor';

// POST /api/users/settings/two-factor/setup — { currentPassword }: a new secret (text, otpauth:// URI, QR path), pending until confirmed.
export const POST = handler({ auth: 'member', body: twoFactorSetupSchema }, async ({ actor, body }) =>
  beginTwoFactorSetup(actor, body),
);
