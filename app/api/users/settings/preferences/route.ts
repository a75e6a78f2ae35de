import { updatePreferences } from '@/lib/server/accounts';
import { handler } from '@/lib/server/route-handler';
import { preferencesSchema } from '@/lib/validation/auth';

// PUT /api/users/settings/preferences
export const PUT = handler({ auth: 'member', body: preferencesSchema }, async ({ actor, body }) =>
  updatePreferences(actor, body),
);
