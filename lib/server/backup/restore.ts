import 'server-only';

import { spawn } from 'node:child_process';
import { existsSync, openAsBlob, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';

import type { ServerConfig } from '@/lib/config/server';
import { queryRows, type Database } from '@/lib/db';
import { DatabaseLockedError, lockPgliteDirectory, openDatabase, type Engine } from '@/lib/db/open';

import { BackupError, extractAndVerify, type Manifest } from './archive';
import { SESSION_SECRET_ENTRY } from './backup';
import { databaseProblem, knownMigrations, majorVersion, pgConnection, pgTool, run, siteCounts, toolVersion } from './database';

export interface RestoreOptions {
  config: ServerConfig;
  /** The archive written by npm run backup. */
  from: string;
  /** Replace a database, media folder or session key that is already there. */
  force?: boolean;
  /** The key an encrypted archive was made with (readKeyFile()); with it, only an encrypted archive is accepted. */
  key?: Buffer;
  log?: (line: string) => void;
}

const ENGINE_NAMES: Record<Engine, string> = {
  pglite: 'the embedded database (DATABASE_URL unset)',
  postgres: 'PostgreSQL (DATABASE_URL set)',
};

/**
 * `npm run restore`: puts a backup into an empty target (the configured
 * DATABASE_URL or DATA_DIR). The whole archive is extracted into a staging
 * folder inside DATA_DIR and checked against its manifest before anything
 * is touched; the database is loaded in one transaction (PostgreSQL) or into
 * a staged directory (PGlite), and staged folders are renamed into place at
 * the end. So a damaged archive, a refused check or a failed load leaves the
 * target as it was. Migrations newer than the backup apply at the next start.
 */
export async function restoreBackup({ config, from, force = false, key, log = console.log }: RestoreOptions): Promise<Manifest> {
  const source = path.resolve(from);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist (--from).`);
  const engine: Engine = config.databaseUrl ? 'postgres' : 'pglite';
  const mediaRoot = path.join(config.dataDir, 'media');
  const pgliteDir = path.join(config.dataDir, 'pglite');
  await mkdir(config.dataDir, { recursive: true });

  // Cheap refusals first, before reading a possibly large archive.
  const createdPgliteDir = engine === 'pglite' && !existsSync(pgliteDir);
  let release: (() => Promise<void>) | undefined;
  if (engine === 'pglite') {
    await mkdir(pgliteDir, { recursive: true });
    release = await lockForRestore(pgliteDir, config);
  }
  let staging: string | undefined;
  let restored = false;
  try {
    if (engine === 'pglite' && !force && (await isNonEmpty(pgliteDir))) throw notEmpty(`the embedded database in ${pgliteDir}`);
    if (engine === 'postgres' && !force && (await postgresHasTables(config)))
      throw notEmpty('the PostgreSQL database at DATABASE_URL');
    if (!config.mediaS3 && !force && (await isNonEmpty(mediaRoot))) throw notEmpty(`the media folder ${mediaRoot}`);

    staging = await mkdtemp(path.join(config.dataDir, '.restore-'));
    log(`[restore] reading and checking ${source}`);
    const manifest = await extractAndVerify(source, staging, key);
    const pending = checkManifest(manifest, engine, config, staging, force);
    log(
      `[restore] backup of ${manifest.createdAt}: ${manifest.counts.members} members, ${manifest.counts.videos} videos, ${manifest.media.files} media files; checksums match`,
    );

    const database = path.join(staging, manifest.database.file);
    if (engine === 'pglite') await restorePglite(database, path.join(staging, 'pglite-data'), pgliteDir, manifest);
    else await restorePostgres(config, database, manifest, force);
    log(`[restore] database restored into ${ENGINE_NAMES[engine]}`);

    if (manifest.media.storage === 'local') {
      await mkdir(path.join(staging, 'media'), { recursive: true });
      await swapInto(path.join(staging, 'media'), mediaRoot);
      log(`[restore] media restored into ${mediaRoot}`);
    } else {
      log(
        `[restore] the backup holds no media: they stayed in S3 (${manifest.media.note ?? 'the bucket'}); point MEDIA_S3_* at that bucket.`,
      );
    }
    await restoreSessionSecret(config, staging, log);
    restored = true;
    log(
      pending.length > 0
        ? `[restore] done. ${pending.length} migration(s) newer than the backup (${pending.join(', ')}) will apply at the next start.`
        : '[restore] done. Start the site (npm start) as usual.',
    );
    return manifest;
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true });
    await release?.();
    if (createdPgliteDir && !restored) await rmdir(pgliteDir).catch(() => undefined);
  }
}

function notEmpty(what: string): BackupError {
  return new BackupError(
    `Refusing to restore: ${what} is not empty. Restore into an empty target, or add --force to replace what is there.`,
  );
}

async function lockForRestore(pgliteDir: string, config: ServerConfig) {
  try {
    return await lockPgliteDirectory(pgliteDir);
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new BackupError(
        `The embedded database in ${config.dataDir} is open in a running Chrysalis process: stop it before restoring.`,
      );
    }
    throw error;
  }
}

async function isNonEmpty(directory: string): Promise<boolean> {
  if (!existsSync(directory)) return false;
  return (await readdir(directory)).length > 0;
}

async function postgresHasTables(config: ServerConfig): Promise<boolean> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: false });
  try {
    const [row] = await queryRows<{ tables: number }>(
      handle.db,
      sql`SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    return row!.tables > 0;
  } catch (error) {
    throw databaseProblem(
      error,
      'Cannot open the PostgreSQL database at DATABASE_URL (create an empty one first, e.g. with createdb)',
    );
  } finally {
    await handle.close();
  }
}

