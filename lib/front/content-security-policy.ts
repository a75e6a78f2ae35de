/**
 * The site's Content-Security-Policy. Scripts run only from our own origin
 * or, inline, when the policy names them: by the request's nonce on pages
 * rendered per request (proxy.ts), by their SHA-256 hashes on pages the page
 * cache serves (lib/front/page-cache.ts). Never 'unsafe-inline', so markup that
 * slipped into a page (an event handler, a javascript: URL, a <script>) does
 * not run. See docs/decisions/008-content-security-policy.md.
 *
 * Plain Node (node:crypto only): the server entry and proxy.ts both use it.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PolicySettings {
  /** `next dev` needs eval (React's debugging) and its hot-reload websocket. */
  dev: boolean;
  /** NEXT_PUBLIC_API_BASE_URL, when the client calls the API on another origin. */
  apiBaseUrl?: string;
  /** The bucket's origin when media is answered with presigned URLs (MEDIA_OFFLOAD=redirect; lib/front/media-origin.ts). */
  mediaOrigin?: string;
}

/** A policy whose inline scripts are those `scriptSources` allow ('nonce-…' and 'sha256-…' sources). */
export function contentSecurityPolicy(scriptSources: readonly string[], settings: PolicySettings): string {
  const media = settings.mediaOrigin ? [settings.mediaOrigin] : [];
  return [
    "default-src 'self'",
    // No 'strict-dynamic': prerendered HTML loads Next's chunks with plain <script src>, which only 'self' allows.
    ['script-src', "'self'", ...scriptSources, ...(settings.dev ? ["'unsafe-eval'"] : [])].join(' '),
    // React and Next set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    ['img-src', "'self'", 'data:', 'blob:', ...media].join(' '),
    ['media-src', "'self'", 'blob:', ...media].join(' '),
    // hls.js runs its demuxer in a worker made from a blob: URL.
    "worker-src 'self' blob:",
    "font-src 'self'",
    [
      'connect-src',
      "'self'",
      ...(settings.apiBaseUrl ? [settings.apiBaseUrl] : []),
      ...media,
      ...(settings.dev ? ['ws:'] : []),
    ].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The CSP source that allows one inline script. Browsers hash the text the
 * HTML parser produced, which has every CR LF and lone CR turned into LF.
 */
export function scriptHashSource(scriptText: string): string {
  const parsed = scriptText.replace(/\r\n?/g, '\n');
  return `'sha256-${createHash('sha256').update(parsed, 'utf8').digest('base64')}'`;
}

/** 128 random bits, base64: what Next reads back from the request's policy (its nonce pattern is base64). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}
