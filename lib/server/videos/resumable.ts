import 'server-only';

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { FileConfigstore, FileStore, type Configstore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { ERRORS, Metadata } from '@tus/utils';
import type { NextRequest } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { writeBody, type BodyWritten } from '@/lib/front/upload-body';
import type { ReceivedUpload } from '@/lib/front/upload-receiver/protocol';
import { isDatabaseConnectionLoss, reportDatabaseOutage } from '@/lib/db/connection-loss';
import { RESUMABLE_UPLOAD_PATH } from '@/lib/upload-paths';
import {
  CONCAT_MESSAGE,
  LENGTH_REQUIRED_MESSAGE,
  TUS_HEADER_NAMES,
  TUS_VERSION,
  tusHeadersSchemas,
} from '@/lib/validation/resumable-uploads';

import { requireMember, type Authenticated } from '../auth/actor';
import { distrustCrossSiteCookie, resolveActor } from '../auth/session';
import { ApiError, badRequest, databaseUnavailable, errorHeaders } from '../errors';
import { errorResponse, serverErrorBody } from '../route-handler';
import { logger } from '../log';
import { metrics } from '../metrics';
import { consume, giveBack } from '../rate-limit';

import { storageFailure } from './storage-failure';
import { FileLocker } from './upload-lock';
import { readUploadFields, tooLarge, tooManyUploads, UPLOADS_TOO_OFTEN, videoFromUpload } from './upload';

const log = logger('upload');

/** Our upload ids (namingFunction): 32 hex digits. Anything else in the path is no upload of ours, and never reaches the file system. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const newUploadId = () => randomBytes(16).toString('hex');

export const UPLOAD_NOT_FOUND_MESSAGE = 'This upload was not found. It may have expired; start the upload again.';
export const UPLOAD_EXPIRED_MESSAGE = 'This upload has expired. Start the upload again.';
const METADATA_MESSAGE = 'Upload-Metadata is not valid: send comma-separated pairs of a key and its value in base64.';
const BUSY_MESSAGE = 'This upload is busy with another request. Try again in a moment.';
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
  /**
   * The upload the path names, read once by authorise() and checked to be the
   * member's: tus is given this id (getFileIdFromRequest), never one of its
   * own reading of the URL, so the upload checked is the upload touched.
   */
  uploadId?: string;
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
  return readUploadFields({
    title: value('title'),
    description: value('description'),
    category: value('category'),
    tags: value('tags'),
  });
}

/**
 * tus's FileStore, writing bodies with lib/front/upload-body.ts (a 1 MiB write
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
  override async getUpload(id: string): Promise<Upload> {
    this.infos.forget(id);
    try {
      return await super.getUpload(id);
    } catch (error) {
      // tus read the record, then found no file: a finished upload removed both meanwhile (another tab), or the file
      // alone is gone. Only a record still there without its file is an upload that no longer exists.
      if (error !== ERRORS.FILE_NO_LONGER_EXISTS) throw error;
      this.infos.forget(id);
      throw (await this.infos.get(id)) ? error : ERRORS.FILE_NOT_FOUND;
    }
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const body = calls.getStore()?.body;
    const file = path.join(this.directory, id);
    const stop = this.locker.signalOf(id);
    if (!body) return this.written(offset, await writeBody(readable, file, offset, Number.POSITIVE_INFINITY, stop));
    readable.resume(); // tus's own (empty) body stream: drained so its pipeline ends
    const upload = await this.configstore.get(id);
    const room = upload?.size === undefined ? Number.POSITIVE_INFINITY : upload.size - offset;
    const written =
      'writeBody' in body ? await body.writeBody({ file, offset, room }, stop) : await writeBody(body, file, offset, room, stop);
    return this.written(offset, written);
  }

  /**
   * The new offset after a body write, or tus's error for it (a client that
   * went away keeps what arrived; so does a full disk: the bytes written stay,
   * and the client resumes from them once there is room).
   */
  private written(offset: number, { bytes, outcome, cause }: BodyWritten): number {
    if (outcome === 'too-large') throw ERRORS.ERR_SIZE_EXCEEDED;
    if (outcome === 'failed') {
      const storage = cause && storageFailure(cause, 'receiving');
      throw storage ? refusal(storage) : ERRORS.FILE_WRITE_ERROR;
    }
    return offset + bytes;
  }
}