/** Refuses a backup this target or this code cannot take; returns the migrations that will apply at the next start. */
function checkManifest(manifest: Manifest, engine: Engine, config: ServerConfig, staging: string, force: boolean): string[] {
  if (manifest.engine !== engine) {
    throw new BackupError(
      `This is a backup of ${ENGINE_NAMES[manifest.engine]}, and the target is ${ENGINE_NAMES[engine]}: restore it with the same engine.`,
    );
  }
  const known = knownMigrations();
  const unknown = manifest.migrations.createdAt.filter((when) => !known.some((migration) => migration.when === when));
  if (unknown.length > 0) {
    throw new BackupError(
      `The backup's database is at a migration this code does not have (${manifest.migrations.latestTag ?? manifest.migrations.latestCreatedAt}): ` +
        'it was made by a newer version of Chrysalis. Restore it with that version (or newer).',
    );
  }
  if (config.mediaS3 && manifest.media.files > 0) {
    throw new BackupError(
      `The backup holds ${manifest.media.files} local media files, but this site keeps media in S3 (MEDIA_S3_BUCKET): ` +
        'restore with MEDIA_S3_* unset, then copy DATA_DIR/media into the bucket (for example with aws s3 sync).',
    );
  }
  const secret = path.join(config.dataDir, 'session-secret');
  if (!force && existsSync(secret) && existsSync(path.join(staging, SESSION_SECRET_ENTRY))) {
    if (readFileSync(secret, 'utf8').trim() !== readFileSync(path.join(staging, SESSION_SECRET_ENTRY), 'utf8').trim()) {
      throw new BackupError(
        `${secret} holds another session key than the backup's: add --force to replace it (sessions made with it end).`,
      );
    }
  }
  return known.filter((migration) => !manifest.migrations.createdAt.includes(migration.when)).map((migration) => migration.tag);
}

async function restorePglite(dump: string, staged: string, pgliteDir: string, manifest: Manifest) {
  const client = await PGlite.create(staged, { extensions: { pg_trgm }, loadDataDir: await openAsBlob(dump) });
  try {
    await expectCounts(drizzle(client) as unknown as Database, manifest);
  } finally {
    await client.close();
  }
  await swapInto(staged, pgliteDir);
}

/** The restored database must hold what the manifest counted. */
async function expectCounts(db: Database, manifest: Manifest) {
  const counts = await siteCounts(db);
  if (counts.members !== manifest.counts.members || counts.videos !== manifest.counts.videos) {
    throw new BackupError(
      `The restored database holds ${counts.members} members and ${counts.videos} videos, the manifest ${manifest.counts.members} and ${manifest.counts.videos}.`,
    );
  }
}

/**
 * pg_restore writes the dump as SQL into psql, which runs it (after the
 * drops --force asks for) in one transaction with ON_ERROR_STOP: any error
 * rolls everything back. No owners or grants: the target's role owns it all.
 */
async function restorePostgres(config: ServerConfig, dump: string, manifest: Manifest, force: boolean) {
  const restoreVersion = await toolVersion(config, 'pg_restore');
  await toolVersion(config, 'psql');
  if (manifest.database.dumpVersion && majorVersion(restoreVersion) < majorVersion(manifest.database.dumpVersion)) {
    throw new BackupError(
      `${restoreVersion} cannot read a dump made by ${manifest.database.dumpVersion}: install that client version or newer, or set PG_BIN_DIR.`,
    );
  }
  const connection = pgConnection(config.databaseUrl!);
  const producer = spawn(pgTool(config, 'pg_restore'), ['--no-owner', '--no-privileges', '--file=-', dump], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let producerErrors = '';
  producer.stderr.setEncoding('utf8').on('data', (chunk: string) => (producerErrors = (producerErrors + chunk).slice(-16_000)));
  const produced = new Promise<number | null>((resolve, reject) => {
    producer.on('error', reject);
    producer.on('close', resolve);
  });
  const drops = force
    ? ['-c', 'DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;']
    : [];
  const psql = await run(
    pgTool(config, 'psql'),
    ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', ...drops, '-f', '-', `--dbname=${connection.dbname}`],
    connection.env,
    producer.stdout,
  );
  const producerCode = await produced;
  if (producerCode !== 0 || psql.code !== 0) {
    throw new BackupError(
      `Restoring the PostgreSQL dump failed, and was rolled back: ${(producerErrors + psql.stderr).trim() || `exit ${producerCode}/${psql.code}`}`,
    );
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: false });
  try {
    await expectCounts(handle.db, manifest);
  } finally {
    await handle.close();
  }
}

/** Renames a staged folder to target; whatever was there (only with --force) is moved aside first and removed after. */
async function swapInto(staged: string, target: string) {
  let aside: string | undefined;
  if (existsSync(target)) {
    aside = `${target}.replaced-${Date.now()}`;
    await rename(target, aside);
  }
  await rename(staged, target);
  if (aside) await rm(aside, { recursive: true, force: true });
}

async function restoreSessionSecret(config: ServerConfig, staging: string, log: (line: string) => void) {
  const staged = path.join(staging, SESSION_SECRET_ENTRY);
  if (!existsSync(staged)) return;
  await writeFile(path.join(config.dataDir, 'session-secret'), readFileSync(staged), { mode: 0o600 });
  if (config.sessionSecret) {
    log(
      "[restore] SESSION_SECRET is set, so the restored DATA_DIR/session-secret is not used: admins' two-factor needs the key the backup was made with (its value is in DATA_DIR/session-secret).",
    );
  }
}
