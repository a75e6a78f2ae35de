import 'server-only';

import { getConfig } from '@/lib/config/server';

import { openDatabase, type Database, type DatabaseHandle } from './open';

export type { Database, Executor, Transaction } from './open';

// Kept on globalThis so dev-mode module reloads reuse the open database
// instead of tripping over their own PGlite lock.
const globalForDb = globalThis as typeof globalThis & { __chrysalisDb?: Promise<DatabaseHandle> };

/** The process-wide database, opened and migrated on first use. */
export function getDatabaseHandle(): Promise<DatabaseHandle> {
  if (!globalForDb.__chrysalisDb) {
    const config = getConfig();
    globalForDb.__chrysalisDb = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    // A failed open must not be cached: the next caller tries again.
    globalForDb.__chrysalisDb.catch(() => {
      globalForDb.__chrysalisDb = undefined;
    });
  }
  return globalForDb.__chrysalisDb;
}

export async function getDb(): Promise<Database> {
  return (await getDatabaseHandle()).db;
}

/**
 * Installs an already-open database as this process's database (integration
 * tests open one per test file; a future worker script may share one).
 */
export function installDatabase(handle: DatabaseHandle): void {
  globalForDb.__chrysalisDb = Promise.resolve(handle);
}

/** Runs raw SQL and returns its rows; node-postgres and PGlite both answer { rows }. */
export async function queryRows<T>(db: Database, query: import('drizzle-orm').SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