let tus: { server: Server; store: NodeBodyFileStore } | null = null;
/** Uploads whose last step runs now in this process (onUploadFinish). */
const finishing = new Set<string>();

/** The one tus server of this process, on the shared DATA_DIR. */
function tusServer(): { server: Server; store: NodeBodyFileStore } {
  if (tus) return tus;
  const config = getConfig();
  const directory = resumableDir();
  const locker = new FileLocker(directory);
  const store = new NodeBodyFileStore(
    {
      directory,
      configstore: new RequestConfigstore(new FileConfigstore(directory)),
      expirationPeriodInMilliseconds: config.resumableUploadExpiryMs,
    },
    locker,
  );
  const server = new Server({
    path: RESUMABLE_UPLOAD_PATH,
    datastore: store,
    locker,
    relativeLocation: true,
    namingFunction: newUploadId,
    // The id authorise() read from the path and checked: tus's own reading takes the URL's last segment, query included.
    getFileIdFromRequest: () => calls.getStore()?.uploadId,
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
      const member = caller();
      // The video goes to the upload's recorded owner, who must be the caller (authorise() checked the same upload).
      if (upload.metadata?.owner !== member.user.id) throw refusal(new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE));
      // tus lets go of the lock before this hook: a second PATCH of no bytes meanwhile must not make the video twice.
      if (finishing.has(upload.id)) throw { status_code: 423, body: JSON.stringify({ message: BUSY_MESSAGE }) };
      finishing.add(upload.id);
      const result = await finishResumable(member, upload, store).finally(() => finishing.delete(upload.id));
      return {
        status_code: 200,
        body: JSON.stringify(result),
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      };
    },
    onResponseError: async (req, error) => {
      // tus removed this request's lock before it failed; the answer waits for the file (not a success's: decision 026).
      const id = calls.getStore()?.uploadId;
      if (id) await store.locker.released(id);
      if (error === ERRORS.ERR_MAX_SIZE_EXCEEDED || error === ERRORS.ERR_SIZE_EXCEEDED)
        return refusal(tooLarge(getConfig().maxUploadBytes));
      if (error === ERRORS.FILE_NOT_FOUND) return refusal(new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE));
      if (error === ERRORS.FILE_NO_LONGER_EXISTS) return refusal(new ApiError(410, UPLOAD_EXPIRED_MESSAGE));
      // Checked before tus (authorise()); here too, as an extension we do not offer is no failure of ours.
      if (error === ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION) return refusal(badRequest(CONCAT_MESSAGE));
      if (error === ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION) return refusal(badRequest(LENGTH_REQUIRED_MESSAGE));
      // Another request of this upload held its lock too long (two tabs): the client retries a 423.
      if (error === ERRORS.ERR_LOCK_TIMEOUT) return { status_code: 423, body: JSON.stringify({ message: BUSY_MESSAGE }) };
      // Ours are JSON already (any status); tus's own (409 wrong offset, 403…) become JSON with their words.
      if ('status_code' in error && error.body.startsWith('{')) return error;
      if ('status_code' in error && error.status_code < 500)
        return { status_code: error.status_code, body: JSON.stringify({ message: error.body.trim() }) };
      // The disk refused (creating an upload's files, reading its size): a 507 or 503, logged with its cause.
      const storage = storageFailure(error, 'receiving');
      if (storage) {
        // A creation that failed made no upload: the daily upload counted for it goes back.
        if (req.method === 'POST') await giveBack('uploadsPerMember', caller().user.id);
        return refusal(storage);
      }
      // A lost database connection (a restart, a failover) is an outage the client waits out, as on every route.
      if (isDatabaseConnectionLoss(error)) {
        reportDatabaseOutage(error, `${req.method} ${RESUMABLE_UPLOAD_PATH}`);
        return refusal(databaseUnavailable());
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
 * (videoFromUpload). A finished video or a refusal (no video, too large) ends
 * the tus upload, so a file that is no video is deleted and a finished one is
 * not kept twice. A failure on our side (a full media disk: 507) keeps it,
 * complete: the client's retry finds the full offset (HEAD) and runs this
 * step again with a PATCH of no bytes, without sending the file again; the
 * expiry sweep removes it if no retry comes. The upload still exists, so its
 * daily count stays spent, and the retry costs none.
 */
async function finishResumable(member: Authenticated, upload: Upload, store: NodeBodyFileStore) {
  const file = path.join(store.directory, upload.id);
  const discard = async () => {
    // The record first, so a record never stays without its file; a crash between the two leaves a file without a
    // record, which the sweep removes.
    await rm(`${file}.json`, { force: true });
    await rm(file, { force: true });
    // The last PATCH's lock file goes in the background (upload-lock.ts); after the final answer nothing of the upload is left.
    await store.locker.released(upload.id);
  };
  try {
    // The size was checked at creation against the cap of that day; the cap may have been lowered since.
    if ((upload.size ?? 0) > getConfig().maxUploadBytes) throw tooLarge(getConfig().maxUploadBytes);
    const result = await videoFromUpload(
      member,
      { path: file, bytes: upload.size ?? 0, originalName: upload.metadata?.filename ?? '' },
      fieldsOf(upload.metadata),
    );
    metrics().uploadBytes.inc({ outcome: 'stored' }, upload.size ?? 0);
    await discard();
    return result;
  } catch (error) {
    metrics().uploadBytes.inc({ outcome: 'refused' }, upload.size ?? 0);
    if (!(error instanceof ApiError)) throw error;
    if (error.status < 500) await discard();
    throw refusal(error);
  }
}

/**
 * The one reading of the upload a tus request names, from the parsed path
 * alone: `null` for the endpoint itself (where POST starts an upload), the id
 * for exactly one segment of 32 hex digits after it, `undefined` for any
 * other spelling (a second segment, an encoded slash, a trailing slash, a
 * semicolon…). The query and fragment are no part of it, whatever tus would
 * make of them.
 */
function uploadIdOf(request: NextRequest): string | null | undefined {
  const { pathname } = new URL(request.url);
  if (pathname === RESUMABLE_UPLOAD_PATH) return null;
  const id = pathname.startsWith(`${RESUMABLE_UPLOAD_PATH}/`) ? pathname.slice(RESUMABLE_UPLOAD_PATH.length + 1) : '';
  return UPLOAD_ID.test(id) ? id : undefined;
}

/**
 * Whose upload the path names: 404 unless it is the caller's (someone
 * else's upload is as absent as one that never was: nothing to learn from
 * the answer).
 */
async function checkOwnership(member: Authenticated, id: string | null | undefined): Promise<string> {
  if (!id) throw new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE);
  const info = await tusServer().store.configstore.get(id);
  if (info?.metadata?.owner !== member.user.id) throw new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE);
  return id;
}

