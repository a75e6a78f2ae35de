/**
 * Regional blocking (spec section 8): visitors from listed countries or
 * subdivisions get a 403 HTML page and nothing else.
 *
 * The visitor's place comes from CDN headers (Cloudflare's CF-IPCountry and
 * CF-Region-Code by default) or, without a CDN, from a MaxMind GeoLite2-City
 * database looked up by the client's address. Plain Node: the server entry
 * runs it before Next and before the page cache, so no content, cached or
 * not, reaches a blocked region.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { CityResponse, Reader } from 'maxmind';

import { nodeClientAddress, type NodeRequestLike } from './resolve-client-address';

export interface GeoRules {
  /** TRUST_PROXY: proxy hops whose X-Forwarded-For entries name the visitor (lib/front/resolve-client-address.ts). */
  trustProxy: number;
  /** Upper-case country codes ("GB") and subdivision codes ("US-TX"). */
  blocked: Set<string>;
  countryHeader: string;
  regionHeader: string;
  reader?: Reader<CityResponse>;
}

export interface Place {
  country: string | null;
  /** ISO 3166-2 subdivision, e.g. "US-TX". */
  region: string | null;
}

export function parseBlockedRegions(list: string | undefined): Set<string> {
  return new Set(
    (list ?? '')
      .split(',')
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
  );
}

const header = (req: Pick<IncomingMessage, 'headers'>, name: string) => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || null;
};

export function locate(req: NodeRequestLike, rules: GeoRules): Place {
  const country = header(req, rules.countryHeader)?.toUpperCase() ?? null;
  if (country && /^[A-Z]{2}$/.test(country) && country !== 'XX' && country !== 'T1') {
    const rawRegion = header(req, rules.regionHeader)?.toUpperCase() ?? null;
    // CDNs send the subdivision alone ("TX") or in full ("US-TX").
    const region = rawRegion ? (rawRegion.includes('-') ? rawRegion : `${country}-${rawRegion}`) : null;
    return { country, region };
  }
  const found = rules.reader ? safeLookup(rules.reader, nodeClientAddress(req, rules.trustProxy)) : null;
  if (!found?.country?.iso_code) return { country: null, region: null };
  const countryCode = found.country.iso_code.toUpperCase();
  const subdivision = found.subdivisions?.[0]?.iso_code;
  return { country: countryCode, region: subdivision ? `${countryCode}-${subdivision.toUpperCase()}` : null };
}

function safeLookup(reader: Reader<CityResponse>, address: string): CityResponse | null {
  try {
    return reader.get(address);
  } catch {
    return null;
  }
}

export function isBlocked(place: Place, rules: GeoRules): boolean {
  return Boolean((place.country && rules.blocked.has(place.country)) || (place.region && rules.blocked.has(place.region)));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The 403 page: the spec's explanation, with the country code in a data attribute the app's modal reads. */
export function accessDeniedHtml(siteName: string, place: Place): string {
  const country = place.country ? escapeHtml(place.country) : null;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Access Denied | ${escapeHtml(siteName)}</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0d0c12;color:#f4f2f8;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;padding:24px}
main{max-width:560px;background:#1b1824;border:1px solid #2e2a3b;border-radius:18px;padding:32px}h1{margin-top:0;color:#ff8cc3}p{line-height:1.6;color:#e3dfec}</style></head>
<body><main id="access-denied"${country ? ` data-country="${country}"` : ''}>
<h1>Access Denied</h1>
<p>Access to ${escapeHtml(siteName)} is restricted in your region.${country ? ` Your IP address appears to originate from ${country}.` : ''}</p>
<p>This restriction is due to regulation in your region and the cost of the age verification services it requires, which small sites like ours cannot currently afford. We are looking for alternatives so that we can welcome you again.</p>
</main></body></html>`;
}

/**
 * Shared caches must keep one copy per place: every response, whoever writes
 * it (Next, the page cache, this file), names the region headers in Vary.
 */
function varyOnRegion(res: ServerResponse, rules: GeoRules) {
  const regionHeaders = `${rules.countryHeader}, ${rules.regionHeader}`;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const earlier = res.getHeader('vary');
    if (
      !String(earlier ?? '')
        .toLowerCase()
        .includes(rules.countryHeader)
    )
      res.setHeader('vary', [earlier, regionHeaders].filter(Boolean).join(', '));
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}

/**
 * Paths called by machines, not visitors: the payment processor's postbacks
 * (from its own servers, wherever they are, authenticated by signature) and
 * health and readiness checks. Blocking the processor's country would silently refuse
 * every payment.
 */
const MACHINE_PATHS = ['/api/payments/', '/api/health', '/api/ready'];

export function isMachinePath(url: string | undefined): boolean {
  const pathname = (url ?? '/').split('?')[0]!;
  return MACHINE_PATHS.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}

/** A blocked request's answer (403 and a page without scripts), or null when the request may go on. */
export function blockedAnswer(
  req: NodeRequestLike & { url?: string; method?: string },
  rules: GeoRules,
  siteName: string,
): { status: 403; headers: Record<string, string>; body: string } | null {
  if (rules.blocked.size === 0 || isMachinePath(req.url)) return null;
  const place = locate(req, rules);
  if (!isBlocked(place, rules)) return null;
  const body = accessDeniedHtml(siteName, place);
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    // A page without scripts: nothing on it may run or load (decision 008).
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  };
  return { status: 403, headers, body: req.method === 'HEAD' ? '' : body };
}

/** Answers a blocked request with 403; returns false when the request may go on. */
export function handleGeo(req: IncomingMessage, res: ServerResponse, rules: GeoRules, siteName: string): boolean {
  if (rules.blocked.size === 0 || isMachinePath(req.url)) return false;
  varyOnRegion(res, rules);
  const blocked = blockedAnswer(req, rules, siteName);
  if (!blocked) return false;
  res.writeHead(blocked.status, blocked.headers);
  res.end(blocked.body || undefined);
  return true;
}
