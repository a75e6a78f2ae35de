import 'server-only';

import { createHmac } from 'node:crypto';

import { getSessionSecret } from '@/lib/config/server';
import { addressNetwork } from '@/lib/front/resolve-client-address';

/*
 * A leaf of the reports domain: it imports nothing from lib/server, so the
 * trust code that files notices (notices.ts, copyright.ts,
 * consent-withdrawals.ts) and the reports modules can all use it without an
 * import circle.
 */

/**
 * Who is reporting, for duplicate detection and rate limits: `m:{memberId}`
 * for members, for visitors an HMAC of their address (an IPv6 address's
 * /64) keyed with the session secret (no raw addresses are stored; the hash
 * is useless elsewhere).
 */
export function reporterKeyOf(memberId: string | null, address: string): string {
  if (memberId) return `m:${memberId}`;
  return `a:${createHmac('sha256', getSessionSecret()).update(`report\n${addressNetwork(address)}`).digest('hex').slice(0, 32)}`;
}
