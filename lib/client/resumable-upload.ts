/**
 * The browser side of resumable uploads (tus, decision 026), for files from
 * RESUMABLE_UPLOAD_THRESHOLD_BYTES on. tus-js-client is loaded only when
 * such an upload starts, so no page pays for it up front.
 *
 * A dropped connection is retried from the offset the server has (HEAD);
 * after a reload the member picks the same file again and the upload URL
 * kept in localStorage under the file's fingerprint continues it. Cancel
 * ends the upload on the server too. When every byte arrived but the
 * server's last step failed (its disk full: 507), the server keeps the
 * upload; the retry finds the full offset and only the last step runs again
 * (finishUpload), without sending the file again.
 */
import { RESUMABLE_UPLOAD_PATH } from '@/lib/upload-paths';

import { ApiClientError, apiUrl, classify, getAuthToken } from './api-client';
import { UploadCancelledError, type UploadBytes, type UploadRetry } from './upload-request';

/** Waits between tries after a dropped connection or a 5xx: a phone that lost its network for half a minute still finishes. */
export const RESUMABLE_RETRY_DELAYS_MS = [1_000, 3_000, 5_000, 10_000, 20_000] as const;

/**
 * One PATCH carries at most this much: measured in bench:videos (decision
 * 026), a few large chunks cost nothing against one PATCH for the whole
 * file, and keep every request under nginx's client_max_body_size for the
 * location whatever MAX_UPLOAD_BYTES is.
 */
export const RESUMABLE_CHUNK_BYTES = 64 * 1024 * 1024;

export interface ResumableOptions {
  /** Bytes the server holds (a resumed upload starts above 0). */
  onProgress?: (bytes: UploadBytes) => void;
  /** A previous upload of this file is being continued from `offset` bytes. */
  onResume?: (offset: number, total: number) => void;
  onRetry?: (retry: UploadRetry) => void;
  /** Aborting cancels the upload, and deletes what the server has of it. */
  signal?: AbortSignal;
}

const retryable = (status: number) => status === 0 || status >= 500 || status === 409 || status === 423;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new UploadCancelledError())), { once: true });
  });

/**
 * The last step of an upload whose bytes are all on the server: a PATCH of
 * no bytes at the full offset has the server turn them into the video and
 * answer as the last PATCH does. tus-js-client comes here when its retry
 * found, with HEAD, that nothing is left to send (it reports that as success,
 * with no answer). Retried as tus retries, with the same waits.
 */
export async function finishUpload(
  url: string,
  size: number,
  token: string | null,
  options: Pick<ResumableOptions, 'onRetry' | 'signal'> = {},
): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response | null = null;
    try {
      response = await fetch(url, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': String(size),
          'Content-Type': 'application/offset+octet-stream',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        // As every upload request: the bearer token, never the cookies (the spec's upload client).
        credentials: 'omit',
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw new UploadCancelledError();
      if (attempt >= RESUMABLE_RETRY_DELAYS_MS.length) throw error;
    }
    const body = response ? await response.text() : '';
    if (response?.ok) return body;
    const status = response?.status ?? 0;
    const failure = response
      ? classify(status, RESUMABLE_UPLOAD_PATH, body, response.headers.get('content-type') ?? '')
      : new ApiClientError('Network error. Check your connection and try again.', undefined, {}, 'network');
    const delayMs = RESUMABLE_RETRY_DELAYS_MS[attempt];
    if (!retryable(status) || delayMs === undefined) throw failure;
    options.onRetry?.({ attempt: attempt + 2, maxAttempts: RESUMABLE_RETRY_DELAYS_MS.length + 1, delayMs, error: failure });
    await wait(delayMs, options.signal);
  }
}

/** Upload-Metadata values: the same fields as the plain upload's form. */
export type ResumableFields = Record<'title' | 'description' | 'category' | 'tags', string>;

/** Our error for what tus-js-client reports: the server's JSON message when there was an answer, the network words when not. */
function errorOf(
  error: Error & {
    originalResponse?: { getStatus(): number; getBody(): string; getHeader(name: string): string | undefined } | null;
  },
): ApiClientError {
  const response = error.originalResponse;
  if (!response || !response.getStatus())
    return new ApiClientError('Network error. Check your connection and try again.', undefined, {}, 'network');
  return classify(
    response.getStatus(),
    RESUMABLE_UPLOAD_PATH,
    response.getBody() ?? '',
    response.getHeader('content-type') ?? 'application/json',
  );
}

export async function resumableUpload<T>(file: File, fields: ResumableFields, options: ResumableOptions = {}): Promise<T> {
  const { Upload } = await import('tus-js-client');
  if (options.signal?.aborted) throw new UploadCancelledError();
  const token = getAuthToken();
  return new Promise<T>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: apiUrl(RESUMABLE_UPLOAD_PATH),
      chunkSize: RESUMABLE_CHUNK_BYTES,
      retryDelays: [...RESUMABLE_RETRY_DELAYS_MS],
      metadata: { filename: file.name, filetype: file.type, ...fields },
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      removeFingerprintOnSuccess: true,
      onProgress: (loaded, total) => options.onProgress?.({ loaded, total }),
      onShouldRetry: (error, attempt) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        // tus's rule: not on a refusal (4xx), except a conflict or a lock the server asks to retry.
        const retry = retryable(status);
        if (retry) {
          options.onRetry?.({
            attempt: attempt + 2,
            maxAttempts: RESUMABLE_RETRY_DELAYS_MS.length + 1,
            delayMs: RESUMABLE_RETRY_DELAYS_MS[attempt] ?? 0,
            error: errorOf(error),
          });
        }
        return retry;
      },
      onAfterResponse: (request, response) => {
        // A HEAD answers where a continued upload stands.
        const offset = Number(response.getHeader('Upload-Offset'));
        if (request.getMethod() === 'HEAD' && response.getStatus() === 200 && offset > 0) options.onResume?.(offset, file.size);
      },
      onSuccess: ({ lastResponse }) => {
        // No answer: a retry found every byte on the server (HEAD), whose last step had failed; it runs again now.
        const answer = lastResponse.getBody()
          ? Promise.resolve(lastResponse.getBody())
          : finishUpload(upload.url!, file.size, token, options);
        answer.then(
          (body) => {
            try {
              resolve(JSON.parse(body) as T);
            } catch {
              reject(
                new ApiClientError(
                  'The upload finished, but the answer could not be read. Check Your videos below.',
                  lastResponse.getStatus(),
                ),
              );
            }
          },
          (error: unknown) => reject(error),
        );
      },
      onError: (error) => reject(errorOf(error)),
    });
    options.signal?.addEventListener(
      'abort',
      () => {
        // true: the server deletes what it has (DELETE), and the stored URL is forgotten.
        void upload.abort(true).catch(() => undefined);
        reject(new UploadCancelledError());
      },
      { once: true },
    );
    void upload.findPreviousUploads().then((previous) => {
      if (options.signal?.aborted) return;
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    });
  });
}
