import 'server-only';

import type { VipCheckoutDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { checkouts } from '@/lib/db/schema';
import { formatVipEndDate } from '@/lib/format/vip';
import type { CheckoutInput } from '@/lib/validation/vip';

import { isVipNow } from '../accounts/dto';
import { requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict } from '../errors';
import { getPaymentProcessor } from '../payments/processor';
import { consume } from '../rate-limit';

export const PAYMENTS_UNAVAILABLE_MESSAGE = 'Payments are not available on this site yet.';
export const CHECKOUT_TOO_OFTEN_MESSAGE =
  'You have started several checkouts in a few minutes. Please wait a little and try again.';

/**
 * A member starts paying for a plan: a checkout row records who, which plan
 * and which price, and its id travels to the processor as the reference the
 * sale's postback must bring back. Nothing here grants VIP: only a signed
 * postback does (the success redirect proves nothing).
 */
export async function startCheckout(actor: Actor, input: CheckoutInput): Promise<VipCheckoutDto> {
  const { user } = requireMember(actor);
  const config = getConfig();
  const plan = config.vipPlans.find((candidate) => candidate.id === input.plan);
  if (!plan) {
    throw badRequest(`There is no plan called "${input.plan}". Choose one of: ${config.vipPlans.map((p) => p.id).join(', ')}.`, {
      field: 'plan',
    });
  }
  const processor = getPaymentProcessor(config);
  if (!processor) throw new ApiError(503, PAYMENTS_UNAVAILABLE_MESSAGE);
  if (isVipNow(user)) {
    throw conflict(
      `You already have VIP until ${formatVipEndDate(user.vipUntil!)}. You can choose a plan again once it has ended.`,
    );
  }
  await consume('checkoutPerMember', user.id, CHECKOUT_TOO_OFTEN_MESSAGE);

  const db = await getDb();
  const [checkout] = await db
    .insert(checkouts)
    .values({
      userId: user.id,
      planId: plan.id,
      priceAmount: plan.priceAmount,
      priceCurrency: plan.priceCurrency,
      periodDays: plan.periodDays,
      recurring: plan.recurring,
    })
    .returning({ id: checkouts.id });
  const url = processor.checkoutUrl({
    referenceId: checkout!.id,
    description: `${config.siteName} Edge Trainer VIP: ${plan.name}`,
    priceAmount: plan.priceAmount,
    priceCurrency: plan.priceCurrency,
    periodDays: plan.periodDays,
    recurring: plan.recurring,
    successUrl: `${config.siteUrl}/subscribe?status=success`,
    declineUrl: `${config.siteUrl}/subscribe?status=declined`,
  });
  return { url };
}
