import { resendVerification } from '@/lib/server/accounts';
import { clientIp, json, readJson, route } from '@/lib/server/http';

// POST /api/auth/resend-verification — { email } → { message }, the same whether or not the address exists.
export const POST = route(async (request) => json(await resendVerification(await readJson(request), clientIp(request))));
