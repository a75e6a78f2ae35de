import 'server-only';

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Verotel FlexPay, protocol version 4: signed purchase, subscription and
 * cancel URLs, and signed postbacks. Pure functions (no database, no
 * configuration), so the algorithm is tested on its own.
 *
 * Signature: lowercase hex SHA-256 of `secret:key1=value1:key2=value2…`, the
 * pairs sorted by key in byte order.
 */
export const FLEXPAY_VERSION = '4';

/**
 * The keys FlexPay signs in the URLs we send. Anything else in a URL travels
 * unsigned (and FlexPay ignores what it does not know).
 */
export const FLEXPAY_SIGNED_KEYS: ReadonlySet<string> = new Set([
  'version',
  'shopID',
  'priceAmount',
  'priceCurrency',
  'paymentMethod',
  'description',
  'referenceID',
  'saleID',
  'custom1',
  'custom2',
  'custom3',
  'subscriptionType',
  'period',
  'name',
  'trialAmount',
  'trialPeriod',
  'cancelDiscountPercentage',
  'type',
  'successURL',
  'declineURL',
  'precedingSaleID',
  'upgradeOption',
]);

export interface FlexpayAccount {
  shopId: string;
  signatureKey: string;
  /** https://secure.verotel.com, or another brand's host; no trailing slash. */
  baseUrl: string;
}

/** Values we may leave out: undefined, null and '' are not sent, and not signed. */
export type FlexpayParams = Record<string, string | number | null | undefined>;

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** The signature of exactly these pairs (callers choose which pairs: see signedPart and verifyFlexpaySignature). */
export function flexpaySignature(secret: string, params: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(params)
    .sort(byteOrder)
    .map((key) => `${key}=${params[key]}`);
  return createHash('sha256')
    .update([secret, ...pairs].join(':'), 'utf8')
    .digest('hex');
}

function withoutEmpty(params: FlexpayParams): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    kept[key] = String(value);
  }
  return kept;
}

function signedPart(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([key]) => FLEXPAY_SIGNED_KEYS.has(key)));
}

/** `{base}/{path}?…&signature=…`: the shop id and version added, empty values dropped, the signed keys signed. */
function signedUrl(account: FlexpayAccount, path: string, params: FlexpayParams): string {
  const sent = withoutEmpty({ ...params, shopID: account.shopId, version: FLEXPAY_VERSION });
  const query = new URLSearchParams(
    Object.keys(sent)
      .sort(byteOrder)
      .map((key) => [key, sent[key]!]),
  );
  query.append('signature', flexpaySignature(account.signatureKey, signedPart(sent)));
  return `${account.baseUrl}/${path}?${query.toString()}`;
}

export interface FlexpayOrder {
  referenceID: string;
  description: string;
  /** Decimal with two places, e.g. "9.99". */
  priceAmount: string;
  priceCurrency: string;
  successURL: string;
  declineURL: string;
  /** Absent: a one-time purchase (type=purchase). Present: a subscription of this kind. */
  subscription?: { subscriptionType: 'recurring' | 'one-time'; periodDays: number };
  /** Extra FlexPay parameters (custom1…, paymentMethod…); signed when FlexPay signs them. */
  extra?: FlexpayParams;
}

/** The startorder URL a member's browser goes to for a purchase or a subscription. */
export function flexpayStartOrderUrl(account: FlexpayAccount, order: FlexpayOrder): string {
  const { subscription, extra, ...fields } = order;
  return signedUrl(account, 'startorder', {
    ...extra,
    ...fields,
    ...(subscription
      ? { type: 'subscription', subscriptionType: subscription.subscriptionType, period: `P${subscription.periodDays}D` }
      : { type: 'purchase' }),
  });
}

/** The URL where a member cancels their subscription at Verotel. */
export function flexpayCancelUrl(account: FlexpayAccount, saleID: string): string {
  return signedUrl(account, 'cancel-subscription', { saleID });
}

/**
 * Whether a postback is signed with our key: the signature covers every
 * parameter received except `signature` itself, empty ones included.
 * Compared in constant time.
 */
export function verifyFlexpaySignature(secret: string, received: Readonly<Record<string, string>>): boolean {
  const given = received.signature;
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const { signature: _signature, ...signed } = received;
  const expected = Buffer.from(flexpaySignature(secret, signed), 'utf8');
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'utf8'));
}