/**
 * The tus headers of this method (lib/validation/resumable-uploads.ts) and,
 * on POST, Upload-Metadata as tus parses it: a 412 for another tus version
 * (with our Tus-Version, as the protocol asks), a 415 for a PATCH body of
 * another type, a 400 for the rest, before tus answers in words of its own.
 */
function checkTusHeaders(request: NextRequest): void {
  const schema = tusHeadersSchemas[request.method as keyof typeof tusHeadersSchemas];
  const headers = Object.fromEntries(TUS_HEADER_NAMES.map((name) => [name, request.headers.get(name) ?? undefined]));
  const result = schema.safeParse(headers);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const header = String(issue.path[0]);
    if (header === 'tus-resumable')
      throw new ApiError(412, issue.message, {}, { 'Tus-Version': TUS_VERSION, 'Tus-Resumable': TUS_VERSION });
    throw new ApiError(header === 'content-type' ? 415 : 400, issue.message);
  }
  const metadata = request.headers.get('upload-metadata');
  if (request.method === 'POST' && metadata !== null) {
    try {
      Metadata.parse(metadata);
    } catch {
      throw badRequest(METADATA_MESSAGE);
    }
  }
}

/**
 * Every tus request, in `next dev` (the App Router route) and in
 * production (handed over by scripts/serve.ts before Next, so bodies stream
 * unbuffered): the caller is resolved as on every mutating route (session
 * cookie believed only from this site, or a bearer token), must be a member
 * who is not banned, and may only reach their own uploads, named by the one
 * id read from the path (uploadIdOf), which is also the id tus gets; then the
 * tus headers are checked, and tus answers with the member and the id at hand
 * for its hooks. Runs inside the request's `calls` context, so the upload's
 * info read here is the one tus gets.
 */
