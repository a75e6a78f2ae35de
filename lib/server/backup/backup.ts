import 'server-only';

import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import type { ServerConfig } from '@/lib/config/server';
import { DatabaseLockedError, openDatabase, type DatabaseHandle } from '@/lib/db/open';

import { ArchiveWriter, BackupError, type Manifest } from './archive';
import {
  databaseProblem,
  majorVersion,
  migrationLevel,
  pgConnection,
  pgTool,
  run,
  serverVersion,
  siteCounts,
  toolVersion,
} from './database';

export interface BackupOptions {
  config: ServerConfig;
  /** The archive to write; must not exist yet. */
  out: string;
  /** Encrypts the archive with this key (readKeyFile()); without it the archive is a plain tar. */
  key?: Buffer;
  log?: (line: string) => void;
}

export const SESSION_SECRET_ENTRY = 'secrets/session-secret';

/**
 * `npm run backup`: the database (pg_dump -Fc, or PGlite's dump of its data
 * directory), local media and the generated session key into one archive
 * with a manifest (lib/server/backup/archive.ts). The embedded database is
 * backed up only while no server holds its lock: PGlite is one process's,
 * and reading its files under a running server would copy a torn database.
 */
export async function createBackup({ config, out, key, log = console.log }: BackupOptions): Promise<Manifest> {
  const target = path.resolve(out);
  const mediaRoot = path.join(config.dataDir, 'media');
  if (existsSync(target))
    throw new BackupError(`${target} already exists: choose another --out (a backup never overwrites a file).`);
  if (target.startsWith(mediaRoot + path.sep)) throw new BackupError(`--out must not be inside the media folder ${mediaRoot}.`);
  if (!existsSync(path.dirname(target))) throw new BackupError(`The folder ${path.dirname(target)} does not exist.`);

  const work = await mkdtemp(path.join(path.dirname(target), '.chrysalis-backup-'));
  let handle: DatabaseHandle | undefined;
  let writer: ArchiveWriter | undefined;
  try {
    handle = await openForBackup(config);
    const counts = await siteCounts(handle.db).catch((error: unknown) => {
      throw databaseProblem(error, `Cannot read ${describeSource(config)}`);
    });
    const migrations = await migrationLevel(handle.db);
    const version = await serverVersion(handle.db);
    log(
      `[backup] ${describeSource(config)}: ${counts.members} members, ${counts.videos} videos, migration ${migrations.latestTag ?? migrations.latestCreatedAt}`,
    );

    const database = handle.engine === 'pglite' ? await dumpPglite(handle, work) : await dumpPostgres(config, version, work);
    writer = new ArchiveWriter(target, key);
    await writer.addFile(database.file, database.local);
    await rm(database.local, { force: true });

    const media = config.mediaS3 ? skipS3(config, log) : await archiveMedia(writer, mediaRoot, log);
    await archiveSecrets(writer, config, key !== undefined, log);

    const manifest = await writer.finish({
      format: 'chrysalis-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      engine: handle.engine,
      database: {
        file: database.file,
        serverVersion: version,
        ...(database.dumpVersion ? { dumpVersion: database.dumpVersion } : {}),
      },
      migrations,
      counts,
      media,
    });
    writer = undefined;
    return manifest;
  } finally {
    await writer?.abort();
    await handle?.close();
    await rm(work, { recursive: true, force: true });
  }
}

