import { createHash } from 'node:crypto';

/**
 * Signs FlexPay parameters the way Verotel does (protocol version 4), written
 * from the documentation rather than imported from the app, so tests check
 * the app against the algorithm and not against itself: lowercase hex
 * SHA-256 of "secret:key1=value1:key2=value2…", keys sorted in byte order.
 */
export function flexpaySign(secret: string, params: Record<string, string>): string {
  const pairs = Object.keys(params)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((key) => `${key}=${params[key]}`);
  return createHash('sha256')
    .update([secret, ...pairs].join(':'))
    .digest('hex');
}

/** A postback as Verotel sends it: every parameter signed. */
export function signedPostback(secret: string, params: Record<string, string>): Record<string, string> {
  return { ...params, signature: flexpaySign(secret, params) };
}

/** `YYYY-MM-DD`, `days` from now (FlexPay's date format). */
export function flexpayDay(daysFromNow: number): string {
  return new Date(Date.now() + daysFromNow * 86_400_000).toISOString().slice(0, 10);
}

/** The end of VIP paid through that FlexPay day: the following UTC midnight. */
export function endOfFlexpayDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
}

/** The `initial` postback Verotel sends for a sale started from this checkout URL (unsigned; add shopID and sign it). */
export function saleFromCheckout(checkoutUrl: URL, saleId: string, extra: Record<string, string> = {}): Record<string, string> {
  const sent = (key: string) => checkoutUrl.searchParams.get(key) ?? '';
  return {
    saleID: saleId,
    referenceID: sent('referenceID'),
    transactionID: `t${saleId}`,
    priceAmount: sent('priceAmount'),
    priceCurrency: sent('priceCurrency'),
    paymentMethod: 'CC',
    type: 'subscription',
    subscriptionType: sent('subscriptionType'),
    period: sent('period'),
    event: 'initial',
    ...extra,
  };
}
