import 'server-only';

import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { FileConfigstore, FileStore, type Configstore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { ERRORS } from '@tus/utils';
import type { NextRequest } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { writeBody, type BodyWritten } from '@/lib/http/upload-body';
import type { ReceivedUpload } from '@/lib/http/upload-receiver/protocol';
import { RESUMABLE_UPLOAD_PATH } from '@/lib/upload-paths';

import { requireMember, type Authenticated } from '../auth/actor';
import { distrustCrossSiteCookie, resolveActor } from '../auth/session';
import { ApiError, badRequest, errorHeaders } from '../errors';
import { errorResponse, serverErrorBody } from '../http';
import { logger } from '../log';
import { metrics } from '../metrics';
import { consume, giveBack } from '../rate-limit';

import { FileLocker } from './upload-lock';
import { readUploadFields, tooLarge, tooManyUploads, UPLOADS_TOO_OFTEN, videoFromUpload } from './upload';

const log = logger('upload');

/** tus's default names: 32 hex digits. Anything else in the path is no upload of ours, and never reaches the file system. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export const UPLOAD_NOT_FOUND_MESSAGE = 'This upload was not found. It may have expired; start the upload again.';
export const UPLOAD_EXPIRED_MESSAGE = 'This upload has expired. Start the upload again.';
const LENGTH_REQUIRED_MESSAGE = 'Send the size of the video in Upload-Length when you start the upload.';
const METHOD_MESSAGE = 'Resumable uploads take POST, HEAD, PATCH and DELETE.';

/** Where unfinished resumable uploads live: DATA_DIR/resumable, an upload and its .json beside it (decision 026). */
export function resumableDir(): string {
  return path.join(getConfig().dataDir, 'resumable');
}

/**
 * The tus request being answered, for tus's hooks (which only see the web
 * request): its member, and in production where its body is: the Node
 * request, or the upload receiver process holding it (NodeBodyFileStore).
 */
interface Call {
  /** Set once the caller passed authorise(); tus sees no request before that. */
  member?: Authenticated;
  body?: IncomingMessage | ReceivedUpload;
  /** Each upload's stored info as read in this request (RequestConfigstore). */
  infos: Map<string, Promise<Upload | undefined>>;
}
const calls = new AsyncLocalStorage<Call>();

function caller(): Authenticated {
  const member = calls.getStore()?.member;
  if (!member) throw new Error('A resumable upload hook ran outside handleResumable.');
  return member;
}

/**
 * tus's FileConfigstore (an upload's .json), remembered within a request: a
 * PATCH read it three times (our owner check, tus's getUpload under the lock,
 * the body write), each a file read that can wait behind the disk's writeback
 * while the body stalls in the socket (decision 026, per-PATCH timings). Now
 * the owner check's read runs beside the session lookup, tus's getUpload
 * reads afresh under the lock (NodeBodyFileStore.getUpload: what tus decides
 * on is what is on disk then, as before), and the body write reuses that.
 * Creation and deletion go through here and forget the copy; outside a
 * request (the expiry sweep) every read goes to the file.
 */
class RequestConfigstore implements Configstore<Upload> {
  constructor(private readonly files: FileConfigstore) {}

  /** The next read of the upload's info in this request goes to the file. */
  forget(key: string): void {
    calls.getStore()?.infos.delete(key);
  }

  get(key: string): Promise<Upload | undefined> {
    const infos = calls.getStore()?.infos;
    if (!infos) return this.files.get(key);
    let info = infos.get(key);
    if (!info) {
      info = this.files.get(key);
      infos.set(key, info);
    }
    return info;
  }

  async set(key: string, value: Upload): Promise<void> {
    this.forget(key);
    await this.files.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.forget(key);
    await this.files.delete(key);
  }

  list(): Promise<string[]> {
    return this.files.list();
  }
}

/** How tus's hooks refuse: the status and our JSON body, as every other API route answers. */
function refusal(error: ApiError): { status_code: number; body: string } {
  return { status_code: error.status, body: JSON.stringify({ message: error.message, ...error.extra }) };
}

/** The fields the client sent in Upload-Metadata, through the plain upload's schema. */
function fieldsOf(metadata: Upload['metadata']) {
  const value = (key: string) => metadata?.[key] ?? undefined;
  return readUploadFields({ title: value('title'), description: value('description'), category: value('category'), tags: value('tags') });
}

/**
 * tus's FileStore, writing bodies with lib/http/upload-body.ts (a 1 MiB write
 * buffer, not Node's 16 KiB) and, in production, not from tus's stream:
 * @tus/server 2.x reads a body as a web stream made from the Node request and
 * turns it back into a Node stream, which halved the throughput in adapter
 * and garbage collector work (decision 026, the profile). The body comes
 * straight from the Node request, or is written by the upload receiver
 * process that holds it. tus still checks the offset, the expiry and the
 * lock before, and takes the new offset from here.
 */
class NodeBodyFileStore extends FileStore {
  private readonly infos: RequestConfigstore;

  constructor(
    options: ConstructorParameters<typeof FileStore>[0] & { configstore: RequestConfigstore },
    readonly locker: FileLocker,
  ) {
    super(options);
    this.infos = options.configstore;
  }

  /** tus asks under the upload's lock: read from the file, not the copy the owner check read before the lock. */
  override getUpload(id: string): Promise<Upload> {
    this.infos.forget(id);
    return super.getUpload(id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const body = calls.getStore()?.body;
    const file = path.join(this.directory, id);
    const stop = this.locker.signalOf(id);
    if (!body) return this.written(offset, await writeBody(readable, file, offset, Number.POSITIVE_INFINITY, stop));
    readable.resume(); // tus's own (empty) body stream: drained so its pipeline ends
    const upload = await this.configstore.get(id);
    const room = upload?.size === undefined ? Number.POSITIVE_INFINITY : upload.size - offset;
    const written = 'writeBody' in body ? await body.writeBody({ file, offset, room }, stop) : await writeBody(body, file, offset, room, stop);
    return this.written(offset, written);
  }

  /** The new offset after a body write, or tus's error for it (a client that went away keeps what arrived). */
  private written(offset: number, { bytes, outcome }: BodyWritten): number {
    if (outcome === 'too-large') throw ERRORS.ERR_SIZE_EXCEEDED;
    if (outcome === 'failed') throw ERRORS.FILE_WRITE_ERROR;
    return offset + bytes;
  }
}

let tus: { server: Server; store: NodeBodyFileStore } | null = null;

/** The one tus server of this process, on the shared DATA_DIR. */
function tusServer(): { server: Server; store: NodeBodyFileStore } {
  if (tus) return tus;
  const config = getConfig();
  const directory = resumableDir();
  const locker = new FileLocker(directory);
  const store = new NodeBodyFileStore({ directory, configstore: new RequestConfigstore(new FileConfigstore(directory)), expirationPeriodInMilliseconds: config.resumableUploadExpiryMs }, locker);
  const server = new Server({
    path: RESUMABLE_UPLOAD_PATH,
    datastore: store,
    locker,
    relativeLocation: true,
    maxSize: config.maxUploadBytes,
    // Same origin only: the page and the API are one site, and no other site may drive a member's upload.
    allowedOrigins: [new URL(config.siteUrl).origin],
    disableTerminationForFinishedUploads: true,
    onUploadCreate: async (_req, upload) => {
      const member = caller();
      if (upload.sizeIsDeferred || upload.size === undefined) throw refusal(badRequest(LENGTH_REQUIRED_MESSAGE));
      if (upload.size === 0) throw refusal(badRequest('The video file is empty.', { field: 'video' }));
      // Before the daily count: a form the member must correct costs no upload.
      let fields;
      try {
        fields = fieldsOf(upload.metadata);
      } catch (error) {
        throw error instanceof ApiError ? refusal(error) : error;
      }
      try {
        await consume('uploadsPerMember', member.user.id, tooManyUploads);
        await consume('uploadStartsPerMember', member.user.id, UPLOADS_TOO_OFTEN);
      } catch (error) {
        throw error instanceof ApiError ? refusal(error) : error;
      }
      // What is stored is ours: the checked fields, the owner, and the file name (only its extension is ever used).
      return {
        metadata: {
          owner: member.user.id,
          filename: (upload.metadata?.filename ?? 'video.bin').slice(0, 200),
          title: fields.title,
          description: fields.description,
          category: fields.category,
          tags: fields.tags.join(','),
        },
      };
    },
    onUploadFinish: async (_req, upload) => {
      const result = await finishResumable(caller(), upload, store);
      return { status_code: 200, body: JSON.stringify(result), headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } };
    },
    onResponseError: (_req, error) => {
      if (error === ERRORS.ERR_MAX_SIZE_EXCEEDED || error === ERRORS.ERR_SIZE_EXCEEDED) return refusal(tooLarge(getConfig().maxUploadBytes));
      if (error === ERRORS.FILE_NOT_FOUND) return refusal(new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE));
      if (error === ERRORS.FILE_NO_LONGER_EXISTS) return refusal(new ApiError(410, UPLOAD_EXPIRED_MESSAGE));
      if ('status_code' in error && error.status_code < 500) {
        // Ours are JSON already; tus's own (409 wrong offset, 412…) become JSON with their words.
        return error.body.startsWith('{') ? error : { status_code: error.status_code, body: JSON.stringify({ message: error.body.trim() }) };
      }
      log.error({ err: error }, 'resumable upload failed');
      return { status_code: 500, body: JSON.stringify(serverErrorBody()) };
    },
  });
  tus = { server, store };
  return tus;
}

