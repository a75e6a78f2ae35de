import { changeProfilePhoto, deleteProfilePhoto } from '@/lib/server/accounts/profile-photo';
import { handler } from '@/lib/server/route-handler';

// PUT /api/users/settings/photo — multipart `profilePhoto` (an image, ≤ 5 MB) → { message, user }; the old photo is deleted.
export const PUT = handler(
  { auth: 'member', form: { tooLargeMessage: 'Profile photo is too large. The limit is 5 MB.' } },
  async ({ actor, form }) => changeProfilePhoto(actor, form.files.profilePhoto ?? null),
);

// DELETE /api/users/settings/photo — back to the letter avatar → { message, user }.
export const DELETE = handler({ auth: 'member' }, async ({ actor }) => deleteProfilePhoto(actor));
