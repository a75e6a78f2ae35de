/**
 * One log line and the HTTP metrics per request, written by the production
 * server (scripts/serve.ts) when the answer has been sent, and the request id
 * every record of that request carries.
 *
 * Deliberately plain Node (no server-only marker, no app imports): scripts/serve.ts imports it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { metrics } from '../metrics';

import { requestLogger, runWithLogContext, scrubPath, type LogContext } from './index';

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
  /** How the page cache answered: HIT, STALE, MISS or PASS; unset when the cache did not answer. */
  cache?: string;
}

export interface ObserveOptions {
  trustProxy: number;
  /** The metric label of a path (lib/http/route-label.ts). */
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
  started: bigint;
  internal: boolean;
}

/** Writes the request's line and counts it. */
function record(context: RequestContext, options: ObserveOptions, { method = 'GET', url, status, aborted, started, internal }: Finished): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const route = options.routeOf(url ?? '/');
  if (!internal) {
    const { httpRequests, httpDuration } = metrics();
    httpRequests.inc({ method, route, status: String(status) });
    httpDuration.observe({ method, route }, seconds);
  }
  const line = {
    requestId: context.requestId,
    method,
    path: scrubPath(url),
    route,
    status,
    durationMs: Math.round(seconds * 10_000) / 10,
    ...(context.memberId ? { memberId: context.memberId } : {}),
    ...(context.cache ? { cache: context.cache } : {}),
    ...(aborted ? { aborted: true } : {}),
  };
  const log = requestLogger();
  if (internal) log.debug(line, 'page cache fill');
  else if (status >= 500) log.error(line, 'request');
  else log.info(line, 'request');
}

type WriteHead = (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;

/**
 * Puts the request id on the answer as its head is written, whoever writes it (Node's end() and write()
 * write an implicit head through writeHead too). Setting it up front would cost every answer written as
 * writeHead(status, headerList) Node's fast path: with any header already set, Node merges the list into
 * them one header at a time (the page cache's hits, decision 039). A flat list gets the id appended to a
 * copy; any other form has it set as a header, as before.
 */
function sendRequestIdWithHead(res: ServerResponse, requestId: string): void {
  const writeHead = res.writeHead as WriteHead;
  res.writeHead = function writeHeadWithRequestId(this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const last = rest.at(-1);
    if (Array.isArray(last) && !Array.isArray(last[0])) rest[rest.length - 1] = [...(last as string[]), REQUEST_ID_HEADER, requestId];
    else if (!this.headersSent) this.setHeader(REQUEST_ID_HEADER, requestId);
    return writeHead.call(this, statusCode, ...rest);
  } as ServerResponse['writeHead'];
}

/**
 * Gives the request its id (sent back as X-Request-Id, and passed on to the
 * app in the request's own header), runs `next` inside its log context, and
 * when the answer is finished (or the client went away) writes the request's
 * line and counts it.
 */
export function observeRequest(req: IncomingMessage, res: ServerResponse, options: ObserveOptions, next: (context: RequestContext) => void): void {
  const started = process.hrtime.bigint();
  const context: RequestContext = { requestId: requestIdFor(req, options.trustProxy) };
  req.headers[REQUEST_ID_HEADER] = context.requestId;
  sendRequestIdWithHead(res, context.requestId);
  const internal = options.isInternal?.(req) ?? false;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    record(context, options, { method: req.method, url: req.url, status: res.statusCode, aborted: !res.writableFinished, started, internal });
  };
  res.once('finish', finish);
  res.once('close', finish);
  runWithLogContext(context, () => next(context));
}

/**
 * The same for a request the upload receiver process holds
 * (lib/http/upload-receiver): its id goes in its headers (the caller sends it
 * back with the answer), and its line is written when the receiver reports
 * the connection `finished`.
 */
export function observeReceivedRequest(
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  finished: Promise<{ status: number; aborted: boolean }>,
  options: ObserveOptions,
  next: (context: RequestContext) => void,
): void {
  const started = process.hrtime.bigint();
  const context: RequestContext = { requestId: requestIdFor(req, options.trustProxy) };
  req.headers[REQUEST_ID_HEADER] = context.requestId;
  void finished.then(({ status, aborted }) => record(context, options, { method: req.method, url: req.url, status, aborted, started, internal: false }));
  runWithLogContext(context, () => next(context));
}
