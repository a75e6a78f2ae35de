import 'server-only';

import { z } from 'zod';

import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '@/lib/db/connection-loss';

/**
 * The one error type services throw for anything a client can cause. Route
 * handlers turn it into `{ message, ...extra }` with its status; anything
 * else becomes a logged 500 with a generic message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 410 | 412 | 413 | 415 | 429 | 503 | 507,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    // Every 429 says when to come back (its Retry-After, set where errors are answered): only tooManyRequests makes one.
    if (status === 429 && !isRetrySeconds(extra.retryAfter))
      throw new TypeError('A 429 needs the seconds to wait: use tooManyRequests(seconds, message).');
  }
}

const isRetrySeconds = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;

/**
 * The headers of an error's answer: its own, and Retry-After whenever it
 * says when to come back (every 429; a 503 may). The one place both the
 * route wrapper (lib/server/route-handler.ts) and tus's answers (resumable.ts) take
 * them from, so no 429 goes out without one.
 */
export function errorHeaders(
  status: number,
  body: Record<string, unknown>,
  own: Record<string, string> = {},
): Record<string, string> {
  return isRetrySeconds(body.retryAfter) && (status === 429 || status === 503)
    ? { ...own, 'Retry-After': String(body.retryAfter) }
    : own;
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, message, extra);
export const unauthorized = (message = 'Authentication required') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const conflict = (message: string) => new ApiError(409, message);
/** A 429 with the whole seconds to wait (at least 1) in its body (`retryAfter`) and its Retry-After header. */
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait a moment and try again.') =>
  new ApiError(429, message, { retryAfter: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** A lost database connection (lib/db/connection-loss.ts): an outage the client waits out, never a 500. */
export const databaseUnavailable = () =>
  new ApiError(503, DATABASE_UNAVAILABLE_MESSAGE, { retryAfter: DATABASE_RETRY_AFTER_SECONDS });

export const BANNED_MESSAGE = 'Account is banned';
export const ADMIN_REQUIRED_MESSAGE = 'Forbidden: Admin access required';

/** Parses input with a schema; the first problem becomes a 400 with its message and field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    throw badRequest(issue.message, {
      ...(field ? { field } : {}),
      errors: result.error.issues.map((i) => ({ field: i.path.join('.') || undefined, message: i.message })),
    });
  }
  return result.data;
}
