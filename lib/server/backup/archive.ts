import 'server-only';

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

import * as tar from 'tar-stream';
import { z } from 'zod';

import { decryptStream, encryptStream, isEncrypted, ENCRYPTED_MAGIC } from './encryption';
import { BackupError } from './errors';

/**
 * The backup archive (decision 024): one plain tar file holding
 * `database/…` (the engine's own dump, already compressed), `media/…` (local
 * media storage, as stored), `secrets/session-secret` when the site uses the
 * generated one, and `manifest.json` last, which lists every other entry with
 * its size and SHA-256. The manifest comes last so it can be written in the
 * same pass that reads each file once; a truncated archive has no manifest.
 * With a key (--key-file) the whole tar is encrypted as it is written
 * (lib/server/backup/encryption.ts).
 */

export { BackupError };

export const MANIFEST_NAME = 'manifest.json';
export const FORMAT = 'chrysalis-backup';
export const FORMAT_VERSION = 1;

const fileEntry = z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
export type ArchivedFile = z.infer<typeof fileEntry>;

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(FORMAT_VERSION),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  database: z.object({
    /** Entry holding the dump: database/pglite.tar.gz (PGlite#dumpDataDir) or database/postgres.dump (pg_dump -Fc). */
    file: z.string(),
    /** Server version the dump was taken from, and (PostgreSQL) the pg_dump that took it. */
    serverVersion: z.string(),
    dumpVersion: z.string().optional(),
  }),
  migrations: z.object({
    applied: z.number().int().min(0),
    /** The newest applied migration: its journal tag (null when the code that made the backup did not know it) and drizzle's created_at. */
    latestTag: z.string().nullable(),
    latestCreatedAt: z.number().nullable(),
    /** created_at of every applied migration, oldest first. */
    createdAt: z.array(z.number()),
  }),
  counts: z.object({ members: z.number().int(), videos: z.number().int() }),
  media: z.object({
    storage: z.enum(['local', 's3']),
    files: z.number().int(),
    bytes: z.number().int(),
    /** For S3: where the media stayed (the bucket is backed up by the provider). */
    note: z.string().optional(),
  }),
  files: z.array(fileEntry),
  /** SHA-256 of the file list (one `sha256 size path` line each, in order). */
  filesSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type Manifest = z.infer<typeof manifestSchema>;

