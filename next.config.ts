import type { NextConfig } from 'next';

import { addCompileHints } from './lib/build/compile-hints';
import { parseEnv } from './lib/config/schema';

// Validate at build time too, so `next build` fails fast on a bad setting
// instead of baking a wrong SITE_URL into prerendered pages.
const env = parseEnv(process.env);
const siteIsHttps = (env.SITE_URL ?? '').startsWith('https://');

/**
 * Sent with everything Next answers, and stored with public pages by the page cache, so cached answers carry
 * them too. The Content-Security-Policy is not here: it differs per page (a nonce from proxy.ts, or the
 * hashes of a cached page's scripts; decision 008).
 */
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), interest-cohort=()' },
  ...(siteIsHttps ? [{ key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' }] : []),
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Types are checked by `npm run typecheck` (CI, `npm test`), with the test files' types; the production build
  // skips it, so it also runs in an install without dev dependencies (`npm ci --omit=dev`; decision 020).
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  compiler: {
    // V8 compiles the scripts every page starts with off the main thread (decision 034).
    runAfterProductionCompile: async ({ distDir }) => {
      addCompileHints(distDir);
    },
  },
  // Loaded from node_modules at run time: PGlite ships WebAssembly and data
  // files it finds next to itself, which bundling would break.
  // rate-limiter-flexible imports drizzle-orm dynamically, which bundling cannot follow.
  // prom-client: one copy for the app and scripts/serve.ts, whose metrics share a registry (lib/server/metrics).
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'proper-lockfile', 'rate-limiter-flexible', 'sharp', 'prom-client'],
  // RFC 9116's place for security.txt, answered by app/security.txt (which also serves the legacy /security.txt).
  // The sitemap index at the URL robots.txt names: app/sitemap.ts (generateSitemaps) holds the name /sitemap.xml
  // for its files (/sitemap/{id}.xml) without answering it, so the index route lives beside it (decision 056).
  async rewrites() {
    return [
      { source: '/.well-known/security.txt', destination: '/security.txt' },
      { source: '/sitemap.xml', destination: '/sitemap-index.xml' },
    ];
  },
  async headers() {
    // /embed/* is the one page other sites may frame; its route sets its own CSP (frame-ancestors *).
    return [
      { source: '/((?!embed/).*)', headers: securityHeaders },
      // The reset link's token is in this page's address: nothing loaded or linked from it may carry it on in a Referer.
      { source: '/reset-password', headers: [{ key: 'Referrer-Policy', value: 'no-referrer' }] },
    ];
  },
};

export default nextConfig;
