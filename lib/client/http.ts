'use client';

/**
 * The spec's two HTTP clients (sections 6–8), on fetch and XMLHttpRequest.
 *
 * - The general client sends and accepts JSON, includes cookies, times out
 *   after 180000 ms and carries `Authorization: Bearer <token>` once a login
 *   or session restore sets it.
 * - The upload client sends form data without cookies, times out after
 *   600000 ms, reports progress, and makes at most 3 attempts (waiting 2 s,
 *   then 4 s), retrying only when there is no response, a 5xx, or a network
 *   error. An AbortSignal cancels it, and a cancelled upload is not retried.
 *
 * Errors every caller must react to are reported to listeners (the session
 * provider and the geo-block modal subscribe): a 401 anywhere but the
 * current-user path, a 403 'Account is banned' or 'Forbidden: Admin access
 * required', and a 403 with an HTML body (regional denial). The error still
 * propagates to the caller.
 */
export const GENERAL_TIMEOUT_MS = 180_000;
export const UPLOAD_TIMEOUT_MS = 600_000;
export const UPLOAD_RETRY_DELAYS_MS = [2_000, 4_000] as const;
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

export type ClientEvent =
  | { type: 'unauthorized'; path: string }
  | { type: 'forbidden'; message: string }
  | { type: 'regionBlocked'; countryCode: string | null };

const listeners = new Set<(event: ClientEvent) => void>();
export function onClientEvent(listener: (event: ClientEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const emit = (event: ClientEvent) => listeners.forEach((listener) => listener(event));

let authToken: string | null = null;
/** Sets or clears the default bearer header of both clients. */
export function setAuthToken(token: string | null): void {
  authToken = token;
}
export function getAuthToken(): string | null {
  return authToken;
}

/** Local development API addresses (localhost or a LAN address on port 5000) point at the real API base. */
const LOCAL_DEV_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}):5000(?=\/|$)/i;
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
  const message = typeof data.message === 'string' && data.message.trim() ? data.message : `Something went wrong (status ${status}). Please try again.`;
  if (status === 401 && new URL(path, 'http://relative.invalid').pathname !== CURRENT_USER_PATH) emit({ type: 'unauthorized', path });
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
    response = await fetch(apiUrl(path), { method: options.method ?? (body ? 'POST' : 'GET'), headers, body, credentials: 'include', signal });
  } catch {
    const timedOut = timeout.aborted;
    throw new ApiClientError(timedOut ? 'The request timed out. Please try again.' : 'Network error. Check your connection and try again.', undefined, {}, timedOut ? 'timeout' : 'network');
  }
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok) throw classify(response.status, path, text, contentType);
  return (text && contentType.includes('application/json') ? JSON.parse(text) : {}) as T;
}

/** Bytes sent so far in the current attempt (the whole multipart body, so a little more than the file). */
export interface UploadBytes {
  loaded: number;
  total: number;
}

/** Told before the client waits to try again. */
export interface UploadRetry {
  /** The attempt about to start: 2 or 3. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Why the previous attempt failed (no response, a 5xx, or a network error). */
  error: ApiClientError;
}

export interface UploadOptions {
  /** Progress of the current attempt as a fraction (0–1), with its byte counts; a retry starts again from 0. */
  onProgress?: (fraction: number, bytes: UploadBytes) => void;
  onRetry?: (retry: UploadRetry) => void;
  /** Aborts the request in flight (or the wait before a retry); the upload then fails with UploadCancelledError and is never retried. */
  signal?: AbortSignal;
  /** For tests: how long to wait between attempts. */
  retryDelaysMs?: readonly number[];
}

/** The member cancelled the upload. */
export class UploadCancelledError extends Error {
  constructor() {
    super('Upload cancelled.');
    this.name = 'UploadCancelledError';
  }
}

/** Waits, or rejects at once with UploadCancelledError when the signal aborts. */
function waitUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadCancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new UploadCancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The upload client: XHR for progress, no cookies, up to 3 attempts; a cancelled upload is never retried. */
export async function uploadRequest<T = Record<string, unknown>>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const delays = options.retryDelaysMs ?? UPLOAD_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt += 1) {
    if (options.signal?.aborted) throw new UploadCancelledError();
    try {
      return await uploadOnce<T>(path, form, options);
    } catch (error) {
      const retryable = error instanceof ApiClientError && (error.status === undefined || error.status >= 500);
      if (!retryable || attempt >= delays.length) throw error;
      const delayMs = delays[attempt]!;
      options.onRetry?.({ attempt: attempt + 2, maxAttempts: delays.length + 1, delayMs, error });
      await waitUnlessCancelled(delayMs, options.signal);
    }
  }
}

function uploadOnce<T>(path: string, form: FormData, { onProgress, signal }: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let total = 0;
    const onAbort = () => xhr.abort();
    const settle = (finish: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    xhr.open('POST', apiUrl(path));
    xhr.withCredentials = false;
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    if (authToken) xhr.setRequestHeader('Authorization', `Bearer ${authToken}`);
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || !onProgress) return;
      total = event.total;
      onProgress(event.total ? event.loaded / event.total : 0, { loaded: event.loaded, total: event.total });
    };
    xhr.onload = () =>
      settle(() => {
        const contentType = xhr.getResponseHeader('content-type') ?? '';
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress?.(1, { loaded: total, total });
          resolve((xhr.responseText && contentType.includes('application/json') ? JSON.parse(xhr.responseText) : {}) as T);
        } else {
          reject(classify(xhr.status, path, xhr.responseText, contentType));
        }
      });
    xhr.onerror = () => settle(() => reject(new ApiClientError('Network error. Check your connection and try again.', undefined, {}, 'network')));
    xhr.ontimeout = () => settle(() => reject(new ApiClientError('The upload timed out.', undefined, {}, 'timeout')));
    xhr.onabort = () => settle(() => reject(new UploadCancelledError()));
    if (signal?.aborted) {
      reject(new UploadCancelledError());
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
}
