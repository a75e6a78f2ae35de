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
}

/** A fresh, migrated database: a temp PGlite directory, or a throwaway PostgreSQL schema. */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-test-'));
  const options =
    engine === 'pglite'
      ? { dataDir }
      : { dataDir, databaseUrl: process.env.TEST_DATABASE_URL!, pgSchema: `test_${randomBytes(6).toString('hex')}` };
  let handle = await openDatabase(options);
  const testDatabase: TestDatabase = {
    ...handle,
    dataDir,
    async reopen() {
      await handle.close();
      handle = await openDatabase(options);
      Object.assign(testDatabase, { db: handle.db });
      return handle;
    },
    async destroy() {
      await handle.close();
      if (options.databaseUrl) await dropSchema(options.databaseUrl, options.pgSchema!);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testDatabase;
}

async function dropSchema(databaseUrl: string, pgSchema: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
  await client.end();
}