export function fileListSha256(files: ArchivedFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.sha256} ${file.size} ${file.path}\n`);
  return hash.digest('hex');
}

/**
 * Entry names we write and accept: relative, `/`-separated, no empty, `.` or
 * `..` parts, no control characters or backslashes. Anything else in an
 * archive is refused before a byte of it is written.
 */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 1024 || name.startsWith('/')) return false;
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Writes an archive to `<out>.partial` and renames it to `out` only when complete. */
export class ArchiveWriter {
  readonly files: ArchivedFile[] = [];
  private readonly pack = tar.pack();
  private readonly partial: string;
  private readonly written: Promise<void>;

  constructor(
    readonly out: string,
    key?: Buffer,
  ) {
    this.partial = `${out}.partial`;
    // 0600: the archive holds every member's data (and maybe the session key).
    const file = createWriteStream(this.partial, { flags: 'wx', mode: 0o600 });
    this.written = key ? pipeline(this.pack, encryptStream(key), file) : pipeline(this.pack, file);
    this.written.catch(() => undefined); // surfaced by finish() or abort()
  }

  /** Streams a file into the archive as `name`, hashing it on the way (one read). */
  async addFile(name: string, source: string): Promise<ArchivedFile> {
    if (!isSafeEntryName(name)) throw new BackupError(`Refusing to archive a file with an unsafe name: ${JSON.stringify(name)}`);
    const info = await stat(source);
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await new Promise<void>((resolve, reject) => {
      // The file's own permissions, so a restore gives media back as readable as they were (e.g. to nginx).
      const entry = this.pack.entry({ name, size: info.size, mode: info.mode & 0o777, mtime: info.mtime }, (error) =>
        error ? reject(error) : resolve(),
      );
      pipeline(createReadStream(source), tap, entry).catch(reject);
    });
    const file = { path: name, size, sha256: hash.digest('hex') };
    this.files.push(file);
    return file;
  }

  /** Writes the manifest (with the file list and its checksum) last, then puts the archive in place. */
  async finish(manifest: Omit<Manifest, 'files' | 'filesSha256'>): Promise<Manifest> {
    const complete: Manifest = { ...manifest, files: this.files, filesSha256: fileListSha256(this.files) };
    const body = Buffer.from(`${JSON.stringify(complete, null, 2)}\n`);
    await new Promise<void>((resolve, reject) => {
      this.pack.entry({ name: MANIFEST_NAME, size: body.length, mode: 0o600, mtime: new Date() }, body, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    this.pack.finalize();
    await this.written;
    await rename(this.partial, this.out);
    return complete;
  }

  /** Stops writing and removes the partial file. */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.written.catch(() => undefined);
    await rm(this.partial, { force: true });
  }
}

const MANIFEST_LIMIT = 256 * 1024 * 1024;

/**
 * Extracts an archive into `staging` (which must be empty) and checks it
 * against its manifest: every listed file present with its size and SHA-256,
 * nothing unlisted, the file list's own checksum. Throws BackupError naming
 * the problem; the caller removes `staging`. An encrypted archive needs its
 * key, and with a key only an encrypted archive is accepted.
 */
export async function extractAndVerify(from: string, staging: string, key?: Buffer): Promise<Manifest> {
  const source = await openArchiveStream(from, key);
  const extract = tar.extract();
  const feeding = pipeline(source, extract);
  feeding.catch(() => undefined);
  const found = new Map<string, ArchivedFile>();
  let manifestText: string | null = null;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type !== 'file' || !isSafeEntryName(name))
        throw new BackupError(
          `The archive holds an entry Chrysalis never writes (${JSON.stringify(name)}, ${type}): refusing it.`,
        );
      if (found.has(name) || (name === MANIFEST_NAME && manifestText !== null))
        throw new BackupError(`The archive holds ${name} twice: refusing it.`);
      if (name === MANIFEST_NAME) {
        manifestText = await readSmall(entry as AsyncIterable<Buffer>, MANIFEST_LIMIT);
        continue;
      }
      const target = path.join(staging, name);
      await mkdir(path.dirname(target), { recursive: true });
      // Never more than the owner's and others' read and write: no executable or set-id bits from an archive.
      const mode = (entry.header.mode ?? 0o600) & 0o666;
      found.set(name, { ...(await writeHashed(entry as AsyncIterable<Buffer>, target, mode)), path: name });
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    source.destroy();
    // The extractor may only say it was destroyed: the stage that failed first (a cut or altered chunk) says why.
    const cause = await feeding.then(
      () => null,
      (failure: unknown) => failure,
    );
    if (error instanceof BackupError) throw error;
    if (cause instanceof BackupError) throw cause;
    throw new BackupError(`The archive ${from} is damaged or truncated (${(error as Error).message}).`);
  }
  if (manifestText === null)
    throw new BackupError(`The archive ${from} has no manifest.json: it is truncated or not a Chrysalis backup.`);
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw new BackupError(
      `The manifest of ${from} is not one this version of Chrysalis can read (format ${FORMAT} version ${FORMAT_VERSION}).`,
    );
  }
  if (fileListSha256(manifest.files) !== manifest.filesSha256)
    throw new BackupError(`The file list in the manifest of ${from} does not match its checksum: the archive was altered.`);
  for (const listed of manifest.files) {
    const got = found.get(listed.path);
    if (!got) throw new BackupError(`The archive ${from} lacks ${listed.path}, which its manifest lists.`);
    if (got.size !== listed.size || got.sha256 !== listed.sha256)
      throw new BackupError(`${listed.path} in ${from} does not match its checksum: the archive is damaged.`);
    found.delete(listed.path);
  }
  if (found.size > 0)
    throw new BackupError(
      `The archive ${from} holds files its manifest does not list (${[...found.keys()].slice(0, 3).join(', ')}): refusing it.`,
    );
  return manifest;
}

/** The archive's bytes: decrypted with the key, or gunzipped if an operator compressed it (gzip magic 1f 8b). */
async function openArchiveStream(from: string, key: Buffer | undefined): Promise<Readable> {
  const handle = await open(from, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`Cannot read ${from}: ${error.code === 'ENOENT' ? 'no such file' : error.message}.`);
  });
  const magic = Buffer.alloc(ENCRYPTED_MAGIC.length);
  await handle.read(magic, 0, magic.length, 0);
  await handle.close();
  const encrypted = isEncrypted(magic);
  if (encrypted && !key)
    throw new BackupError(`${from} is encrypted: give the key it was made with (--key-file FILE, or BACKUP_KEY_FILE).`);
  if (!encrypted && key) {
    throw new BackupError(
      `${from} is not encrypted, but a key was given (--key-file or BACKUP_KEY_FILE): refusing it, since nothing proves who wrote it. ` +
        'If you trust this archive, restore it without a key.',
    );
  }
  const file = createReadStream(from);
  const step = encrypted ? decryptStream(key!, from) : magic[0] === 0x1f && magic[1] === 0x8b ? createGunzip() : undefined;
  if (!step) return file;
  // The step itself is the source, so its own error (a BackupError from decryption) is what the reader sees.
  file.on('error', (error) => step.destroy(error));
  return file.pipe(step);
}

async function readSmall(stream: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) throw new BackupError('The archive manifest is implausibly large: refusing it.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function writeHashed(stream: AsyncIterable<Buffer>, target: string, mode: number): Promise<ArchivedFile> {
  const hash = createHash('sha256');
  let size = 0;
  const file = await open(target, 'wx', mode);
  try {
    for await (const chunk of stream) {
      hash.update(chunk);
      size += chunk.length;
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return { path: target, size, sha256: hash.digest('hex') };
}