/**
 * After the last byte: the same probe and video creation as the plain upload
 * (videoFromUpload); the tus upload goes whatever the outcome, so a file that
 * is no video is deleted and a finished one is not kept twice.
 */
async function finishResumable(member: Authenticated, upload: Upload, store: NodeBodyFileStore) {
  const file = path.join(store.directory, upload.id);
  try {
    // The size was checked at creation against the cap of that day; the cap may have been lowered since.
    if ((upload.size ?? 0) > getConfig().maxUploadBytes) throw tooLarge(getConfig().maxUploadBytes);
    const result = await videoFromUpload(member, { path: file, bytes: upload.size ?? 0, originalName: upload.metadata?.filename ?? '' }, fieldsOf(upload.metadata));
    metrics().uploadBytes.inc({ outcome: 'stored' }, upload.size ?? 0);
    return result;
  } catch (error) {
    metrics().uploadBytes.inc({ outcome: 'refused' }, upload.size ?? 0);
    if (!(error instanceof ApiError)) {
      await giveBack('uploadsPerMember', member.user.id);
      throw error;
    }
    throw refusal(error);
  } finally {
    await rm(file, { force: true });
    await rm(`${file}.json`, { force: true });
    // The last PATCH's lock file goes in the background (upload-lock.ts); after the final answer nothing of the upload is left.
    await store.locker.released(upload.id);
  }
}

