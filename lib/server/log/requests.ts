/**
 * One log line and the HTTP metrics per request, written by the production
 * server (scripts/serve.ts) when the answer has been sent, and the request id
 * every record of that request carries.
 *
 * Deliberately plain Node (no server-only marker, no app imports): scripts/serve.ts imports it.
 */
import { randomUUID } from 'node:crypto';
import { ServerResponse, type IncomingMessage } from 'node:http';

import type { Logger } from 'pino';

import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/connection-loss';
import { metrics } from '../metrics';

import { getLogger, REDACT_PATHS, REDACTED, runWithLogContext, scrubPath, type LogContext } from './index';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy may hand us as a request id: short, and nothing that could forge a log line. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** A trusted proxy's X-Request-Id (TRUST_PROXY > 0) when it is valid, else a new one. */
export function requestIdFor(req: Pick<IncomingMessage, 'headers'>, trustProxy: number): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  if (trustProxy > 0 && typeof sent === 'string' && VALID_REQUEST_ID.test(sent)) return sent;
  return randomUUID();
}

/** The request's context plus what the server learns while answering it. */
export interface RequestContext extends LogContext {
  requestId: string;
  /** How the page cache answered; unset when the cache did not answer. */
  cache?: 'HIT' | 'STALE' | 'MISS' | 'PASS';
}

export interface ObserveOptions {
  trustProxy: number;
  /** The metric label of a path (lib/front/route-label.ts). */
  routeOf: (url: string) => string;
  /** The server's own requests (page-cache fills): logged at debug, not counted. */
  isInternal?: (req: IncomingMessage) => boolean;
}

/** What a finished request's line and metrics are made of. */
interface Finished {
  method: string | undefined;
  url: string | undefined;
  status: number;
  aborted: boolean;
  /** performance.now() when the request came in. */
  started: number;
  internal: boolean;
}

/** The fields of a request's line, as written: top-level values only, none an object (see requestLogger). */
export interface RequestLine {
  /** A UUID, or a trusted proxy's id that VALID_REQUEST_ID allowed. */
  requestId: string;
  /** As Node's parser read it: it takes only known method names. */
  method: string;
  /** Scrubbed (scrubPath). */
  path: string;
  route: string;
  status: number;
  durationMs: number;
  memberId?: string;
  cache?: RequestContext['cache'];
  aborted?: true;
}

/**
 * REDACT_PATHS that name a top-level field (`token`, `email`…). The others (`*.token`, `headers.cookie`…)
 * name fields inside an object, which a request line never has; given to pino they would make it run its
 * wildcard redactor on every field of every line: ten times the cost of the line itself (decision 045).
 */
export const TOP_LEVEL_REDACT_PATHS = REDACT_PATHS.filter((path) => /^[A-Za-z_$][\w$]*$/.test(path));

let requestLog: Logger | undefined;

/**
 * The request line's logger, made once per process: a child of the process's logger, so the same
 * destination, level, `pid` and message scrubbing, with pino's redaction of the top-level paths.
 */
export function requestLogger(): Logger {
  return (requestLog ??= getLogger().child({}, { redact: { paths: TOP_LEVEL_REDACT_PATHS, censor: REDACTED } }));
}

/** Writes the request's line and counts it. */
function record(
  context: RequestContext,
  options: ObserveOptions,
  { method = 'GET', url, status, aborted, started, internal }: Finished,
): void {
  const ms = performance.now() - started;
  const route = options.routeOf(url ?? '/');
  if (!internal) {
    const { httpRequests, httpDuration } = metrics();
    httpRequests.inc({ method, route, status: String(status) });
    httpDuration.observe({ method, route }, ms / 1000);
  }
  const level = internal ? 'debug' : status >= 500 ? 'error' : 'info';
  const log = requestLogger();
  // Page-cache fills are at debug, off in production: their line is not even put together.
  if (!log.isLevelEnabled(level)) return;
  const line: RequestLine = {
    requestId: context.requestId,
    method,
    path: scrubPath(url),
    route,
    status,
    durationMs: Math.round(ms * 10) / 10,
    // pino leaves out fields that are undefined.
    memberId: context.memberId,
    cache: context.cache,
    aborted: aborted || undefined,
  };
  log[level](line, internal ? 'page cache fill' : 'request');
}

