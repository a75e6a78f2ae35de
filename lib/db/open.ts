import 'server-only';

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import lockfile from 'proper-lockfile';

import { ownerIsGone, ownerIsLocal, ownerTag } from '../process-owner';
import { reportDatabaseOutage } from './connection-loss';
import { logger } from '../server/log';
import type { PoolStats } from '../server/metrics';

import * as schema from './schema';

const log = logger('db');

/** The query surface both engines share; services depend on this only. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Engine = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** The embedded engine's own client (backups dump its data directory); unset on PostgreSQL. */
  pglite?: PGlite;
  close(): Promise<void>;
  /** Connections now, for the metrics (lib/server/metrics): PGlite has one, always open. */
  poolStats(): PoolStats;
}

export interface OpenOptions {
  /** postgres:// URL; unset means the embedded PGlite database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
}

export const MIGRATIONS_DIR = path.join(process.cwd(), 'lib', 'db', 'migrations');

/** Arbitrary constant: serialises migrations when several processes start at once. */
const MIGRATION_LOCK_KEY = 7_246_531;

export class DatabaseLockedError extends Error {
  constructor(readonly directory: string) {
    super(
      `The embedded database in ${directory} is already open in another process. ` +
        'PGlite allows one process at a time: stop the other Chrysalis process (npm start, npm run dev, ' +
        'npm run db:migrate) or point DATA_DIR elsewhere, or set DATABASE_URL to use a PostgreSQL server. ' +
        'A lock left by a crashed process on this machine is taken over at once; one held from another machine (a shared folder) is waited for up to 20 seconds.',
    );
    this.name = 'DatabaseLockedError';
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (process.env.NEXT_PHASE === 'phase-production-build') {
    // A build worker holding the PGlite lock would block the server it builds,
    // and build output must not depend on one machine's data.
    throw new Error(
      'The database is not opened during `next build`; data pages must render at request time or from the runtime cache.',
    );
  }
  const handle = options.databaseUrl ? await openPostgres(options) : await openPglite(options);
  return handle;
}

/** How long a start waits for a lock whose owner it cannot see (another host, an older version) before giving up. */
export const LOCK_WAIT_MS = 20_000;

/**
 * Takes the embedded database's cross-process lock (`<directory>.lock`) for as
 * long as this process lives or until the returned release() is called; its
 * owner tag (lib/process-owner.ts) sits beside it. Throws DatabaseLockedError
 * when a live process holds it. The directory must exist.
 */
export async function lockPgliteDirectory(directory: string, waitMs: number = LOCK_WAIT_MS): Promise<() => Promise<void>> {
  const lockPath = `${directory}.lock`;
  const ownerPath = `${directory}.lock-owner`;
  const deadline = Date.now() + waitMs;
  let told = 0;
  const readOwner = () => {
    try {
      return readFileSync(ownerPath, 'utf8');
    } catch {
      // No tag: a lock from an older version, or its owner is writing the tag right now.
      return '';
    }
  };
  for (;;) {
    // A live owner on this host: a second opener would corrupt the database, so refuse at once, even when the
    // owner's refreshes lag (a busy event loop) and proper-lockfile would call its lock stale.
    const holder = readOwner();
    if (holder && ownerIsLocal(holder) && !ownerIsGone(holder)) throw new DatabaseLockedError(directory);
    try {
      const release = await lockfile.lock(directory, {
        lockfilePath: lockPath,
        stale: 10_000,
        update: 2_000,
        onCompromised: (error) => {
          // Another process may now open the files under us; stopping is the only safe move.
          log.fatal(
            { directory, err: error },
            `lost the lock on ${directory}: ${error.message}. Exiting to protect the database.`,
          );
          process.exit(1);
        },
      });
      writeFileSync(ownerPath, ownerTag());
      return async () => {
        rmSync(ownerPath, { force: true });
        await release();
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const owner = readOwner();
    if (owner && ownerIsGone(owner)) {
      // kill -9, a crash or a power cut: the process that held it is gone, so nobody writes these files now.
      log.warn(`the embedded database lock was left by process ${owner.split('-')[1]}, which is gone; taking it over`);
      rmSync(lockPath, { recursive: true, force: true });
      rmSync(ownerPath, { force: true });
      continue;
    }
    if (owner && ownerIsLocal(owner)) throw new DatabaseLockedError(directory);
    if (Date.now() >= deadline) throw new DatabaseLockedError(directory);
    if (Date.now() - told >= 5_000) {
      told = Date.now();
      log.info(
        `waiting for the lock on ${directory} to clear (held by a process we cannot see; up to ${Math.ceil((deadline - Date.now()) / 1000)} s more)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const directory = path.join(options.dataDir, 'pglite');
  mkdirSync(directory, { recursive: true });
  const release = await lockPgliteDirectory(directory);
  try {
    // pg_trgm ships with PGlite but must be loaded here before migration 0004 can create it.
    const client = await PGlite.create(directory, { extensions: { pg_trgm } });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    if (options.migrate !== false) await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    return {
      db,
      engine: 'pglite',
      poolStats: () => ({ max: 1, total: 1, idle: 1, waiting: 0 }),
      pglite: client,
      async close() {
        await client.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

async function openPostgres(options: OpenOptions): Promise<DatabaseHandle> {
  const max = 10;
  // A server that does not answer at all (a host down, a dropped route) fails a request in 10 s, as a 503, instead of holding it for minutes.
  const pool = new Pool({ connectionString: options.databaseUrl, max, connectionTimeoutMillis: 10_000 });
  // A connection the server cuts (restart, failover, an administrator) must never crash the process. pg-pool listens
  // for a connection's errors only while it sits idle (and re-emits them on the pool): one checked out for a query or
  // a transaction emitted 'error' with nobody listening, an uncaught exception. So each connection has a listener of
  // its own for its whole life, which reports the outage; the failed query tells its caller (a 503, a job retried),
  // and the pool opens new connections as they are needed.
  pool.on('connect', (client) => client.on('error', (error) => reportDatabaseOutage(error, 'a pooled connection')));
  // The re-emitted idle error, already reported by the connection's own listener above.
  pool.on('error', () => undefined);
  try {
    if (options.migrate !== false) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
        // The RUM search index (migration 0021) once the rum package is installed, without a migration of its own; a no-op when it exists.
        await client.query('SELECT chrysalis_ensure_search_rum_index()');
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    engine: 'postgres',
    close: () => pool.end(),
    poolStats: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** An open transaction: the same query surface, committed or rolled back together. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * What a query helper runs on: the database or a transaction inside it. Helpers
 * that write several rows take an Executor, so a service can make them part
 * of its own transaction.
 */
export type Executor = Database | Transaction;
