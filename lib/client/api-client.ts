'use client';

/**
 * The spec's general HTTP client (sections 6–8), on fetch: it sends and
 * accepts JSON, includes cookies, times out after 180000 ms and carries
 * `Authorization: Bearer <token>` once a login or session restore sets it.
 * The upload client is in upload-request.ts, loaded by the upload page alone.
 * Pages load this module with the first island that calls the API (the
 * session provider only for a stored token or a member's action).
 *
 * Errors every caller must react to are reported to listeners
 * (client-events.ts; the session provider and the geo-block modal subscribe): a 401 anywhere but the
 * current-user path, a 403 'Account is banned' or 'Forbidden: Admin access
 * required', and a 403 with an HTML body (regional denial). The error still
 * propagates to the caller.
 */
import { emitClientEvent as emit } from './client-events';

export const GENERAL_TIMEOUT_MS = 180_000;
export const CURRENT_USER_PATH = '/api/auth/me';

export const API_BASE_URL = (process.env.NEXT_PUBLIC_API_BASE_URL ?? '').replace(/\/+$/, '');

export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly data: Record<string, unknown> = {},
    readonly code?: 'network' | 'timeout',
  ) {
    super(message);
    this.name = 'ApiClientError';
  }

  /**
   * The message the server wrote in its JSON answer, or null when it wrote
   * none: no answer at all (network error, timeout), or one that is not ours
   * (a proxy's 502 HTML page, an empty body). Forms then show their own
   * fallback text (spec section 8: 'Failed to login' and the rest).
   */
  get serverMessage(): string | null {
    const message = this.data.message;
    return typeof message === 'string' && message.trim() ? message : null;
  }
}

let authToken: string | null = null;
/** Sets or clears the default bearer header of both clients. */
export function setAuthToken(token: string | null): void {
  authToken = token;
}
export function getAuthToken(): string | null {
  return authToken;
}

/** Local development API addresses (localhost or a LAN address on port 5000) point at the real API base. */
const LOCAL_DEV_ORIGIN =
  /^https?:\/\/(localhost|127\.0\.0\.1|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}):5000(?=\/|$)/i;
export function rewriteLocalUrl(url: string, base: string = API_BASE_URL): string {
  return url.replace(LOCAL_DEV_ORIGIN, base);
}

export function apiUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return rewriteLocalUrl(path);
  return `${API_BASE_URL}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** Reads a two-letter country code out of a regional-denial HTML page. */
export function countryFromHtml(html: string): string | null {
  const tagged = /data-country="([A-Z]{2})"/.exec(html) ?? /\b(?:country|region)(?: code)?[:\s]+([A-Z]{2})\b/.exec(html);
  return tagged?.[1] ?? null;
}

const BAN_OR_ADMIN = new Set(['Account is banned', 'Forbidden: Admin access required']);

/** Reacts to the statuses the spec names, then returns the error to throw. */
export function classify(status: number, path: string, body: string, contentType: string): ApiClientError {
  let data: Record<string, unknown> = {};
  if (contentType.includes('application/json')) {
    try {
      data = JSON.parse(body) as Record<string, unknown>;
    } catch {
      data = {};
    }
  }
  const message =
    typeof data.message === 'string' && data.message.trim()
      ? data.message
      : `Something went wrong (status ${status}). Please try again.`;
  if (status === 401 && new URL(path, 'http://relative.invalid').pathname !== CURRENT_USER_PATH)
    emit({ type: 'unauthorized', path });
  if (status === 403) {
    if (contentType.includes('text/html')) emit({ type: 'regionBlocked', countryCode: countryFromHtml(body) });
    else if (BAN_OR_ADMIN.has(message)) emit({ type: 'forbidden', message });
  }
  return new ApiClientError(message, status, data);
}

export interface RequestOptions {
  method?: string;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  /** Let the request outlive the page (fetch keepalive): a player saving its place as the viewer leaves. */
  keepalive?: boolean;
}

/** The general client: JSON in and out, cookies included, bearer header when logged in. */
export async function apiRequest<T = Record<string, unknown>>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  if (authToken) headers.set('Authorization', `Bearer ${authToken}`);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }
  const timeout = AbortSignal.timeout(GENERAL_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      credentials: 'include',
      signal,
      keepalive: options.keepalive,
    });
  } catch {
    const timedOut = timeout.aborted;
    throw new ApiClientError(
      timedOut ? 'The request timed out. Please try again.' : 'Network error. Check your connection and try again.',
      undefined,
      {},
      timedOut ? 'timeout' : 'network',
    );
  }
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) throw classify(response.status, path, text, contentType);
  return (text && contentType.includes('application/json') ? JSON.parse(text) : {}) as T;
}
