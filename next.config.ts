import type { NextConfig } from 'next';

import { parseEnv } from './lib/config/schema';

// Validate at build time too, so `next build` fails fast on a bad setting
// instead of baking a wrong SITE_URL into prerendered pages.
const env = parseEnv(process.env);
const isDev = process.env.NODE_ENV !== 'production';
const siteIsHttps = (env.SITE_URL ?? '').startsWith('https://');

const contentSecurityPolicy = [
  "default-src 'self'",
  // Next's prerendered pages carry inline bootstrap scripts; nonces would force per-request rendering.
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  `connect-src 'self'${env.NEXT_PUBLIC_API_BASE_URL ? ` ${env.NEXT_PUBLIC_API_BASE_URL}` : ''}${isDev ? ' ws:' : ''}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), interest-cohort=()' },
  ...(siteIsHttps ? [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }] : []),
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Loaded from node_modules at run time: PGlite ships WebAssembly and data
  // files it finds next to itself, which bundling would break.
  // rate-limiter-flexible imports drizzle-orm dynamically, which bundling cannot follow.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'proper-lockfile', 'rate-limiter-flexible', 'sharp'],
  // RFC 9116's place for security.txt, answered by app/security.txt (which also serves the legacy /security.txt).
  async rewrites() {
    return [{ source: '/.well-known/security.txt', destination: '/security.txt' }];
  },
  async headers() {
    // /embed/* is the one page other sites may frame; its route sets its own CSP (frame-ancestors *).
    return [{ source: '/((?!embed/).*)', headers: securityHeaders }];
  },
};

export default nextConfig;
