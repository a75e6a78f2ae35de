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
 * process even without cross-process messaging, and at once when the service
 * that made it calls purgePublicPages() (lib/events.ts), which scripts/serve.ts
 * connects to purge(): in this process, and on PostgreSQL in every web
 * process (lib/server/cluster, decision 022).
 *
 * Every public page document is answered here, stored or not: on a miss the
 * visitor gets the fill's answer, and with a query string or the cache turned
 * off (TTL 0) the page is fetched for that one request. So every public page
 * carries a Content-Security-Policy that allows its inline scripts by hash
 * (lib/front/inline-scripts.ts), computed once when the page is fetched: Next
 * prerenders several of them at build time, where no per-request nonce exists,
 * and a nonce in stored HTML would be the same for every visitor.
 *
 * Deliberately plain Node (no Next or app imports but the plain-Node logger):
 * it runs in the server entry before Next is involved.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

import { logger, scrubPath } from '../server/log';

import { newNonce } from './content-security-policy';

const log = logger('page-cache');

// Async so compressing a large page at the highest levels runs off the event loop.
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export const FILL_HEADER = 'x-chrysalis-cache-fill';
export const STATUS_HEADER = 'x-chrysalis-cache';

/** Headers Next uses for client-side navigation and server actions: those requests are never cached. */
const BYPASS_HEADERS = [
  'rsc',
  'next-router-prefetch',
  'next-router-state-tree',
  'next-router-segment-prefetch',
  'next-action',
  'next-url',
  FILL_HEADER,
];

/** Response headers that describe the transfer, not the page; recomputed on every answer (x-request-id names the fill's own request). */
const TRANSFER_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'x-request-id',
]);
/** Headers a stored entry sets itself (its own freshness and validator) instead of Next's. */
const ENTRY_HEADERS = new Set(['etag', 'cache-control', 'vary']);
/** What a stored page varies on: Next's client-navigation headers (bypassed above) and the encoding. */
const ENTRY_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch, accept-encoding';

type Encoding = 'br' | 'gzip' | 'identity';
type StoredStatus = 'HIT' | 'STALE';

