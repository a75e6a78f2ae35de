'use client';

/**
 * The spec's upload client (sections 6–8), on XMLHttpRequest for progress:
 * it sends form data without cookies, times out after 600000 ms, reports
 * progress, and makes at most 3 attempts (waiting 2 s, then 4 s), retrying
 * only when there is no response, a 5xx, or a network error. An AbortSignal
 * cancels it, and a cancelled upload is not retried. Errors are classified as
 * the general client's (http.ts) are, so the same listeners hear of them.
 */
import { ApiClientError, apiUrl, classify, getAuthToken } from './api-client';

export const UPLOAD_TIMEOUT_MS = 600_000;
export const UPLOAD_RETRY_DELAYS_MS = [2_000, 4_000] as const;

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
export async function uploadRequest<T = Record<string, unknown>>(
  path: string,
  form: FormData,
  options: UploadOptions = {},
): Promise<T> {
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
    const authToken = getAuthToken();
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
    xhr.onerror = () =>
      settle(() => reject(new ApiClientError('Network error. Check your connection and try again.', undefined, {}, 'network')));
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
