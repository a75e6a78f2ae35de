import { resendVerification } from '@/lib/server/accounts';
import { clientAddress } from '@/lib/server/client-address';
import { json, readJson, route } from '@/lib/server/http';

// POST /api/auth/resend-verification — { email } → { message }, the same whether or not the address exists.
export const POST = route(async (request) => json(await resendVerification(await readJson(request), clientAddress(request))));
