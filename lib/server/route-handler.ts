import 'server-only';

import { NextResponse, type NextRequest } from 'next/server';
import type { z } from 'zod';

import { requireAdmin, requireMember, type Actor } from './auth/actor';
import { distrustCrossSiteCookie, resolveActor } from './auth/session';
import { ApiError, databaseUnavailable, errorHeaders, parseInput } from './errors';
import { isDatabaseConnectionLoss, reportDatabaseOutage } from '@/lib/db/connection-loss';
import { currentRequestId, logger } from '@/lib/server/log';

const log = logger('api');

/** JSON response with no-store: API answers are per user and must not be cached. */
export function json(body: unknown, init: ResponseInit = {}): NextResponse {
  const headers = new Headers(init.headers);
  headers.set('Cache-Control', 'no-store');
  return NextResponse.json(body, { ...init, headers });
}

/** The largest JSON body any endpoint takes: a comment or a description is a few KiB. */
export const MAX_JSON_BYTES = 64 * 1024;
/** The largest form any endpoint takes: registration's profile photo (5 MB) plus its text fields. */
export const MAX_FORM_BYTES = 6 * 1024 * 1024;

type AnySchema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface Form {
  fields: Record<string, string>;
  files: Record<string, File>;
}

export interface RouteOptions<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined> {
  /** Refuse early (before reading the body) unless the caller is a member / an admin. Services check again: this only orders errors. */
  auth?: 'member' | 'admin';
  /** The dynamic segments of the path. */
  params?: P;
  /** The query string, as an object of its first values. */
  query?: Q;
  /** A JSON body (at most MAX_JSON_BYTES, read as a stream and cut there). */
  body?: B;
  /** With `body`: a missing body is parsed as {} (DELETE with an optional note). */
  optionalBody?: boolean;
  /** Read a multipart or urlencoded form (at most MAX_FORM_BYTES) instead of JSON. */
  form?: {
    tooLargeMessage: string;
    /** Another cap than MAX_FORM_BYTES: larger for forms that carry documents, smaller for a captions file. */ maxBytes?: number;
  };
  /** Status of a successful answer that is not a Response (default 200). */
  status?: number;
}

export interface RouteContext<P, Q, B> {
  request: NextRequest;
  actor: Actor;
  params: P;
  query: Q;
  body: B;
  form: Form;
}

type NextContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Every API route handler is one declaration: the wrapper resolves the caller
 * from the database (a session cookie on a write from another site makes no
 * member: CSRF), parses path, query and
 * body with the given schemas (bodies streamed and cut at their cap, chunked
 * or not), runs the handler, and answers: a Response as is, anything else as
 * JSON. ApiErrors become `{ message, ...extra }` with their status, a lost
 * database connection a 503 with Retry-After; anything unexpected a logged
 * 500 that reveals nothing.
 */
export function handler<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(
  options: RouteOptions<P, Q, B>,
  run: (context: RouteContext<Infer<P>, Infer<Q>, Infer<B>>) => Promise<unknown>,
): (request: NextRequest, context: NextContext) => Promise<Response> {
  return async (request, nextContext) => {
    try {
      const actor = distrustCrossSiteCookie(request, await resolveActor(request));
      if (options.auth === 'admin') requireAdmin(actor);
      else if (options.auth === 'member') requireMember(actor);
      const params = (options.params ? parseInput(options.params, (await nextContext?.params) ?? {}) : undefined) as Infer<P>;
      const query = (options.query ? parseInput(options.query, queryOf(request.url)) : undefined) as Infer<Q>;
      const body = (
        options.body ? parseInput(options.body, await readJsonBody(request, options.optionalBody)) : undefined
      ) as Infer<B>;
      const form = options.form
        ? await readForm(request, options.form.tooLargeMessage, options.form.maxBytes)
        : { fields: {}, files: {} };
      const result = await run({ request, actor, params, query, body, form });
      return result instanceof Response ? result : json(result, { status: options.status ?? 200 });
    } catch (error) {
      return errorResponse(request, error);
    }
  };
}

/** The answer for an error thrown anywhere below a handler: a lost database connection is a 503 with Retry-After, never a 500. */
export function errorResponse(request: Request, error: unknown): Response {
  const path = new URL(request.url).pathname;
  if (isDatabaseConnectionLoss(error)) {
    reportDatabaseOutage(error, `${request.method} ${path}`);
    error = databaseUnavailable();
  }
  if (error instanceof ApiError) {
    const body = { message: error.message, ...error.extra };
    return json(body, { status: error.status, headers: errorHeaders(error.status, body, error.headers) });
  }
  log.error({ err: error, method: request.method, path }, `${request.method} ${path} failed`);
  return json(serverErrorBody(), { status: 500 });
}

/**
 * The body of a 500: a generic message and the request's id (also in its X-Request-Id header and
 * on every log line of the request), so a member's report leads the operator to the log.
 */
export function serverErrorBody(): { message: string; requestId?: string } {
  const requestId = currentRequestId();
  return { message: 'Something went wrong on our side. Please try again.', ...(requestId ? { requestId } : {}) };
}

/** A query string as an object of first values (repeated keys keep the first, as the pages do). */
export function queryOf(url: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URL(url).searchParams) if (!(key in query)) query[key] = value;
  return query;
}

/**
 * Reads a body as a stream, counting bytes, and stops with 413 at the cap:
 * the declared Content-Length is only an early refusal, never trusted, so a
 * chunked or lying body is cut as soon as it passes the cap.
 */
export async function readBodyBytes(request: Request, maxBytes: number, tooLargeMessage: string): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new ApiError(413, tooLargeMessage);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw new ApiError(400, 'The request body could not be read.');
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ApiError(413, tooLargeMessage);
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A JSON object body; malformed, non-object or oversized JSON is a 4xx, never a 500. */
async function readJsonBody(request: Request, optional = false): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (optional && !type && !request.headers.get('transfer-encoding') && (request.headers.get('content-length') ?? '0') === '0')
    return {};
  if (!/^application\/json\b/i.test(type.trim()))
    throw new ApiError(415, 'Send the request body as JSON (Content-Type: application/json).');
  const bytes = await readBodyBytes(request, MAX_JSON_BYTES, 'The request body is too large.');
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
}

/** A multipart (or urlencoded) form, read with a byte cap, into text fields and files; malformed bodies are a 400. */
async function readForm(request: Request, tooLargeMessage: string, maxBytes = MAX_FORM_BYTES): Promise<Form> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded')) {
    throw new ApiError(415, 'Send the form as multipart/form-data.');
  }
  const bytes = await readBodyBytes(request, maxBytes, tooLargeMessage);
  let form: FormData;
  try {
    form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError(400, 'The form data could not be read.');
  }
  const fields: Record<string, string> = {};
  const files: Record<string, File> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') fields[key] = value;
    else if (value.size > 0 || value.name) files[key] = value;
  }
  return { fields, files };
}
