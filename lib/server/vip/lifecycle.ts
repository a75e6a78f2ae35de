import 'server-only';

import { and, eq, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { queryRows, type Database } from '@/lib/db';
import { checkouts, entitlements, type Entitlement } from '@/lib/db/schema';

import type { PaymentProcessor, ProcessorEvent } from '../payments/processor';

import { syncVipUntil } from './entitlements';

/**
 * The entitlement lifecycle driven by a processor's events:
 * sale → active; rebill and extend → longer; cancel → cancelled (VIP until
 * the paid period ends); uncancel → active again; expiry → expired;
 * refund and chargeback → revoked at once. Each change recomputes
 * users.vip_until in the same transaction, which is what isVIP reads.
 */

export interface AppliedEvent {
  outcome: 'applied' | 'ignored';
  detail: string;
  userId: string | null;
  entitlementId: string | null;
}

/** A signed event that does not fit our records (unknown checkout or sale, wrong price): answered 400 and logged as rejected. */
export class PaymentRejected extends Error {
  constructor(
    message: string,
    readonly userId: string | null = null,
    readonly entitlementId: string | null = null,
  ) {
    super(message);
    this.name = 'PaymentRejected';
  }
}

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "9.90" and "9.9" are the same price; anything that is not a plain decimal matches nothing. */
function normalizedAmount(value: string | null): string | null {
  const match = value ? /^(\d+)(?:\.(\d+))?$/.exec(value.trim()) : null;
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/** Applies one event in the caller's transaction; throws PaymentRejected when it does not fit. */
export async function applyProcessorEvent(
  db: Database,
  processor: Pick<PaymentProcessor, 'name'>,
  event: ProcessorEvent,
): Promise<AppliedEvent> {
  if (event.kind === 'other')
    return { outcome: 'ignored', detail: `"${event.name}" needs no action`, userId: null, entitlementId: null };
  if (event.kind === 'sale') return applySale(db, processor.name, event);

  const entitlement = await lockEntitlement(db, processor.name, event.saleId!);
  if (!entitlement) throw new PaymentRejected(`Unknown saleID ${event.saleId}: no sale of ours has that id`);
  const ignored = (why: string): AppliedEvent => ({
    outcome: 'ignored',
    detail: why,
    userId: entitlement.userId,
    entitlementId: entitlement.id,
  });
  const now = new Date();
  let change: Partial<typeof entitlements.$inferInsert>;
  let detail: string;

  switch (event.kind) {
    case 'rebill':
    case 'extend': {
      if (entitlement.status === 'revoked') return ignored(`${event.name} of a revoked sale: VIP stays off`);
      const periodDays = event.periodDays ?? planPeriodDays(entitlement.planId);
      const until = event.paidUntil ?? (periodDays ? addDays(later(entitlement.periodEnd, now), periodDays) : null);
      if (!until) return ignored(`${event.name} without a new date or period`);
      // A late or repeated message never shortens what was paid for; a rebill after an expiry starts VIP again.
      change = { status: 'active', periodEnd: later(entitlement.periodEnd, until), cancelledAt: null, endedAt: null };
      detail = `${event.name === 'rebill' ? 'Renewed' : 'Extended'} until ${day(change.periodEnd!)}`;
      break;
    }
    case 'cancel':
      if (entitlement.status !== 'active') return ignored(`cancel of a ${entitlement.status} sale`);
      // VIP stays until the paid period ends (FlexPay's expiresOn when it says).
      change = { status: 'cancelled', cancelledAt: now, ...(event.paidUntil ? { periodEnd: event.paidUntil } : {}) };
      detail = `Cancelled: VIP until ${day(change.periodEnd ?? entitlement.periodEnd)}`;
      break;
    case 'uncancel':
      if (entitlement.status !== 'cancelled') return ignored(`uncancel of a ${entitlement.status} sale`);
      change = {
        status: 'active',
        cancelledAt: null,
        ...(event.paidUntil ? { periodEnd: later(entitlement.periodEnd, event.paidUntil) } : {}),
      };
      detail = 'Renewal restarted';
      break;
    case 'expiry':
      if (entitlement.status !== 'active' && entitlement.status !== 'cancelled')
        return ignored(`expiry of a ${entitlement.status} sale`);
      change = {
        status: 'expired',
        endedAt: now,
        periodEnd: entitlement.periodEnd.getTime() < now.getTime() ? entitlement.periodEnd : now,
      };
      detail = 'Expired';
      break;
    case 'refund':
    case 'chargeback':
      if (entitlement.status === 'revoked') return ignored(`${event.name} of an already revoked sale`);
      change = { status: 'revoked', endedAt: now };
      detail = `${event.kind === 'refund' ? 'Refunded' : 'Chargeback'}: VIP revoked`;
      break;
  }

  await db
    .update(entitlements)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(entitlements.id, entitlement.id));
  await syncVipUntil(db, entitlement.userId);
  return { outcome: 'applied', detail, userId: entitlement.userId, entitlementId: entitlement.id };
}

async function lockEntitlement(db: Database, source: Entitlement['source'], saleId: string): Promise<Entitlement | null> {
  const [row] = await db
    .select()
    .from(entitlements)
    .where(and(eq(entitlements.source, source), eq(entitlements.externalId, saleId)))
    .for('update');
  return row ?? null;
}

function planPeriodDays(planId: string | null): number | null {
  return getConfig().vipPlans.find((plan) => plan.id === planId)?.periodDays ?? null;
}

/**
 * A sale: the checkout named by referenceID says who pays for which plan at
 * which price. A sale that names no checkout of ours, a member who no longer
 * exists, or a different price is refused.
 */
async function applySale(db: Database, source: Entitlement['source'], event: ProcessorEvent): Promise<AppliedEvent> {
  const referenceId = event.referenceId ?? '';
  const [checkout] = UUID.test(referenceId)
    ? await queryRows<{
        id: string;
        user_id: string;
        plan_id: string;
        price_amount: string;
        price_currency: string;
        period_days: number;
        recurring: boolean;
        vip_until: Date | string | null;
      }>(
        db,
        sql`SELECT c.id, u.id AS user_id, c.plan_id, c.price_amount, c.price_currency, c.period_days, c.recurring, u.vip_until
            FROM checkouts c JOIN users u ON u.id = c.user_id
            WHERE c.id = ${referenceId}
            FOR UPDATE OF c`,
      )
    : [];
  // Deleting an account deletes its checkouts, so a sale for a member who is gone lands here too.
  if (!checkout)
    throw new PaymentRejected(
      `Unknown referenceID ${JSON.stringify(referenceId)}: no checkout of ours has that id, or its member no longer exists`,
    );
  const userId = checkout.user_id;

  const paid = `${event.priceAmount ?? '?'} ${event.priceCurrency ?? '?'}`;
  const offered = `${checkout.price_amount} ${checkout.price_currency}`;
  if (
    normalizedAmount(event.priceAmount) !== normalizedAmount(checkout.price_amount) ||
    event.priceCurrency !== checkout.price_currency
  ) {
    throw new PaymentRejected(`Price ${paid} differs from the checkout's ${offered}: tampered or misconfigured`, userId);
  }

  const [existing] = await db
    .select({ id: entitlements.id })
    .from(entitlements)
    .where(and(eq(entitlements.source, source), eq(entitlements.externalId, event.saleId!)));
  if (existing)
    return { outcome: 'ignored', detail: `Sale ${event.saleId} is already recorded`, userId, entitlementId: existing.id };

  const now = new Date();
  // A pass bought while VIP runs starts when the current VIP ends, so no paid day is lost.
  const start = checkout.recurring || !checkout.vip_until ? now : later(new Date(checkout.vip_until), now);
  // Trust the processor's date when it is in the future; otherwise count the plan's days.
  const periodEnd =
    event.paidUntil && event.paidUntil.getTime() > now.getTime() ? event.paidUntil : addDays(start, checkout.period_days);
  const [created] = await db
    .insert(entitlements)
    .values({
      userId,
      source,
      planId: checkout.plan_id,
      externalId: event.saleId,
      status: 'active',
      periodEnd,
      recurring: checkout.recurring,
    })
    .returning({ id: entitlements.id });
  await db
    .update(checkouts)
    .set({ completedAt: sql`coalesce(${checkouts.completedAt}, now())` })
    .where(eq(checkouts.id, checkout.id));
  await syncVipUntil(db, userId);
  return {
    outcome: 'applied',
    detail: `Sale of ${checkout.plan_id} for ${paid}: VIP until ${day(periodEnd)}`,
    userId,
    entitlementId: created!.id,
  };
}
