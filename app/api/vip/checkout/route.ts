import { handler } from '@/lib/server/route-handler';
import { startCheckout } from '@/lib/server/vip/checkout';
import { checkoutSchema } from '@/lib/validation/vip';

// POST /api/vip/checkout — { plan }, members only: { url } of the processor's signed payment page; 400 unknown plan, 409 already VIP, 429, 503 no processor.
export const POST = handler({ auth: 'member', body: checkoutSchema }, async ({ actor, body }) => startCheckout(actor, body));
