import { register } from '@/lib/server/accounts';
import { clientAddress } from '@/lib/server/client-address';
import { json, readForm, route } from '@/lib/server/http';

// POST /api/auth/register — multipart: username, email, password, confirmPassword, dateOfBirth, optional profilePhoto.
export const POST = route(async (request) => {
  const { fields, files } = await readForm(request);
  const result = await register(fields, files.profilePhoto ?? null, clientAddress(request));
  return json(result, { status: 201 });
});
