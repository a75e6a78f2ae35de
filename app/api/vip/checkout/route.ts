import { requireUser } from '@/lib/server/auth/session';
import { parseInput } from '@/lib/server/errors';
import { json, readJson, route } from '@/lib/server/http';
import { startCheckout } from '@/lib/server/vip/checkout';
import { checkoutSchema } from '@/lib/validation/vip';

// POST /api/vip/checkout — { plan }, members only: { url } of the processor's signed payment page; 400 unknown plan, 409 already VIP, 429, 503 no processor.
export const POST = route(async (request) => {
  const auth = await requireUser(request);
  const input = parseInput(checkoutSchema, await readJson(request));
  return json(await startCheckout(auth, input));
});