/** What observeRequest keeps on a response until its line is written. */
interface Observed {
  req: IncomingMessage;
  context: RequestContext;
  options: ObserveOptions;
  started: number;
  internal: boolean;
}

/**
 * The production server's responses (`createServer({ ServerResponse: ObservedResponse })`): what
 * observeRequest needs lives in a field and a method of the class, not in properties and closures
 * added to each response. Those gave every response a shape of its own, slowing every Node
 * function that reads one, made two functions per request (which tsx names, each with an
 * Object.defineProperty), and cost a page-cache hit about a third of its time (decision 040).
 */
export class ObservedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  observed: Observed | undefined = undefined;

  /**
   * Puts the request id on the answer as its head is written, whoever writes it (Node's end() and
   * write() write an implicit head through writeHead too). Setting it up front would cost every answer
   * written as writeHead(status, headerList) Node's fast path: with any header already set, Node merges
   * the list into them one header at a time (the page cache's hits, decision 039). A flat list gets the
   * id appended to a copy; any other form has it set as a header. A 500 of a request marked by
   * markRequestDatabaseUnavailable() (lib/db/connection-loss.ts) goes out as 503 with Retry-After, and the
   * 200 of a page that rendered its own 404 or 410 (setPageStatus, lib/server/page-status.ts) with that status.
   */
  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const pageStatus = this.observed?.context.pageStatus;
    if (statusCode === 200 && pageStatus !== undefined && !this.headersSent) statusCode = pageStatus;
    // A page whose render lost the database connection: an outage of a moment, to be tried again, not a server bug.
    if (statusCode === 500 && this.observed?.context.databaseUnavailable && !this.headersSent) {
      statusCode = 503;
      this.setHeader('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    const requestId = this.observed?.context.requestId;
    if (requestId !== undefined) {
      const last = rest.at(-1);
      if (Array.isArray(last) && !Array.isArray(last[0]))
        rest[rest.length - 1] = [...(last as string[]), REQUEST_ID_HEADER, requestId];
      else if (!this.headersSent) this.setHeader(REQUEST_ID_HEADER, requestId);
    }
    return (super.writeHead as (statusCode: number, ...rest: unknown[]) => this)(statusCode, ...rest);
  }
}

/**
 * A response's 'close': Node emits it once, after the answer was sent or when the client went away
 * first, so it alone writes the line. One function for all responses.
 */
function onResponseClose(this: ObservedResponse): void {
  const observed = this.observed;
  // Cleared once written: never a second line, should 'close' come again.
  if (!observed) return;
  this.observed = undefined;
  const { req, context, options, started, internal } = observed;
  record(context, options, {
    method: req.method,
    url: req.url,
    status: this.statusCode,
    aborted: !this.writableFinished,
    started,
    internal,
  });
}

/**
 * Gives the request its id (sent back as X-Request-Id, and passed on to the
 * app in the request's own header), runs `next` inside its log context, and
 * when the answer is finished (or the client went away) writes the request's
 * line and counts it.
 */
export function observeRequest(
  req: IncomingMessage,
  res: ObservedResponse,
  options: ObserveOptions,
  next: (context: RequestContext) => void,
): void {
  const started = performance.now();
  const context: RequestContext = { requestId: requestIdFor(req, options.trustProxy) };
  req.headers[REQUEST_ID_HEADER] = context.requestId;
  res.observed = { req, context, options, started, internal: options.isInternal?.(req) ?? false };
  res.on('close', onResponseClose);
  runWithLogContext(context, () => next(context));
}

/**
 * The same for a request the upload receiver process holds
 * (lib/front/upload-receiver): its id goes in its headers (the caller sends it
 * back with the answer), and its line is written when the receiver reports
 * the connection `finished`.
 */
export function observeReceivedRequest(
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  finished: Promise<{ status: number; aborted: boolean }>,
  options: ObserveOptions,
  next: (context: RequestContext) => void,
): void {
  const started = performance.now();
  const context: RequestContext = { requestId: requestIdFor(req, options.trustProxy) };
  req.headers[REQUEST_ID_HEADER] = context.requestId;
  void finished.then(({ status, aborted }) =>
    record(context, options, { method: req.method, url: req.url, status, aborted, started, internal: false }),
  );
  runWithLogContext(context, () => next(context));
}
