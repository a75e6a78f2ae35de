/** Words and numbers for VIP plans and periods, the same on the server and in the browser. */

interface PlanTerms {
  priceAmount: string;
  priceCurrency: string;
  periodDays: number;
  recurring: boolean;
}

/** "9.99", "USD" → "$9.99"; "EUR" → "€9.99". */
export function formatPrice(amount: string, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(Number(amount));
}

export const daysLabel = (days: number) => `${days} day${days === 1 ? '' : 's'}`;

/** "every 30 days" for a subscription, "once, for 30 days" for a pass. */
export function billingLabel(plan: Pick<PlanTerms, 'periodDays' | 'recurring'>): string {
  return plan.recurring ? `every ${daysLabel(plan.periodDays)}` : `once, for ${daysLabel(plan.periodDays)}`;
}

/**
 * The last day of VIP, as a UTC calendar date ("24 December 2026"). VIP
 * paid through a day ends at the following UTC midnight, so the moment just
 * before the end names the right day.
 */
export function formatVipEndDate(end: string | Date): string {
  const last = new Date(new Date(end).getTime() - 1);
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(last);
}
