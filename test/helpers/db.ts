import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import { openDatabase, type DatabaseHandle, type Engine } from '@/lib/db/open';

/**
 * The engines integration tests run on: PGlite always, PostgreSQL too when
 * TEST_DATABASE_URL is set (.ci/run sets it). Use with describe.each.
 */
export const ENGINES: Engine[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends DatabaseHandle {
  /** Closes the database and removes everything the test created. */
  destroy(): Promise<void>;
  /** Closes this handle and opens the same database again (migrations run again and must be no-ops). */
  reopen(): Promise<DatabaseHandle>;
  dataDir: string;
  /** The scratch database's URL on PostgreSQL (for tests that start processes or connections of their own); unset on PGlite. */
  databaseUrl?: string;
}

/** A fresh, migrated database: a temp PGlite directory, or a throwaway PostgreSQL database. */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-test-'));
  const options = engine === 'pglite' ? { dataDir } : { dataDir, databaseUrl: await createScratchDatabase() };
  let handle = await openDatabase(options);
  const testDatabase: TestDatabase = {
    ...handle,
    dataDir,
    databaseUrl: options.databaseUrl,
    async reopen() {
      await handle.close();
      handle = await openDatabase(options);
      Object.assign(testDatabase, { db: handle.db });
      return handle;
    },
    async destroy() {
      await handle.close();
      if (options.databaseUrl) await dropScratchDatabase(options.databaseUrl);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testDatabase;
}

/** A throwaway database on the TEST_DATABASE_URL server, so each test file starts empty. */
export async function createScratchDatabase(): Promise<string> {
  const name = `chrysalis_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropScratchDatabase(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

async function adminQuery(statement: string) {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
