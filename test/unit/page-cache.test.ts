import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { POLICIES } from '@/components/policies';
import { onAppEvent, purgePublicPages } from '@/lib/events';
import { scriptHashSource } from '@/lib/front/content-security-policy';
import { FILL_HEADER, PageCache } from '@/lib/front/page-cache';
import { hashPolicy } from '@/lib/front/page-policy';
import { isPublicPagePath, POLICY_SLUGS } from '@/lib/site';

/**
 * A real HTTP server with the cache in front of a small upstream standing in
 * for Next: it answers like Next's prerender cache (x-nextjs-cache) and
 * counts how often it is asked.
 */
function startServer(options: { ttlMs?: number; maxBytes?: number; now?: () => number; varyBefore?: string } = {}) {
  // `gate`: when set, answers wait for it (a render still on its way), with the version current when they were asked.
  const upstream: {
    calls: number;
    version: number;
    status: number;
    fromCache: boolean;
    setCookie: boolean;
    hsts: boolean;
    gate?: Promise<void>;
  } = { calls: 0, version: 1, status: 200, fromCache: true, setCookie: false, hsts: false };
  const unknownScripts: string[] = [];
  let port = 0;
  const cache = new PageCache({
    ttlMs: options.ttlMs ?? 60_000,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    isPublicPath: (p) => p === '/' || p.startsWith('/public'),
    fetchPage: (path, renderNonce) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        headers: { [FILL_HEADER]: '1', 'content-security-policy': `script-src 'nonce-${renderNonce}'` },
      }),
    policyFor: (html, renderNonce) => hashPolicy(html, renderNonce, { dev: false }, (scripts) => unknownScripts.push(...scripts)),
    now: options.now,
  });
  const next = (req: IncomingMessage, res: ServerResponse) => {
    upstream.calls += 1;
    const { version, gate } = upstream;
    if (gate) void gate.then(() => answer(req, res, version));
    else answer(req, res, version);
  };
  const answer = (req: IncomingMessage, res: ServerResponse, version: number) => {
    res.statusCode = upstream.status;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    // Next sends no policy to the cache's fetches (proxy.ts); one sent anyway must not survive.
    res.setHeader('content-security-policy', "script-src 'unsafe-inline'");
    if (upstream.fromCache) res.setHeader('x-nextjs-cache', 'HIT');
    // What Next sends with a page rendered per request.
    res.setHeader('cache-control', 'private, no-cache, no-store, max-age=0, must-revalidate');
    if (upstream.setCookie) res.setHeader('set-cookie', 'a=b');
    if (upstream.hsts) res.setHeader('strict-transport-security', 'max-age=63072000; includeSubDomains');
    // Like Next, it writes the request's nonce on the scripts it renders (here React's Suspense runtime).
    const nonce = /'nonce-([^']+)'/.exec(String(req.headers['content-security-policy']))?.[1];
    const runtime = nonce ? `<script nonce="${nonce}">${REACT_RUNTIME}</script>` : '';
    res.end(`<html>${req.url} v${version} ${'padding '.repeat(200)}<script>${pagePayload(version)}</script>${runtime}</html>`);
  };
  const server: Server = createServer((req, res) => {
    // As lib/front/geo.ts does with region rules, before the cache runs.
    if (options.varyBefore) res.setHeader('vary', options.varyBefore);
    if (!cache.handle(req, res)) next(req, res);
  });
  return new Promise<{
    url: string;
    cache: PageCache;
    upstream: typeof upstream;
    unknownScripts: string[];
    close: () => Promise<void>;
  }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        cache,
        upstream,
        unknownScripts,
        close: async () => {
          await cache.idle();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

/** An inline script as Next writes it (an RSC payload push), different for each version of the page. */
const pagePayload = (version: number) => `self.__next_f.push([1,"v${version}"])`;

const REACT_RUNTIME = 'requestAnimationFrame(function(){$RT=performance.now()});';

/** The script-src a page of that version must be served with: its payload by shape, the runtime by the fill's nonce. */
const scriptSrcOf = (version: number) =>
  `script-src 'self' ${scriptHashSource(pagePayload(version))} ${scriptHashSource(REACT_RUNTIME)};`;

/** Raw request without fetch's automatic decompression. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
    const outgoing = request(url, { method, headers }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function settle(cache: PageCache, key: string) {
  await cache.fill(key); // joins the in-flight fill started by the miss
}

describe('public page cache', () => {
  it('serves a public page from memory after the first request, with Next’s headers and bytes', async () => {
    const server = await startServer();
    try {
      const first = await get(`${server.url}/`);
      expect(first.headers['x-chrysalis-cache']).toBe('MISS');
      // The page it stores is the same for everyone, first visitor included: no no-store, which bars the back/forward cache.
      expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=60');
      expect(server.upstream.calls).toBe(1); // the visitor got the fill's answer: one render, not two
      const callsAfterFill = server.upstream.calls;

      const second = await get(`${server.url}/`);
      expect(second.status).toBe(200);
      expect(second.headers['x-chrysalis-cache']).toBe('HIT');
      expect(second.headers['content-security-policy']).toContain(scriptSrcOf(1));
      expect(
        String(second.headers['content-security-policy'])
          .split(';')
          .find((d) => d.includes('script-src')),
      ).not.toContain('unsafe-inline');
      expect(second.body.toString()).toBe(first.body.toString());
      expect(server.upstream.calls).toBe(callsAfterFill);

      const br = await get(`${server.url}/`, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).toString()).toBe(first.body.toString());
      const gz = await get(`${server.url}/`, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(first.body.toString());
      expect(gz.headers.vary).toContain('accept-encoding');

      const head = await get(`${server.url}/`, {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body).toHaveLength(0);

      const revalidated = await get(`${server.url}/`, { 'if-none-match': String(second.headers.etag) });
      expect(revalidated.status).toBe(304);
    } finally {
      await server.close();
    }
  });

  it('keeps a Vary set before it ran on hits and 304s, with a length that fits each encoding', async () => {
    const server = await startServer({ varyBefore: 'x-country-code' });
    try {
      await get(`${server.url}/`);
      await settle(server.cache, '/');
      for (const encoding of ['br', 'gzip', 'identity']) {
        const hit = await get(`${server.url}/`, { 'accept-encoding': encoding });
        expect(hit.headers['x-chrysalis-cache']).toBe('HIT');
        expect(hit.headers.vary).toBe(
          'x-country-code, rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, accept-encoding',
        );
        expect(Number(hit.headers['content-length'])).toBe(hit.body.length);
        expect(hit.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
        const revalidated = await get(`${server.url}/`, {
          'accept-encoding': encoding,
          'if-none-match': String(hit.headers.etag),
        });
        expect(revalidated.status).toBe(304);
        expect(revalidated.headers.vary).toBe(hit.headers.vary);
        expect(revalidated.headers['content-type']).toBe('text/html; charset=utf-8');
      }
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a page that is not public', '/account', {}],
    ['a query string', '/?q=1', {}],
    ['a client navigation (RSC)', '/', { rsc: '1' }],
    ['a router prefetch', '/', { 'next-router-prefetch': '1' }],
  ])('never caches %s', async (_label, path, headers) => {
    const server = await startServer();
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await get(`${server.url}${path}`, headers as Record<string, string>);
        expect(response.headers['x-chrysalis-cache']).toBeUndefined();
      }
      expect(server.cache.size).toBe(0);
      expect(server.upstream.calls).toBe(3);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['an error status', { status: 500 }],
    ['a response that sets a cookie', { setCookie: true }],
  ])('does not store %s', async (_label, change) => {
    const server = await startServer();
    try {
      Object.assign(server.upstream, change);
      await get(`${server.url}/public`);
      expect(server.cache.size).toBe(0);
      const again = await get(`${server.url}/public`);
      expect(again.headers['x-chrysalis-cache']).toBe('MISS');
      expect(again.headers['cache-control']).toContain('no-store');
      expect(again.status).toBe(server.upstream.status);
      expect(again.headers['content-security-policy']).toContain(scriptSrcOf(1));
    } finally {
      await server.close();
    }
  });

  it('serves a stale copy once after the TTL while it fetches the new version', async () => {
    let now = 0;
    const server = await startServer({ ttlMs: 5_000, now: () => now });
    try {
      await get(`${server.url}/`);
      server.upstream.version = 2;
      expect((await get(`${server.url}/`)).body.toString()).toContain('v1');
      now = 6_000;
      const stale = await get(`${server.url}/`);
      expect(stale.headers['x-chrysalis-cache']).toBe('STALE');
      expect(stale.body.toString()).toContain('v1');
      expect(stale.headers['content-security-policy']).toContain(scriptSrcOf(1)); // each copy carries its own scripts' hashes
      await settle(server.cache, '/');
      const fresh = await get(`${server.url}/`);
      expect(fresh.headers['x-chrysalis-cache']).toBe('HIT');
      expect(fresh.body.toString()).toContain('v2');
      expect(fresh.headers['content-security-policy']).toContain(scriptSrcOf(2));
    } finally {
      await server.close();
    }
  });

  it('keeps the compressed copies and the ETag when a refresh brings the same page back, and compresses a changed one anew', async () => {
    let now = 0;
    const server = await startServer({ ttlMs: 5_000, now: () => now });
    // The stored entry, to see whether a refresh compressed again (the test's only look inside).
    const stored = () => server.cache['entries'].get('/')!;
    try {
      await get(`${server.url}/`);
      const first = await get(`${server.url}/`, { 'accept-encoding': 'br' });
      const { br } = stored();
      now = 6_000;
      await get(`${server.url}/`); // stale: refreshed behind, asking Next for the same nonce, so the same bytes come back
      await settle(server.cache, '/');
      expect(server.upstream.calls).toBe(2);
      const unchanged = await get(`${server.url}/`, { 'accept-encoding': 'br' });
      expect(unchanged.headers['x-chrysalis-cache']).toBe('HIT');
      expect(unchanged.headers.etag).toBe(first.headers.etag);
      expect(stored().br).toBe(br);
      expect(stored().storedAt).toBe(6_000);

      server.upstream.version = 2;
      now = 12_000;
      await get(`${server.url}/`);
      await settle(server.cache, '/');
      const changed = await get(`${server.url}/`, { 'accept-encoding': 'br' });
      expect(changed.headers.etag).not.toBe(first.headers.etag);
      expect(brotliDecompressSync(changed.body).toString()).toContain('v2');
      expect(changed.headers['content-security-policy']).toContain(scriptSrcOf(2));
    } finally {
      await server.close();
    }
  });

  it('does not serve an entry older than twice the TTL: Next answers and the entry refills', async () => {
    let now = 0;
    const server = await startServer({ ttlMs: 5_000, now: () => now });
    try {
      await get(`${server.url}/`);
      server.upstream.version = 2;
      now = 10_001;
      const answer = await get(`${server.url}/`);
      expect(answer.headers['x-chrysalis-cache']).toBe('MISS');
      expect(answer.body.toString()).toContain('v2');
      expect(answer.headers['content-security-policy']).toContain(scriptSrcOf(2));
      expect((await get(`${server.url}/`)).headers['x-chrysalis-cache']).toBe('HIT');
    } finally {
      await server.close();
    }
  });

  it('stores pages Next rendered per request too (public pages never depend on the visitor)', async () => {
    const server = await startServer();
    try {
      server.upstream.fromCache = false;
      await get(`${server.url}/public`);
      expect((await get(`${server.url}/public`)).headers['x-chrysalis-cache']).toBe('HIT');
    } finally {
      await server.close();
    }
  });

  it('is purged from app code through purgePublicPages once connected to the event (as scripts/serve.ts does)', async () => {
    const server = await startServer();
    const disconnect = onAppEvent('public-content-changed', (prefix) => server.cache.purge(prefix));
    try {
      await get(`${server.url}/public`);
      expect(server.cache.size).toBe(1);
      purgePublicPages('/other');
      expect(server.cache.size).toBe(1);
      purgePublicPages();
      expect(server.cache.size).toBe(0);
    } finally {
      disconnect();
      await server.close();
    }
  });

  it('stores nothing from a refresh that was rendering when a purge came (a purge from another process lands at any moment)', async () => {
    const server = await startServer();
    try {
      let release!: () => void;
      server.upstream.gate = new Promise((resolve) => (release = resolve));
      const before = get(`${server.url}/public`);
      while (server.upstream.calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      // The change commits and its purge arrives while that render (of the old content) is on its way.
      server.upstream.version = 2;
      server.cache.purge();
      server.upstream.gate = undefined;
      // A visitor after the purge does not wait for the old render: a fresh one starts.
      const after = get(`${server.url}/public`);
      for (const deadline = Date.now() + 2_000; server.upstream.calls < 2 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 5));
      release();
      expect(server.upstream.calls).toBe(2);
      expect((await after).body.toString()).toContain('v2');
      // The visitor who asked before the purge gets what was rendered for them, but it is not kept.
      expect((await before).body.toString()).toContain('v1');
      await server.cache.idle();
      const next = await get(`${server.url}/public`);
      expect(next.headers['x-chrysalis-cache']).toBe('HIT');
      expect(next.body.toString()).toContain('v2');
      expect(server.upstream.calls).toBe(2);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['a public page with a query string', '/public?status=success', 60_000],
    ['a public page with the cache turned off', '/public', 0],
  ])('answers %s itself, fetched for that request, with its scripts allowed by hash', async (_label, path, ttlMs) => {
    const server = await startServer({ ttlMs });
    try {
      for (let i = 0; i < 2; i += 1) {
        const answer = await get(`${server.url}${path}`, { 'accept-encoding': 'gzip' });
        expect(answer.headers['x-chrysalis-cache']).toBeUndefined();
        expect(answer.headers['content-security-policy']).toContain(scriptSrcOf(1));
        expect(gunzipSync(answer.body).toString()).toContain(pagePayload(1));
      }
      expect(server.upstream.calls).toBe(2);
      expect(server.cache.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('keeps Next’s other security headers, HSTS included, on cached answers', async () => {
    const server = await startServer();
    try {
      server.upstream.hsts = true;
      await get(`${server.url}/`);
      const hit = await get(`${server.url}/`);
      expect(hit.headers['x-chrysalis-cache']).toBe('HIT');
      expect(hit.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
      expect(server.unknownScripts).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('keeps within its byte budget by evicting the least recently used page, and can be purged', async () => {
    const server = await startServer({ maxBytes: 4_500 });
    try {
      for (const path of ['/public/a', '/public/b', '/public/c']) {
        await get(`${server.url}${path}`);
      }
      expect(server.cache.size).toBeLessThan(3);
      expect((await get(`${server.url}/public/c`)).headers['x-chrysalis-cache']).toBe('HIT');
      expect((await get(`${server.url}/public/a`)).headers['x-chrysalis-cache']).toBe('MISS');
      server.cache.purge('/public');
      expect(server.cache.size).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('public page paths', () => {
  it('cover home, the VIP page, the three categories and every policy page', () => {
    expect([...POLICY_SLUGS].sort()).toEqual(Object.keys(POLICIES).sort());
    for (const path of [
      '/',
      '/subscribe',
      '/category/Sissy',
      '/category/Beta',
      '/category/Censor',
      '/tag/sissy%20maid',
      '/playlist/AbCdEf_12-3z',
      ...POLICY_SLUGS.map((s) => `/${s}`),
    ]) {
      expect(isPublicPagePath(path)).toBe(true);
    }
  });

  it('exclude member pages, search, the API and unknown paths', () => {
    for (const path of [
      '/search',
      '/upload',
      '/admin',
      '/api/health',
      '/category/Alpha',
      '/category/sissy',
      '/no-such-page',
      '/privacy-policy/extra',
      '/tag/a/b',
      '/tag/',
      '/playlists',
      '/playlist/short',
      '/playlist/AbCdEf_12-3z/x',
    ]) {
      expect(isPublicPagePath(path)).toBe(false);
    }
  });
});