/**
 * Whose upload the path names: 404 unless it is the caller's (someone
 * else's upload is as absent as one that never was: nothing to learn from
 * the answer).
 */
async function checkOwnership(member: Authenticated, id: string): Promise<void> {
  if (!UPLOAD_ID.test(id)) throw new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE);
  const info = await tusServer().store.configstore.get(id);
  if (info?.metadata?.owner !== member.user.id) throw new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE);
}

/**
 * Every tus request, in `next dev` (the App Router route) and in
 * production (handed over by scripts/serve.ts before Next, so bodies stream
 * unbuffered): the caller is resolved as on every mutating route (session
 * cookie believed only from this site, or a bearer token), must be a member
 * who is not banned, and may only reach their own uploads; then tus answers
 * (`answer`) with the member at hand for its hooks. Runs inside the request's
 * `calls` context, so the upload's info read here is the one tus gets.
 */
async function authorise(request: NextRequest): Promise<Authenticated> {
  const id = new URL(request.url).pathname.slice(RESUMABLE_UPLOAD_PATH.length).replace(/^\//, '');
  // A PATCH's body waits in the socket until we read it: the upload's info is read while the caller is resolved, not after.
  // Only a well-formed id is read, and nothing of it is used before the caller passed.
  if (UPLOAD_ID.test(id)) void tusServer().store.configstore.get(id);
  const actor = distrustCrossSiteCookie(request, await resolveActor(request));
  const member = requireMember(actor);
  if (!['POST', 'HEAD', 'PATCH', 'DELETE'].includes(request.method)) throw new ApiError(405, METHOD_MESSAGE, {}, { Allow: 'POST, HEAD, PATCH, DELETE' });
  if (request.method === 'POST' ? id !== '' : true) await checkOwnership(member, id);
  // Only a new upload needs the folder made: any other request got here by naming an upload whose info is in it.
  else await mkdir(resumableDir(), { recursive: true });
  return member;
}

/**
 * Answers a tus request. With `body` (production, scripts/serve.ts), the
 * web request carries no body and the store writes the body from the Node
 * request, or has the upload receiver write it. A refusal before tus (not a member, not the caller's upload) is
 * answered like any API error.
 */
export function handleResumable(request: NextRequest, body?: IncomingMessage | ReceivedUpload): Promise<Response> {
  const call: Call = { body, infos: new Map() };
  return calls.run(call, async () => {
    try {
      call.member = await authorise(request);
    } catch (error) {
      return errorResponse(request, error);
    }
    return withRetryAfter(await tusServer().server.handleWeb(request));
  });
}

/** tus writes a hook's refusal without its headers: a 429 (or 503) gets its Retry-After back from the body, as every API error does. */
async function withRetryAfter(response: Response): Promise<Response> {
  if (response.status !== 429 && response.status !== 503) return response;
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // tus's own text answer: nothing to add.
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(errorHeaders(response.status, body))) headers.set(name, value);
  return new Response(text, { status: response.status, headers });
}

/** Deletes unfinished uploads older than RESUMABLE_UPLOAD_EXPIRY_HOURS (the sweep job); returns how many went. */
export async function sweepExpiredResumableUploads(): Promise<number> {
  await mkdir(resumableDir(), { recursive: true });
  return tusServer().server.cleanUpExpiredUploads();
}
