/**
 * An in-process cache of finished public pages, in front of Next's handler.
 *
 * Next already prerenders public pages, but serving one still walks its
 * router, proxy matcher and incremental cache, and compresses the HTML again
 * for every request. For anonymous document requests to public pages this
 * cache answers with stored bytes (pre-compressed with Brotli and gzip) at
 * static-file speed. Entries are filled by asking Next for the page, so
 * content, headers and status are exactly Next's; they are served for
 * `ttlMs`, then served stale once while a fresh copy is fetched in the
 * background (stale-while-revalidate); an entry older than twice the TTL is
 * not served at all. So a change reaches visitors within 2 × TTL in every
 * process without cross-process messaging, and at once in this process when
 * the service that made it calls purgePublicPages() (lib/events.ts), which
 * scripts/serve.ts connects to purge().
 *
 * Deliberately plain Node (no Next or app imports): it runs in the server
 * entry before Next is involved.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

// Async so compressing a large page at the highest levels runs off the event loop.
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export const FILL_HEADER = 'x-chrysalis-cache-fill';
export const STATUS_HEADER = 'x-chrysalis-cache';

/** Headers Next uses for client-side navigation and server actions: those requests are never cached. */
const BYPASS_HEADERS = ['rsc', 'next-router-prefetch', 'next-router-state-tree', 'next-router-segment-prefetch', 'next-action', 'next-url', FILL_HEADER];

/** Response headers that describe the transfer, not the page; recomputed on every answer. */
const HOP_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'etag', 'cache-control', 'vary']);

export interface CachedPage {
  headers: [string, string][];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  storedAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  /** How long an entry is fresh; 0 disables the cache. */
  ttlMs: number;
  /** Upper bound on stored bytes (all encodings); least recently used entries go first. */
  maxBytes: number;
  /** Which paths hold public, visitor-independent pages. */
  isPublicPath: (pathname: string) => boolean;
  /** Fetches a page from Next (with FILL_HEADER set, so it bypasses this cache). */
  fetchPage: (path: string) => Promise<Response>;
  now?: () => number;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly filling = new Map<string, Promise<void>>();
  private bytes = 0;

  constructor(private readonly options: PageCacheOptions) {}

  /** The cache key of a cacheable request, or undefined when the request must go to Next. */
  keyOf(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): string | undefined {
    if (this.options.ttlMs <= 0) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (BYPASS_HEADERS.some((name) => req.headers[name] !== undefined)) return undefined;
    const url = req.url ?? '';
    // Query strings are visitor-chosen (and Next's _rsc marker): caching them would let anyone grow the cache.
    if (url.includes('?') || !url.startsWith('/')) return undefined;
    return this.options.isPublicPath(url) ? url : undefined;
  }

  /** Answers from the cache when it can; returns false when Next must answer. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const key = this.keyOf(req);
    if (!key) return false;
    const entry = this.entries.get(key);
    if (!entry) {
      void this.fill(key);
      return false;
    }
    // Refresh LRU position.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const age = this.now() - entry.storedAt;
    if (age > 2 * this.options.ttlMs) {
      // Too old to serve even once (no traffic for a while): Next answers and the entry refills, so a change
      // is never shown later than twice the TTL.
      void this.fill(key);
      return false;
    }
    const stale = age > this.options.ttlMs;
    if (stale) void this.fill(key);
    this.send(req, res, entry, stale ? 'STALE' : 'HIT');
    return true;
  }

  /** Drops entries (all, or those whose path starts with a prefix) so the next request refills them. */
  purge(prefix = '/'): void {
    for (const [key, entry] of this.entries) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        this.bytes -= entry.bytes;
      }
    }
  }

  /** Resolves when no refresh is running (tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.filling.size > 0) await Promise.all(this.filling.values());
  }

  get size(): number {
    return this.entries.size;
  }

  /** Fetches a fresh copy from Next; concurrent calls for one key share one request. */
  fill(key: string): Promise<void> {
    const running = this.filling.get(key);
    if (running) return running;
    const task = this.fetchAndStore(key)
      .catch((error: unknown) => console.error(`[page-cache] could not refresh ${key}:`, error))
      .finally(() => this.filling.delete(key));
    this.filling.set(key, task);
    return task;
  }

  private async fetchAndStore(key: string): Promise<void> {
    const response = await this.options.fetchPage(key);
    const body = Buffer.from(await response.arrayBuffer());
    // Only plain 200s without cookies. Public pages (isPublicPath) never read the
    // visitor's cookies or headers, so prerendered and per-request ones alike are the same for everyone.
    if (response.status !== 200 || response.headers.has('set-cookie')) {
      this.remove(key);
      return;
    }
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers.push([name, value]);
    });
    const [gzipped, brotli] = await Promise.all([
      gzipAsync(body, { level: 9 }),
      brotliAsync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ]);
    const entry: CachedPage = {
      headers,
      identity: body,
      gzip: gzipped,
      br: brotli,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      storedAt: this.now(),
      bytes: 0,
    };
    entry.bytes = entry.identity.length + entry.gzip.length + entry.br.length;
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.bytes;
    }
  }

  private remove(key: string) {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries.delete(key);
      this.bytes -= existing.bytes;
    }
  }

  private send(req: IncomingMessage, res: ServerResponse, entry: CachedPage, status: 'HIT' | 'STALE') {
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    const ttlSeconds = Math.max(1, Math.round(this.options.ttlMs / 1000));
    // Browsers revalidate (cheap 304s); shared caches may keep it as long as we do.
    res.setHeader('cache-control', `public, max-age=0, s-maxage=${ttlSeconds}, stale-while-revalidate=60`);
    const earlier = res.getHeader('vary'); // e.g. the region headers, set before the cache runs
    res.setHeader('vary', [earlier, 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, accept-encoding'].filter(Boolean).join(', '));
    res.setHeader('etag', entry.etag);
    res.setHeader(STATUS_HEADER, status);
    if (req.headers['if-none-match'] === entry.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepted)
      ? (['br', entry.br] as const)
      : /\bgzip\b/.test(accepted)
        ? (['gzip', entry.gzip] as const)
        : ([undefined, entry.identity] as const);
    if (encoding) res.setHeader('content-encoding', encoding);
    res.setHeader('content-length', body.length);
    res.statusCode = 200;
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }
}