function describeSource(config: ServerConfig): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${config.dataDir}`;
}

async function openForBackup(config: ServerConfig): Promise<DatabaseHandle> {
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'))) {
    throw new BackupError(
      `There is no embedded database in ${config.dataDir} (DATA_DIR) to back up; set DATA_DIR, or DATABASE_URL for PostgreSQL.`,
    );
  }
  try {
    // No migrations: a backup records the database as it is.
    return await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: false });
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new BackupError(
        `The embedded database in ${config.dataDir} is in use by a running Chrysalis process (npm start, npm run dev or a script). ` +
          'PGlite can be read by one process only, and copying its files under a running server would save a torn database, ' +
          'so the backup was not taken. Stop the server, run npm run backup, and start it again (it takes as long as the dump); ' +
          'for backups without downtime, run on PostgreSQL (DATABASE_URL).',
      );
    }
    throw error;
  }
}

interface Dump {
  file: string;
  local: string;
  dumpVersion?: string;
}

async function dumpPglite(handle: DatabaseHandle, work: string): Promise<Dump> {
  const local = path.join(work, 'pglite.tar.gz');
  // PGlite's own tarball of its data directory, gzipped; held in memory while written out.
  const blob = await handle.pglite!.dumpDataDir('gzip');
  await pipeline(Readable.fromWeb(blob.stream() as WebReadableStream<Uint8Array>), createWriteStream(local, { mode: 0o600 }));
  return { file: 'database/pglite.tar.gz', local };
}

async function dumpPostgres(config: ServerConfig, version: string, work: string): Promise<Dump> {
  const dumpVersion = await toolVersion(config, 'pg_dump');
  if (majorVersion(dumpVersion) < majorVersion(version)) {
    throw new BackupError(
      `${dumpVersion} cannot dump a PostgreSQL ${version} server: pg_dump must be of the server's major version or newer. ` +
        `Install postgresql-client-${majorVersion(version)} (PGDG packages on Debian) or set PG_BIN_DIR to its bin folder.`,
    );
  }
  const local = path.join(work, 'postgres.dump');
  const connection = pgConnection(config.databaseUrl!);
  // Custom format: compressed, one consistent snapshot, restorable into another database by pg_restore.
  const result = await run(
    pgTool(config, 'pg_dump'),
    ['--format=custom', `--file=${local}`, `--dbname=${connection.dbname}`],
    connection.env,
  );
  if (result.code !== 0) throw new BackupError(`pg_dump failed (exit ${result.code}): ${result.stderr.trim()}`);
  return { file: 'database/postgres.dump', local, dumpVersion };
}

function skipS3(config: ServerConfig, log: (line: string) => void): Manifest['media'] {
  const where = `s3://${config.mediaS3!.bucket}${config.mediaS3!.prefix ? `/${config.mediaS3!.prefix}` : ''}`;
  log(
    `[backup] media are in ${where}: not copied. Back the bucket up with the provider's versioning or replication (see docs/operations.md).`,
  );
  return { storage: 's3', files: 0, bytes: 0, note: `media stayed in ${where}` };
}

async function archiveMedia(writer: ArchiveWriter, mediaRoot: string, log: (line: string) => void): Promise<Manifest['media']> {
  let files = 0;
  let bytes = 0;
  for (const relative of await listFiles(mediaRoot)) {
    // A live site (PostgreSQL) may purge a deleted video's files while the backup runs: those are skipped, not fatal.
    if (!existsSync(path.join(mediaRoot, relative))) {
      log(`[backup] media/${relative} was deleted during the backup: skipped`);
      continue;
    }
    const archived = await writer.addFile(`media/${relative}`, path.join(mediaRoot, relative));
    files += 1;
    bytes += archived.size;
  }
  log(`[backup] media: ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MB from ${mediaRoot}`);
  return { storage: 'local', files, bytes };
}

/** Regular files under root, relative and `/`-separated, sorted; leftovers of interrupted copies (`*.partial`) are skipped. */
async function listFiles(root: string, prefix = ''): Promise<string[]> {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const entries = (await readdir(path.join(root, prefix), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await listFiles(root, relative)));
    else if (entry.isFile() && !entry.name.endsWith('.partial')) found.push(relative);
  }
  return found;
}

async function archiveSecrets(writer: ArchiveWriter, config: ServerConfig, encrypted: boolean, log: (line: string) => void) {
  const generated = path.join(config.dataDir, 'session-secret');
  if (config.sessionSecret) {
    log(
      "[backup] SESSION_SECRET is set in the environment, so it is not in the archive: keep it with the backup (admins' two-factor secrets are sealed with it).",
    );
  } else if (existsSync(generated)) {
    await writer.addFile(SESSION_SECRET_ENTRY, generated);
    log(
      encrypted
        ? "[backup] included DATA_DIR/session-secret (admins' two-factor secrets are sealed with it), encrypted with the rest."
        : "[backup] included DATA_DIR/session-secret IN CLEAR (it seals session cookies and admins' two-factor secrets): whoever reads this archive can forge sessions and read those secrets. Encrypt with --key-file.",
    );
  }
  if (existsSync(path.join(config.dataDir, 'verification-key'))) {
    log(
      '[backup] DATA_DIR/verification-key is NOT in the archive: identity documents are sealed with it; back it up apart from the database (decision 013).',
    );
  }
}
