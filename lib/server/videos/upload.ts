import 'server-only';

import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { Busboy } from '@fastify/busboy';

import { getConfig } from '@/lib/config/server';
import { ownerTag } from '@/lib/process-owner';
import { getDb } from '@/lib/db';
import { wakeWorkers } from '@/lib/events';
import { videos, type Video } from '@/lib/db/schema';
import { splitTags, uploadFieldsSchema, type UploadFields } from '@/lib/validation/videos';

import { requireMember, type Actor, type Authenticated } from '../auth/actor';
import { ApiError, badRequest, parseInput } from '../errors';
import { enqueue } from '../jobs/queue';
import { NotAVideoError, probeVideo } from '../media/probe';
import { metrics } from '../metrics';
import { consume, giveBack, tooOften } from '../rate-limit';
import { getMediaStorage, mediaKeys } from '../storage';

import { storageFailure } from './storage-failure';

export const VIDEO_FIELD = 'video';
export const PROCESS_VIDEO_JOB = 'process-video';

export const tooLarge = (limit: number) => new ApiError(413, `This video is too large. The limit is ${formatBytes(limit)}.`);

function formatBytes(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${Number.isInteger(gib) ? gib : gib.toFixed(1)} GB`;
  return `${Math.max(1, Math.round(bytes / 1024 ** 2))} MB`;
}

export function quarantineDir(): string {
  return path.join(getConfig().dataDir, 'quarantine');
}

/** Counts bytes as they pass (into `counted`) and stops the stream past the limit, so an oversized upload never lands whole on disk. */
function byteLimit(limit: number, counted: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      if (counted.bytes > limit) callback(tooLarge(limit));
      else callback(null, chunk);
    },
  });
}

/** Room in an upload body for everything but the video: text fields, part headers, boundaries. */
const FORM_ROOM_BYTES = 1024 * 1024;

/** Large writes: the default 16 KiB buffer makes the file stream push back on every 64 KiB socket chunk. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Pipes a raw Node request into the parser without destroying the request
 * when parsing fails: the rest of the body is read and discarded instead,
 * so the connection stays usable and the client gets our answer (413, 415…)
 * rather than a reset, which its upload client would retry.
 */
function feedKeepingSource(source: Readable, parser: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      source.unpipe(parser as unknown as NodeJS.WritableStream);
      source.resume();
      reject(error);
    };
    source.once('error', fail);
    parser.once('error', fail);
    parser.once('finish', () => resolve());
    source.pipe(parser);
  });
}

interface ParsedUpload {
  fields: Record<string, string[]>;
  file: { tempPath: string; bytes: number; originalName: string } | null;
}

/**
 * Streams a multipart upload: text fields into memory (small, limited), the
 * video straight to a quarantine file whose name we choose, counting bytes.
 * Never buffers the body. On any error the quarantine file is removed.
 */
async function parseUpload(
  request: Request,
  body: Readable | null,
  limit: number,
  received: { bytes: number },
): Promise<ParsedUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data')) throw new ApiError(415, 'Send the upload as multipart/form-data.');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit + FORM_ROOM_BYTES) throw tooLarge(limit);
  const source = body ?? (request.body ? Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) : null);
  if (!source) throw badRequest('Choose a video file to upload.');

  try {
    await mkdir(quarantineDir(), { recursive: true });
  } catch (error) {
    throw storageFailure(error, 'receiving') ?? error;
  }
  const fields: Record<string, string[]> = {};
  let file: ParsedUpload['file'] = null;
  let writing: Promise<void> | null = null;
  // Named with its owner (lib/process-owner.ts), so a restart after a crash removes it at once (quarantine.ts).
  const tempPath = path.join(quarantineDir(), `${randomUUID()}.${ownerTag()}.upload`);

  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { files: 1, fields: 20, fieldSize: 16 * 1024, parts: 25 },
    });
  } catch {
    throw badRequest('The upload form could not be read.');
  }
  // The whole body is capped, not only the file: the file may be at most `limit`, and everything else (the
  // text fields, at most 20 of 16 KiB, and part headers) fits in FORM_ROOM_BYTES. So a body that has not
  // reached its file part after FORM_ROOM_BYTES is no upload form (a missing boundary, junk): it is refused
  // at once instead of being read up to the file limit.
  let bodyBytes = 0;
  source.on('data', (chunk: Buffer) => {
    // Listeners run before the parser sees this chunk: judge the file part by what the parser has already read.
    const alreadyParsed = bodyBytes;
    bodyBytes += chunk.length;
    received.bytes = bodyBytes;
    if (bodyBytes > limit + FORM_ROOM_BYTES) parser.destroy(tooLarge(limit));
    else if (!file && alreadyParsed > FORM_ROOM_BYTES) parser.destroy(badRequest('The upload form could not be read.'));
  });
  parser.on('field', (name: string, value: string) => {
    (fields[name] ??= []).push(value);
  });
  parser.on('file', (name: string, stream: NodeJS.ReadableStream & { truncated?: boolean }, filename: string) => {
    if (name !== VIDEO_FIELD || file) {
      stream.resume(); // only one video per upload; other files are drained and ignored
      return;
    }
    file = { tempPath, bytes: 0, originalName: filename };
    writing = pipeline(
      stream,
      byteLimit(limit, file),
      createWriteStream(tempPath, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES }),
    );
    // A failed write (over the limit, disk full) stops the parse at once with its reason.
    writing.catch((error: unknown) => parser.destroy(error as Error));
  });

  try {
    await (body ? feedKeepingSource(body, parser) : pipeline(source, parser));
    if (writing) await writing;
  } catch (error) {
    await rm(tempPath, { force: true });
    if (error instanceof ApiError) throw error;
    // The disk, not the client: a 507 (or 503) the client may retry, never the client's 400.
    const storage = storageFailure(error, 'receiving');
    if (storage) throw storage;
    throw badRequest('The upload was interrupted or is not valid form data. Please try again.');
  }
  return { fields, file };
}

export interface UploadedVideo {
  video: Pick<Video, 'id' | 'streamVideoId' | 'title' | 'processingState' | 'moderationStatus'>;
}

/** A video file on local disk that is about to become a video's original. */
export interface VideoFile {
  path: string;
  bytes: number;
  /** Only its extension is kept, for the stored original's key. */
  originalName: string;
}

/**
 * What a trusted caller (the demo seeder) may set on a new video. Uploads
 * leave these at their defaults: pending moderation, unpublished, no views.
 */
export type InitialVideoState = Partial<
  Pick<typeof videos.$inferInsert, 'moderationStatus' | 'publishedAt' | 'moderatedAt' | 'views' | 'createdAt'>
>;

/**
 * Turns a local file into a video: ffprobe checks it is one (NotAVideoError
 * if not), it is stored as the original (the local file may be moved), and
 * the video row and its process-video job are written in one transaction.
 * On failure the stored original is removed again; the local file stays the
 * caller's to clean up. Used by uploads and by the demo seeder.
 */
export async function createVideoFromFile(
  ownerId: string,
  file: VideoFile,
  fields: UploadFields,
  initial: InitialVideoState = {},
): Promise<Video> {
  const probe = await probeVideo(file.path);
  const id = randomUUID();
  const streamVideoId = randomBytes(9).toString('base64url');
  const sourceKey = `${id}${
    path
      .extname(file.originalName)
      .toLowerCase()
      .replace(/[^.a-z0-9]/g, '')
      .slice(0, 6) || '.bin'
  }`;
  const storedKey = mediaKeys.original(sourceKey);
  try {
    await getMediaStorage().putFile(storedKey, file.path, 'application/octet-stream');
    const db = await getDb();
    const created = await db.transaction(async (tx) => {
      const [video] = await tx
        .insert(videos)
        .values({
          ...initial,
          id,
          streamVideoId,
          ownerId,
          title: fields.title,
          description: fields.description,
          category: fields.category,
          tags: fields.tags,
          sourceKey,
          sourceBytes: file.bytes,
          durationSeconds: probe.durationSeconds,
          width: probe.width,
          height: probe.height,
        })
        .returning();
      await enqueue(tx, PROCESS_VIDEO_JOB, { videoId: id }, { dedupeKey: `${PROCESS_VIDEO_JOB}:${id}` });
      return video!;
    });
    wakeWorkers();
    return created;
  } catch (error) {
    // Nothing half-stored: the original goes when its row could not be written.
    await getMediaStorage().deletePrefix(storedKey);
    throw error;
  }
}

export const UPLOADS_TOO_OFTEN = tooOften('started new uploads');
export const tooManyUploads = (wait: string) =>
  `You have reached today's limit of ${getConfig().uploadsPerDay} uploads. You can upload again in ${wait}.`;

/**
 * POST /api/videos/upload: count it against the member's daily uploads before
 * a byte of the body is read, then stream, check, store and queue (storeUpload).
 * Refused uploads count too: they cost bandwidth and disk all the same. A
 * failure on our side is given back, since the client retries those.
 */
export async function uploadVideo(actor: Actor, request: Request, body: Readable | null = null) {
  const member = requireMember(actor);
  await consume('uploadsPerMember', member.user.id, tooManyUploads);
  await consume('uploadStartsPerMember', member.user.id, UPLOADS_TOO_OFTEN);
  // Body bytes read, counted for the metrics whatever the outcome (a refused upload costs bandwidth too).
  const received = { bytes: 0 };
  try {
    const stored = await storeUpload(member, request, body, received);
    metrics().uploadBytes.inc({ outcome: 'stored' }, received.bytes);
    return stored;
  } catch (error) {
    metrics().uploadBytes.inc({ outcome: 'refused' }, received.bytes);
    if (!(error instanceof ApiError) || error.status >= 500) await giveBack('uploadsPerMember', member.user.id);
    throw error;
  }
}

/**
 * Streams, checks fields, checks the file is a video by content, stores,
 * queues processing. `body` is the raw Node request when the production
 * server hands the upload over before Next (upload-node.ts); otherwise the
 * request's own web stream is read.
 */
async function storeUpload(member: Authenticated, request: Request, body: Readable | null, received: { bytes: number }) {
  const limit = getConfig().maxUploadBytes;
  const { fields, file } = await parseUpload(request, body, limit, received);
  try {
    const input = readUploadFields({
      title: fields.title?.[0],
      description: fields.description?.[0],
      category: fields.category?.[0],
      tags: fields.tags,
    });
    if (!file) throw badRequest('Choose a video file to upload.', { field: VIDEO_FIELD });
    if (file.bytes === 0) throw badRequest('The video file is empty.', { field: VIDEO_FIELD });
    return await videoFromUpload(member, { path: file.tempPath, bytes: file.bytes, originalName: file.originalName }, input);
  } catch (error) {
    // Nothing half-stored: createVideoFromFile removed any stored original; the quarantine file goes here.
    if (file) await rm(file.tempPath, { force: true });
    throw error;
  }
}

/** An upload's text fields (form fields or tus Upload-Metadata) through the one upload contract; a 400 naming the field otherwise. */
export function readUploadFields(raw: {
  title?: string;
  description?: string;
  category?: string;
  tags?: string | string[];
}): UploadFields {
  return parseInput(uploadFieldsSchema, {
    title: raw.title,
    description: raw.description,
    category: raw.category,
    tags: splitTags(raw.tags),
  });
}

/**
 * The end of every upload, plain or resumable: the received file becomes a
 * video (content probe, storage, row, job), and the answer is the API's.
 * A file that is no video is a 415 with the probe's words; a full or failing
 * media disk a 507 (storage-failure.ts). The file is the caller's to remove
 * when this throws.
 */
export async function videoFromUpload(member: Authenticated, file: VideoFile, input: UploadFields) {
  const video = await createVideoFromFile(member.user.id, file, input).catch((error: unknown) => {
    if (error instanceof NotAVideoError) throw new ApiError(415, error.message, { field: VIDEO_FIELD });
    throw storageFailure(error, 'storing') ?? error;
  });
  return {
    video: {
      _id: video.id,
      streamVideoId: video.streamVideoId,
      title: video.title,
      description: video.description,
      category: video.category,
      tags: video.tags,
      status: video.processingState,
      moderationStatus: video.moderationStatus,
      durationSeconds: video.durationSeconds,
      width: video.width,
      height: video.height,
    },
  };
}
