import { register } from '@/lib/server/accounts';
import { clientAddress } from '@/lib/server/client-address';
import { handler } from '@/lib/server/route-handler';

// POST /api/auth/register — multipart: username, email, password, confirmPassword, dateOfBirth, optional profilePhoto.
export const POST = handler(
  { form: { tooLargeMessage: 'The form is too large. Profile photos can be at most 5 MB.' }, status: 201 },
  async ({ request, form }) => register(form.fields, form.files.profilePhoto ?? null, clientAddress(request)),
);
