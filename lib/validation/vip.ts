/** VIP inputs, shared by the subscribe page, the API and tests. */
import { z } from '@/lib/validation/zod';

import { text } from './common';

export const CHOOSE_PLAN_MESSAGE = 'Choose a plan.';

export const checkoutSchema = z.object({
  plan: text(CHOOSE_PLAN_MESSAGE).trim().min(1, CHOOSE_PLAN_MESSAGE).max(64, 'That is not one of our plans.'),
});
export type CheckoutInput = z.infer<typeof checkoutSchema>;
