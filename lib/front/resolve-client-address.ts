/**
 * Who is asking: the client's IP address, for per-address rate limits,
 * regional lookups and view counting.
 *
 * X-Forwarded-For is a list each proxy appends to ("client, proxy1, proxy2"),
 * and anyone can send it with any content. Only the entries our own proxies
 * appended are believed: with TRUST_PROXY = N proxies in front of the server,
 * the client is the address the outermost of them saw, the Nth entry from the
 * right. With 0 the socket's peer is the client and the header is ignored.
 *
 * Plain Node (no server-only imports), because scripts/serve.ts runs it before
 * Next sees a request: it stamps the address into CLIENT_ADDRESS_HEADER,
 * always overwriting what the client sent, and route code reads it back
 * through clientAddress() in lib/server/client-address.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

export const CLIENT_ADDRESS_HEADER = 'x-chrysalis-client-address';

/** When no address can be named (no socket and nothing trusted): such requests share one budget. */
export const UNKNOWN_ADDRESS = 'unknown';

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::\d{1,5})?$/;
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/;

/**
 * One address as sockets and proxies write it, in one spelling: IPv4-mapped
 * IPv6 ("::ffff:203.0.113.5") as IPv4, ports and brackets dropped, IPv6 in
 * lower case. Null for anything that is not an IP address.
 */
export function normaliseAddress(raw: string | null | undefined): string | null {
  let value = (raw ?? '').trim();
  value = BRACKETED_IPV6.exec(value)?.[1] ?? IPV4_WITH_PORT.exec(value)?.[1] ?? value;
  value = value.toLowerCase();
  value = IPV4_MAPPED.exec(value)?.[1] ?? value;
  return isIP(value) ? value : null;
}

/**
 * The client's address from the socket's peer and X-Forwarded-For: starting
 * at the socket, step left one trusted hop at a time. A list shorter than the
 * hop count (fewer proxies on this path) ends at its leftmost entry; an entry
 * that is not an address stops the walk at the last one that was.
 */
export function resolveClientAddress(
  socketAddress: string | null | undefined,
  forwardedFor: string | null | undefined,
  trustedHops: number,
): string {
  let client = normaliseAddress(socketAddress);
  const hops = (forwardedFor ?? '').split(',').reverse();
  for (const hop of hops.slice(0, trustedHops)) {
    const seenByTrustedProxy = normaliseAddress(hop);
    if (!seenByTrustedProxy) break;
    client = seenByTrustedProxy;
  }
  return client ?? UNKNOWN_ADDRESS;
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** A Node request as far as this module reads it (tests pass plain objects). */
export interface NodeRequestLike {
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string } | null;
}

/** The client address of a raw Node request (scripts/serve.ts, the upload handler, regional blocking). */
export function nodeClientAddress(req: NodeRequestLike, trustedHops: number): string {
  return resolveClientAddress(req.socket?.remoteAddress, headerText(req.headers['x-forwarded-for']), trustedHops);
}

/**
 * Writes the client address into the request's internal header, replacing
 * any copy the client sent, and returns it.
 */
export function stampClientAddress(req: NodeRequestLike, trustedHops: number): string {
  const address = nodeClientAddress(req, trustedHops);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  return address;
}

/** The eight 16-bit groups of a valid IPv6 address (an IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groupsOf = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::') as [string, string | undefined];
  if (tail === undefined) return groupsOf(head);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * What per-address limits and view counting key on: an IPv4 address itself,
 * an IPv6 address's /64. One subscriber or server is handed a whole /64, so
 * keying on single IPv6 addresses would give its owner 2^64 fresh budgets.
 */
export function addressNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
