import 'server-only';

import { createHash } from 'node:crypto';

import { flexpayCancelUrl, flexpayStartOrderUrl, verifyFlexpaySignature, type FlexpayAccount } from './flexpay';
import type { PaymentEventKind, PaymentProcessor, PostbackReading } from './processor';

/** FlexPay's postback `event` values, in our words. */
const EVENT_KINDS: Record<string, PaymentEventKind> = {
  initial: 'sale',
  rebill: 'rebill',
  cancel: 'cancel',
  uncancel: 'uncancel',
  extend: 'extend',
  expiry: 'expiry',
  credit: 'refund',
  chargeback: 'chargeback',
};

const DAY_MS = 86_400_000;

/**
 * A FlexPay date: `2026-12-24` means VIP through that day, so it ends at the
 * next UTC midnight (the processor charges some time during the day, and a
 * member must not lose VIP for the hours before the rebill postback). Full
 * ISO timestamps are taken as they are. Undefined: absent; null: unreadable.
 */
export function parseFlexpayDate(value: string | undefined): Date | undefined | null {
  if (value === undefined || value === '') return undefined;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    const date = new Date(start);
    if (date.getUTCDate() !== Number(day[3])) return null; // 2026-02-31
    return new Date(start + DAY_MS);
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An ISO 8601 period such as P30D, P1M or P1Y in days (a month counts 30, a year 365); null when not one. */
export function periodToDays(value: string | undefined): number | null {
  const match = value ? /^P(\d{1,4})([DWMY])$/i.exec(value) : null;
  if (!match) return null;
  const size = { D: 1, W: 7, M: 30, Y: 365 }[match[2]!.toUpperCase() as 'D' | 'W' | 'M' | 'Y'];
  return Number(match[1]) * size;
}

/** SHA-256 of the parameters sorted by key: part of the dedupe key, so only an identical delivery counts as a replay. */
function paramsDigest(params: Readonly<Record<string, string>>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(params[key]!)}`)
    .join('&');
  return createHash('sha256').update(sorted).digest('hex');
}

/** Verotel FlexPay as a PaymentProcessor. */
export function verotelProcessor(account: FlexpayAccount): PaymentProcessor {
  return {
    name: 'verotel',

    checkoutUrl(order) {
      return flexpayStartOrderUrl(account, {
        referenceID: order.referenceId,
        description: order.description,
        priceAmount: order.priceAmount,
        priceCurrency: order.priceCurrency,
        successURL: order.successUrl,
        declineURL: order.declineUrl,
        // A pass is a one-time subscription: FlexPay then knows its end and sends an expiry.
        subscription: { subscriptionType: order.recurring ? 'recurring' : 'one-time', periodDays: order.periodDays },
      });
    },

    cancelUrl(saleId) {
      return flexpayCancelUrl(account, saleId);
    },

    readPostback(received): PostbackReading {
      if (!verifyFlexpaySignature(account.signatureKey, received)) {
        return {
          ok: false,
          status: 401,
          reason: received.signature ? 'the signature does not match' : 'the signature is missing',
        };
      }
      const { signature: _signature, ...payload } = received;
      // A one-time purchase may arrive as type=purchase without an event: it is the sale.
      const name = (payload.event || (payload.type === 'purchase' ? 'initial' : 'unknown')).toLowerCase();
      const kind = EVENT_KINDS[name] ?? 'other';
      const saleId = payload.saleID || null;
      const refuse = (reason: string): PostbackReading => ({ ok: false, status: 400, reason, name, saleId, payload });

      if (payload.shopID !== account.shopId)
        return refuse(`shopID ${JSON.stringify(payload.shopID ?? '')} is not this site's shop`);
      if (kind !== 'other' && !saleId) return refuse('saleID is missing');
      // A cancel says until when it is paid (expiresOn); other events name the next charge.
      const dateKeys = kind === 'cancel' ? (['expiresOn', 'nextChargeOn'] as const) : (['nextChargeOn', 'expiresOn'] as const);
      const dateKey = dateKeys.find((key) => payload[key]);
      const paidUntil = dateKey ? parseFlexpayDate(payload[dateKey]) : undefined;
      if (paidUntil === null) return refuse(`${dateKey} is not a date: ${JSON.stringify(payload[dateKey!])}`);

      return {
        ok: true,
        event: {
          kind,
          name,
          saleId,
          referenceId: payload.referenceID || null,
          transactionId: payload.transactionID || null,
          priceAmount: payload.priceAmount || null,
          priceCurrency: payload.priceCurrency ? payload.priceCurrency.toUpperCase() : null,
          paidUntil: paidUntil ?? null,
          periodDays: periodToDays(payload.period),
          dedupeKey: `verotel:${saleId ?? '-'}:${name}:${payload.transactionID || '-'}:${paramsDigest(payload)}`,
          payload,
        },
      };
    },
  };
}
