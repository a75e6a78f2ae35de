import 'server-only';

import { z } from 'zod';

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
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, message, extra);
export const unauthorized = (message = 'Authentication required') => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const conflict = (message: string) => new ApiError(409, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait a moment and try again.') =>
  new ApiError(429, message, { retryAfter: retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });

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
