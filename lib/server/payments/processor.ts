import 'server-only';

import { getConfig, type ServerConfig } from '@/lib/config/server';

import { verotelProcessor } from './verotel';

/**
 * What the VIP code needs from a card processor. Verotel is the one we have;
 * another adult-capable processor (CCBill, Segpay…) would be another
 * implementation of this interface, its own postback route, and a new
 * entitlement source.
 */
export interface PaymentProcessor {
  /** Stored as entitlements.source and payment_events.processor. */
  readonly name: 'verotel';
  /** Where the member's browser goes to pay. */
  checkoutUrl(order: CheckoutOrder): string;
  /** Where a member cancels a recurring subscription, or null when the processor has no such page. */
  cancelUrl(saleId: string): string | null;
  /** Checks a postback's signature and reads it into a processor-neutral event. */
  readPostback(params: Readonly<Record<string, string>>): PostbackReading;
}

export interface CheckoutOrder {
  /** Our checkout id: the processor sends it back with the sale. */
  referenceId: string;
  description: string;
  priceAmount: string;
  priceCurrency: string;
  periodDays: number;
  recurring: boolean;
  successUrl: string;
  declineUrl: string;
}

/**
 * What happened, in our words: a sale starts VIP, a rebill extends it, a
 * cancel keeps it until the paid period ends, an expiry ends it, a refund
 * or chargeback revokes it at once. `other` is logged and needs no action.
 */
export const PAYMENT_EVENT_KINDS = [
  'sale',
  'rebill',
  'cancel',
  'uncancel',
  'extend',
  'expiry',
  'refund',
  'chargeback',
  'other',
] as const;
export type PaymentEventKind = (typeof PAYMENT_EVENT_KINDS)[number];

export interface ProcessorEvent {
  kind: PaymentEventKind;
  /** The processor's own name for the event, as logged. */
  name: string;
  /** The processor's id of the sale (subscription); null only for `other`. */
  saleId: string | null;
  /** Our checkout id, sent with the sale. */
  referenceId: string | null;
  transactionId: string | null;
  priceAmount: string | null;
  priceCurrency: string | null;
  /** When the paid period ends, when the processor says (next charge, or expiry). */
  paidUntil: Date | null;
  /** Length of one paid period, when the processor says. */
  periodDays: number | null;
  /** Identical deliveries share it, so a replay is a no-op. */
  dedupeKey: string;
  /** Everything received but the signature, for the payment log. */
  payload: Record<string, string>;
}

export type PostbackReading =
  | { ok: true; event: ProcessorEvent }
  /** Not signed with our key: answered 401, logged to the console only, nothing stored. */
  | { ok: false; status: 401; reason: string }
  /** Signed, but not for us or not readable: answered 400 and logged as rejected. */
  | { ok: false; status: 400; reason: string; name: string; saleId: string | null; payload: Record<string, string> };

/** The configured processor, or null: then checkout answers 503 and only admins can grant VIP. */
export function getPaymentProcessor(config: ServerConfig = getConfig()): PaymentProcessor | null {
  return config.verotel ? verotelProcessor(config.verotel) : null;
}
