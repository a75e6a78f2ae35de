import { updateProfile } from '@/lib/server/community/profiles';
import { handler } from '@/lib/server/route-handler';
import { profileSettingsSchema } from '@/lib/validation/community';

// PUT /api/users/settings/profile { bio } — the caller's bio (plain text, ≤ 500 characters): { success: true, bio }.
export const PUT = handler({ auth: 'member', body: profileSettingsSchema }, async ({ actor, body }) =>
  updateProfile(actor, body),
);