/** Next's answer to a fill, with the page's own Content-Security-Policy in place of any Next sent. */
export interface FetchedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export interface CachedPage {
  headers: [string, string][];
  /** The nonce Next was asked to write on its scripts; refreshes ask for the same one, so an unchanged page comes back byte for byte. */
  renderNonce: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /**
   * The complete header list of each answer (by cache status, then encoding), made once when stored: a
   * hit is then one writeHead(200, list), Node's fast path, instead of a score of setHeader calls that each
   * validate and copy their header again (decision 039).
   */
  heads: Record<StoredStatus, Record<Encoding, string[]>>;
  storedAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  /** How long an entry is fresh; 0 stores nothing (public pages are still answered here, with their policy). */
  ttlMs: number;
  /** Upper bound on stored bytes (all encodings); least recently used entries go first. */
  maxBytes: number;
  /** Which paths hold public, visitor-independent pages. */
  isPublicPath: (pathname: string) => boolean;
  /**
   * Fetches a page from Next (with FILL_HEADER set, so it bypasses this cache), asking it to write
   * `renderNonce` on its scripts (a request Content-Security-Policy naming it), which marks them as Next's.
   */
  fetchPage: (path: string, renderNonce: string) => Promise<Response>;
  /** The Content-Security-Policy of an HTML page, given its HTML, the nonce it was asked for, and its path (for logs). */
  policyFor: (html: string, renderNonce: string, path: string) => string;
  /** Told how each page document was answered (metrics and the request log): from memory (HIT, STALE), stored after (MISS) or fetched for this request only (PASS). */
  onAnswer?: (result: 'HIT' | 'STALE' | 'MISS' | 'PASS') => void;
  now?: () => number;
}

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly filling = new Map<string, Promise<FetchedPage | undefined>>();
  private bytes = 0;

  constructor(private readonly options: PageCacheOptions) {}

  /**
   * How a request is answered here: `store` for a page kept in the cache (its path is the key), else
   * fetched for this request only; undefined when the request must go to Next.
   */
  routeOf(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): { path: string; store: boolean } | undefined {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    if (BYPASS_HEADERS.some((name) => req.headers[name] !== undefined)) return undefined;
    const path = req.url ?? '';
    if (!path.startsWith('/')) return undefined;
    const queryAt = path.indexOf('?');
    if (!this.options.isPublicPath(queryAt < 0 ? path : path.slice(0, queryAt))) return undefined;
    // Query strings are visitor-chosen (and Next's _rsc marker): storing them would let anyone grow the cache.
    return { path, store: this.options.ttlMs > 0 && queryAt < 0 };
  }

  /** Answers every public page document (from memory, or fetched now); returns false when Next must answer. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const route = this.routeOf(req);
    if (!route) return false;
    const entry = route.store ? this.entries.get(route.path) : undefined;
    const age = entry ? this.now() - entry.storedAt : Infinity;
    // Older than twice the TTL (no traffic for a while) is too old to serve even once: a change is never shown later.
    if (!entry || age > 2 * this.options.ttlMs) {
      this.options.onAnswer?.(route.store ? 'MISS' : 'PASS');
      void this.answerFetched(req, res, route);
      return true;
    }
    // Refresh LRU position.
    this.entries.delete(route.path);
    this.entries.set(route.path, entry);
    const stale = age > this.options.ttlMs;
    if (stale) void this.fill(route.path);
    this.options.onAnswer?.(stale ? 'STALE' : 'HIT');
    this.send(req, res, entry, stale ? 'STALE' : 'HIT');
    return true;
  }

  /**
   * Drops entries (all, or those whose path starts with a prefix) so the next request refills them.
   * Refreshes already running for those paths are forgotten too: they may have rendered before the
   * change, so they answer the visitors already waiting on them but store nothing, and the next
   * request starts a fresh one (a purge from another process can land in the middle of a fill).
   */
  purge(prefix = '/'): void {
    for (const [key, entry] of this.entries) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        this.bytes -= entry.bytes;
      }
    }
    for (const key of this.filling.keys()) {
      if (key.startsWith(prefix)) this.filling.delete(key);
    }
  }

  /** Resolves when no refresh is running (tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.filling.size > 0) await Promise.all(this.filling.values());
  }

  get size(): number {
    return this.entries.size;
  }

  /** Fetches a fresh copy from Next and stores it; concurrent calls for one key share one request. Undefined when Next could not be asked. */
  fill(key: string): Promise<FetchedPage | undefined> {
    const running = this.filling.get(key);
    if (running) return running;
    // Still current when it lands unless a purge forgot it meanwhile (see purge()).
    const current = () => this.filling.get(key) === task;
    const task: Promise<FetchedPage | undefined> = this.fetchAndStore(key, current)
      .catch((error: unknown) => {
        log.error({ err: error, path: scrubPath(key) }, 'could not refresh a page');
        return undefined;
      })
      .finally(() => {
        if (current()) this.filling.delete(key);
      });
    this.filling.set(key, task);
    return task;
  }

  /** Asks Next for a page and puts its hash-based policy in. */
  private async fetchPage(path: string, renderNonce = newNonce()): Promise<FetchedPage & { renderNonce: string }> {
    const response = await this.options.fetchPage(path, renderNonce);
    const body = Buffer.from(await response.arrayBuffer());
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (!TRANSFER_HEADERS.has(name) && name !== 'content-security-policy') headers.push([name, value]);
    });
    if (/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
      headers.push(['content-security-policy', this.options.policyFor(body.toString('utf8'), renderNonce, path)]);
    }
    return { status: response.status, headers, body, renderNonce };
  }

  private async fetchAndStore(key: string, current: () => boolean): Promise<FetchedPage> {
    const previous = this.entries.get(key);
    const page = await this.fetchPage(key, previous?.renderNonce);
    if (!current()) return page;
    // Only plain 200s without cookies. Public pages (isPublicPath) never read the
    // visitor's cookies or headers, so prerendered and per-request ones alike are the same for everyone.
    if (page.status !== 200 || page.headers.some(([name]) => name === 'set-cookie')) {
      this.remove(key);
      return page;
    }
    const { body } = page;
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    // Most refreshes bring the page unchanged: its stored encodings still fit, and compressing at the highest
    // levels again (on the same cores that answer visitors) would be the cache's largest cost under traffic.
    const unchanged = previous !== undefined && previous.etag === etag && previous === this.entries.get(key);
    const [gzipped, brotli] = unchanged
      ? [previous.gzip, previous.br]
      : await Promise.all([
          gzipAsync(body, { level: 9 }),
          brotliAsync(body, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        ]);
    if (!current()) return page;
    const stored = {
      headers: page.headers.filter(([name]) => !ENTRY_HEADERS.has(name)),
      identity: body,
      gzip: gzipped,
      br: brotli,
      etag,
    };
    const headsOf = (status: StoredStatus) => ({
      br: this.headList(stored, status, ENTRY_VARY, 'br'),
      gzip: this.headList(stored, status, ENTRY_VARY, 'gzip'),
      identity: this.headList(stored, status, ENTRY_VARY, 'identity'),
    });
    const entry: CachedPage = {
      ...stored,
      renderNonce: page.renderNonce,
      heads: { HIT: headsOf('HIT'), STALE: headsOf('STALE') },
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
    return page;
  }

  /** A miss, or a page not to be stored: the visitor waits for Next's answer, sent with its hash-based policy. */
  private async answerFetched(req: IncomingMessage, res: ServerResponse, route: { path: string; store: boolean }) {
    const page = route.store
      ? await this.fill(route.path)
      : await this.fetchPage(route.path).catch((error: unknown) => {
          log.error({ err: error, path: scrubPath(route.path) }, 'could not fetch a page');
          return undefined;
        });
    if (!page) {
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('The page could not be loaded. Please try again.');
      return;
    }
    for (const [name, value] of page.headers) res.appendHeader(name, value);
    if (route.store) {
      res.setHeader(STATUS_HEADER, 'MISS');
      // A page the cache keeps is the same for everyone: a hit's header, not Next's no-store, which also bars the back/forward cache.
      if (page.status === 200 && !page.headers.some(([name]) => name === 'set-cookie'))
        res.setHeader('cache-control', this.publicCacheControl());
    }
    // Compressed quickly for this one answer; the stored entry gets the slow, small encodings.
    const gzipped = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && page.body.length > 0;
    const body = gzipped ? await gzipAsync(page.body, { level: 6 }) : page.body;
    if (gzipped) res.setHeader('content-encoding', 'gzip');
    const vary = String(res.getHeader('vary') ?? '');
    // Next's own Vary may name the encoding already (as Accept-Encoding).
    if (!/\baccept-encoding\b/i.test(vary)) res.setHeader('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    res.setHeader('content-length', body.length);
    res.statusCode = page.status;
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private remove(key: string) {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries.delete(key);
      this.bytes -= existing.bytes;
    }
  }

  private send(req: IncomingMessage, res: ServerResponse, entry: CachedPage, status: StoredStatus) {
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding: Encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
    // A Vary set before the cache ran (the region headers, lib/front/geo.ts) is kept: the list is made again with it.
    const earlier = res.getHeader('vary');
    const vary = earlier === undefined ? ENTRY_VARY : `${String(earlier)}, ${ENTRY_VARY}`;
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, this.headList(entry, status, vary));
      res.end();
      return;
    }
    res.writeHead(200, earlier === undefined ? entry.heads[status][encoding] : this.headList(entry, status, vary, encoding));
    res.end(req.method === 'HEAD' ? undefined : entry[encoding]);
  }

  /** A stored page's header list (flat, as writeHead takes it); without an encoding, a 304's (no body, so no length). */
  private headList(
    entry: Pick<CachedPage, 'headers' | Encoding | 'etag'>,
    status: StoredStatus,
    vary: string,
    encoding?: Encoding,
  ): string[] {
    const list = entry.headers.flat();
    list.push('cache-control', this.publicCacheControl(), 'vary', vary, 'etag', entry.etag, STATUS_HEADER, status);
    if (encoding && encoding !== 'identity') list.push('content-encoding', encoding);
    if (encoding) list.push('content-length', String(entry[encoding].length));
    return list;
  }

  /** Browsers revalidate (cheap 304s); shared caches may keep it as long as we do. */
  private publicCacheControl() {
    const ttlSeconds = Math.max(1, Math.round(this.options.ttlMs / 1000));
    return `public, max-age=0, s-maxage=${ttlSeconds}, stale-while-revalidate=60`;
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }
}
