import 'server-only';

import { getConfig } from '@/lib/config/server';
import { clientAddressesStamped } from '@/lib/events';
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from '@/lib/front/resolve-client-address';

/**
 * The client's IP address for a request reaching route code: the one place
 * rate limits, view counting and reports learn who is asking.
 *
 * In production scripts/serve.ts has computed it from the socket and
 * TRUST_PROXY and stamped it into an internal header (lib/front/resolve-client-address.ts).
 * Without that server (`next dev`, tests calling handlers directly) the route
 * cannot see the socket: Next copies the socket's address into
 * X-Forwarded-For only when the client sent none, so a client-sent list
 * replaces it unseen. The fallback therefore walks X-Forwarded-For from the
 * right for TRUST_PROXY hops and, with TRUST_PROXY=0, names nobody: every such
 * request shares the address "unknown".
 */
export function clientAddress(request: Request): string {
  const stamped = clientAddressesStamped() ? request.headers.get(CLIENT_ADDRESS_HEADER) : null;
  return stamped || resolveClientAddress(null, request.headers.get('x-forwarded-for'), getConfig().trustProxy);
}
