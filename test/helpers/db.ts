import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import { openDatabase, type DatabaseHandle, type Engine } from '@/lib/db/open';

import { adminQuery, copyPgliteTemplate, copyPostgresTemplate } from './db-template';

/** For tests that open an embedded database themselves, or hand its DATA_DIR to a process of their own: migrated already. */
export { copyPgliteTemplate };

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

/**
 * A fresh, migrated database: a temp PGlite directory, or a throwaway PostgreSQL database, each a copy of the
 * run's migrated template (test/helpers/db-template.ts). openDatabase still runs the migrations, as no-ops.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-test-'));
  if (engine === 'pglite') copyPgliteTemplate(dataDir);
  const options = engine === 'pglite' ? { dataDir } : { dataDir, databaseUrl: await createScratchDatabase('migrated') };
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

/**
 * A throwaway database on the TEST_DATABASE_URL server, so each test file starts on its own: 'migrated' is a copy of
 * the run's template, 'empty' has no tables at all (a restore target).
 */
export async function createScratchDatabase(contents: 'migrated' | 'empty'): Promise<string> {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `chrysalis_test_${randomBytes(6).toString('hex')}`;
  if (contents === 'migrated') await copyPostgresTemplate(serverUrl, name);
  else await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropScratchDatabase(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  await adminQuery(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