async function authorise(request: NextRequest, call: Call): Promise<Authenticated> {
  const id = uploadIdOf(request);
  // A PATCH's body waits in the socket until we read it: the upload's info is read while the caller is resolved, not after.
  // Only a well-formed id is read, and nothing of it is used before the caller passed.
  if (id) void tusServer().store.configstore.get(id);
  const actor = distrustCrossSiteCookie(request, await resolveActor(request));
  const member = requireMember(actor);
  if (!['POST', 'HEAD', 'PATCH', 'DELETE'].includes(request.method))
    throw new ApiError(405, METHOD_MESSAGE, {}, { Allow: 'POST, HEAD, PATCH, DELETE' });
  if (request.method === 'POST') {
    // Uploads start at the endpoint itself; a POST to an upload's address is no request of the protocol.
    if (id !== null) throw new ApiError(404, UPLOAD_NOT_FOUND_MESSAGE);
  } else {
    call.uploadId = await checkOwnership(member, id);
  }
  checkTusHeaders(request);
  // Only a new upload needs the folder made: any other request got here by naming an upload whose info is in it.
  if (request.method === 'POST')
    await mkdir(resumableDir(), { recursive: true }).catch((error: unknown) =>
      Promise.reject(storageFailure(error, 'receiving') ?? error),
    );
  return member;
}

/**
 * tus's answer as every API answer: an error is JSON (tus writes some of its
 * own refusals as text before any hook can word them), not cached, and a 429
 * or 503 says when to come back (tus writes a hook's refusal without its
 * headers: Retry-After comes back from the body, as on every API error).
 */
async function asApiAnswer(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { message: text.trim() || 'This upload request could not be handled.' };
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  headers.set('cache-control', 'no-store');
  for (const [name, value] of Object.entries(errorHeaders(response.status, body))) headers.set(name, value);
  return new Response(JSON.stringify(body), { status: response.status, headers });
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
      call.member = await authorise(request, call);
    } catch (error) {
      return errorResponse(request, error);
    }
    return asApiAnswer(await tusServer().server.handleWeb(request));
  });
}

/** Deletes unfinished uploads older than RESUMABLE_UPLOAD_EXPIRY_HOURS (the sweep job); returns how many went. */
export async function sweepExpiredResumableUploads(): Promise<number> {
  const directory = resumableDir();
  await mkdir(directory, { recursive: true });
  const expired = await tusServer().server.cleanUpExpiredUploads();
  return expired + (await sweepFilesWithoutRecord(directory));
}

/** Upload files whose record is gone (a crash between the two removals, or in tus's create) go once they are as old as an expired upload. */
async function sweepFilesWithoutRecord(directory: string): Promise<number> {
  const names = new Set(await readdir(directory));
  const before = Date.now() - getConfig().resumableUploadExpiryMs;
  let removed = 0;
  for (const name of names) {
    if (name.includes('.') || names.has(`${name}.json`)) continue;
    const file = path.join(directory, name);
    const stats = await stat(file).catch(() => null);
    if (!stats?.isFile() || stats.mtimeMs > before) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
