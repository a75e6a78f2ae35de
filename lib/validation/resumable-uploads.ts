/**
 * The tus headers of a resumable upload request (decision 026), read before
 * tus sees the request (lib/server/videos/resumable.ts): tus would refuse
 * these in plain-text words of its own, or, for the extensions we do not
 * offer (concatenation), answer with a 5xx. Here each is a 4xx with a message
 * that says what to send instead.
 */
import { z } from '@/lib/validation/zod';

/** The one tus version this server speaks (its Tus-Version). */
export const TUS_VERSION = '1.0.0';
/** The body type every tus PATCH carries. */
export const TUS_PATCH_CONTENT_TYPE = 'application/offset+octet-stream';

export const TUS_VERSION_MESSAGE = `Send Tus-Resumable: ${TUS_VERSION}, the tus version this server speaks.`;
export const LENGTH_REQUIRED_MESSAGE = 'Send the size of the video in Upload-Length when you start the upload.';
export const LENGTH_FORMAT_MESSAGE = 'Upload-Length must be the size of the video in bytes, a whole number.';
export const CONCAT_MESSAGE = 'Uploads in parallel parts (Upload-Concat) are not supported: send the video as one upload.';
export const OFFSET_MESSAGE = 'Send Upload-Offset: the number of bytes the server already has (HEAD tells it), a whole number.';
export const PATCH_LENGTH_MESSAGE = 'The size of the upload was set when it started: send no Upload-Length when continuing it.';
export const PATCH_CONTENT_TYPE_MESSAGE = `Send the video's bytes as Content-Type: ${TUS_PATCH_CONTENT_TYPE}.`;

/** A byte count as tus writes one: digits only, no sign, no leading zero, no exponent, within JavaScript's exact integers. */
const byteCount = (missing: string, malformed = missing) =>
  z
    .string({ error: missing })
    .regex(/^(0|[1-9][0-9]*)$/, { error: malformed })
    .refine((value) => Number.isSafeInteger(Number(value)), { error: malformed });

const absent = (message: string) => z.undefined({ error: message });

const common = {
  'tus-resumable': z.literal(TUS_VERSION, { error: TUS_VERSION_MESSAGE }),
  'upload-concat': absent(CONCAT_MESSAGE),
};

/** Per method: the headers tus reads, as they may arrive (each one's first problem is the answer). */
export const tusHeadersSchemas = {
  POST: z.object({
    ...common,
    'upload-defer-length': absent(LENGTH_REQUIRED_MESSAGE),
    'upload-length': byteCount(LENGTH_REQUIRED_MESSAGE, LENGTH_FORMAT_MESSAGE),
  }),
  PATCH: z.object({
    ...common,
    'content-type': z.literal(TUS_PATCH_CONTENT_TYPE, { error: PATCH_CONTENT_TYPE_MESSAGE }),
    'upload-offset': byteCount(OFFSET_MESSAGE),
    'upload-length': absent(PATCH_LENGTH_MESSAGE),
    'upload-defer-length': absent(PATCH_LENGTH_MESSAGE),
  }),
  HEAD: z.object(common),
  DELETE: z.object(common),
} as const;

/** The header names the schemas read, to pick from a request. */
export const TUS_HEADER_NAMES = [
  'tus-resumable',
  'upload-concat',
  'upload-defer-length',
  'upload-length',
  'upload-offset',
  'content-type',
] as const;
