import 'server-only';

import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';

import type { VipEntitlementDto, VipPlanDto, VipStatusDto } from '@/lib/api-types';
import { getConfig, type VipPlan } from '@/lib/config/server';
import { getDb } from '@/lib/db';
import { entitlements, type Entitlement } from '@/lib/db/schema';

import { isVipNow } from '../accounts/dto';
import { memberOf, type Actor } from '../auth/actor';
import { getPaymentProcessor, type PaymentProcessor } from '../payments/processor';

export function toPlanDto(plan: VipPlan): VipPlanDto {
  return {
    id: plan.id,
    name: plan.name,
    priceAmount: plan.priceAmount,
    priceCurrency: plan.priceCurrency,
    periodDays: plan.periodDays,
    recurring: plan.recurring,
  };
}

/**
 * What /subscribe shows: the plans and whether payments work, and for a
 * member their VIP: every entitlement still granting it, each with its end
 * and, for an active recurring subscription, the processor's cancel page.
 * Visitors (and banned members) get the plans with member null.
 */
export async function vipStatus(actor: Actor): Promise<VipStatusDto> {
  const member = memberOf(actor);
  const config = getConfig();
  const processor = getPaymentProcessor(config);
  const plans = config.vipPlans.map(toPlanDto);
  const base = { plans, paymentsAvailable: processor !== null };
  if (!member) return { ...base, member: null };

  const db = await getDb();
  const live = await db
    .select()
    .from(entitlements)
    .where(
      and(
        eq(entitlements.userId, member.id),
        inArray(entitlements.status, ['active', 'cancelled']),
        gt(entitlements.periodEnd, sql`now()`),
      ),
    )
    .orderBy(desc(entitlements.periodEnd));
  return {
    ...base,
    member: {
      isVIP: isVipNow(member),
      vipUntil: member.vipUntil?.toISOString() ?? null,
      entitlements: live.map((entitlement) => toEntitlementDto(entitlement, config.vipPlans, processor)),
    },
  };
}

function toEntitlementDto(entitlement: Entitlement, plans: VipPlan[], processor: PaymentProcessor | null): VipEntitlementDto {
  const cancellable =
    entitlement.status === 'active' && entitlement.recurring && entitlement.externalId && processor?.name === entitlement.source;
  return {
    _id: entitlement.id,
    source: entitlement.source,
    planId: entitlement.planId,
    planName: plans.find((plan) => plan.id === entitlement.planId)?.name ?? null,
    status: entitlement.status as VipEntitlementDto['status'],
    recurring: entitlement.recurring,
    periodEnd: entitlement.periodEnd.toISOString(),
    cancelledAt: entitlement.cancelledAt?.toISOString() ?? null,
    cancelUrl: cancellable ? processor.cancelUrl(entitlement.externalId!) : null,
  };
}
