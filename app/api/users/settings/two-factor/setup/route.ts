import { beginTwoFactorSetup } from '@/lib/server/accounts/two-factor';
import { handler } from '@/lib/server/http';

// POST /api/users/settings/two-factor/setup — a new secret (text, otpauth:// URI, QR path), pending until confirmed.
export const POST = handler({ auth: 'member' }, async ({ actor }) => beginTwoFactorSetup(actor));
