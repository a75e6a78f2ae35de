import 'server-only';

import { ApiError } from '../errors';
import { logger } from '../log';

const log = logger('upload');

export const STORAGE_FULL_MESSAGE = 'The server is out of storage space. Please try again later.';
export const STORAGE_BROKEN_MESSAGE = 'The server could not store the upload. Please try again later.';
export const STORAGE_BUSY_MESSAGE = 'The server is busy storing uploads. Please try again in a moment.';

/** How long a client should wait after a transient storage failure (503). */
const BUSY_RETRY_SECONDS = 30;

/** The disk (or its quota, or its largest file) is full: nothing this request can change. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** The storage itself failed, is read-only or not ours to write (permissions): an operator must look. */
const BROKEN = new Set(['EIO', 'EROFS', 'ENXIO', 'ENODEV', 'ESTALE', 'EACCES', 'EPERM']);
/** Out of file handles or briefly unavailable: the same request may pass in a moment. */
const TRANSIENT = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ETIMEDOUT', 'ENOMEM']);

/**
 * What an S3-compatible media store's failure means (the AWS SDK puts `$metadata` on every error it throws):
 * no HTTP answer at all (refused, reset, unknown host: the SDK's "error wrapper" keeps no errno), a 5xx or
 * throttling is the store being down or overloaded, back in a moment; a 4xx (access denied, no such bucket)
 * is our configuration, for an operator to fix.
 */
function s3FailureOf(error: unknown): 'unavailable' | 'broken' | undefined {
  if (!error || typeof error !== 'object' || !('$metadata' in error)) return undefined;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = $metadata?.httpStatusCode;
  if (typeof status !== 'number' || status >= 500 || name === 'SlowDown') return 'unavailable';
  return 'broken';
}

/** The errno code of a file-system error, looking through wrapped causes (pipeline, tus). */
function errnoOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A storage failure while an upload was received or moved into media, as the
 * client's answer: 507 when the storage is full or broken, 503 with
 * Retry-After when it is busy, or when an S3-compatible media store cannot
 * be reached or answers with a failure of its own (5xx, SlowDown); logged here as an error with its cause, since
 * the answer tells the client nothing of our disks. `undefined` for any other
 * error (the caller's own handling applies).
 */
export function storageFailure(error: unknown, step: 'receiving' | 'storing'): ApiError | undefined {
  const s3 = step === 'storing' ? s3FailureOf(error) : undefined;
  if (s3) {
    log.error({ err: error, code: `S3 ${s3}`, step }, `upload storage failed while ${step}: the S3 media store is ${s3}`);
    return s3 === 'unavailable' ? busy() : new ApiError(507, STORAGE_BROKEN_MESSAGE);
  }
  const code = errnoOf(error);
  if (!code || !(FULL.has(code) || BROKEN.has(code) || TRANSIENT.has(code))) return undefined;
  log.error({ err: error, code, step }, `upload storage failed while ${step}: ${code}`);
  if (TRANSIENT.has(code)) return busy();
  return new ApiError(507, FULL.has(code) ? STORAGE_FULL_MESSAGE : STORAGE_BROKEN_MESSAGE);
}

const busy = () =>
  new ApiError(503, STORAGE_BUSY_MESSAGE, { retryAfter: BUSY_RETRY_SECONDS }, { 'Retry-After': String(BUSY_RETRY_SECONDS) });
