/**
 * Migrated template databases for the integration tests, one per engine, made once per run and copied per test file
 * (decision 047). Initialising a PGlite cluster and running every migration took each test file tens of seconds on a
 * busy machine, on each engine; a copy takes a fraction of that, and the migrations that openDatabase runs on it are
 * no-ops.
 *
 * The templates are named after a hash of the migrations folder (and, for PGlite, its version: a data directory is
 * tied to the engine that wrote it), so a changed migration gets a new template and a stale one is never used. They are
 * made by `npm run db:migrate` (scripts/db-migrate.ts), exactly as an operator migrates a database.
 *
 * Loaded by Jest's globalSetup (test/helpers/integration-setup.ts), outside the test environment: no `@/` imports and
 * nothing that imports 'server-only'.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  constants,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from 'pg';

const ROOT = path.resolve(__dirname, '..', '..');
const MIGRATIONS = path.join(ROOT, 'lib', 'db', 'migrations');

/** Templates of another hash unused this long are removed (a migration changed, or a branch was left): another checkout may still use a recent one. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Serialises template builds on one PostgreSQL server (several checkouts running tests at once). Arbitrary. */
const TEMPLATE_LOCK_KEY = 7_246_532;
/** PostgreSQL's object_in_use: the template had a connection at that instant (another CREATE … TEMPLATE, a build). */
const OBJECT_IN_USE = '55006';

/** The first 12 hex digits of a SHA-256 over every file of a migrations folder, names and contents, plus `extra`. */
export function migrationsHash(extra: string, folder = MIGRATIONS): string {
  const hash = createHash('sha256').update(extra);
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(path.join(folder, file)));
  return hash.digest('hex').slice(0, 12);
}

function pgliteVersion(): string {
  return (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

const PGLITE_PREFIX = 'chrysalis-test-template-';
const POSTGRES_PREFIX = 'chrysalis_template_';

/** The migrated PGlite DATA_DIR (its cluster is `<dir>/pglite`, as openDatabase lays it out). */
export function pgliteTemplateDir(): string {
  return path.join(os.tmpdir(), `${PGLITE_PREFIX}${migrationsHash(`pglite ${pgliteVersion()}`)}`);
}

/** The migrated PostgreSQL database that CREATE DATABASE … TEMPLATE copies. */
export function postgresTemplateName(): string {
  return `${POSTGRES_PREFIX}${migrationsHash('postgres')}`;
}

/** Makes the templates that are missing (PostgreSQL only with TEST_DATABASE_URL), and removes long-unused stale ones. */
export async function ensureTemplates(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  await Promise.all([ensurePgliteTemplate(), serverUrl ? ensurePostgresTemplate(serverUrl) : undefined]);
}

/** A fresh PGlite DATA_DIR's database: a copy of the template's closed cluster into `<dataDir>/pglite`. */
export function copyPgliteTemplate(dataDir: string): void {
  const template = path.join(pgliteTemplateDir(), 'pglite');
  if (!existsSync(template))
    throw new Error(`No PGlite template at ${template}: run the tests through Jest (its globalSetup makes it).`);
  // A copy-on-write clone where the file system can (btrfs, XFS), a plain copy elsewhere. Never hard links: PGlite writes its files in place.
  cpSync(template, path.join(dataDir, 'pglite'), { recursive: true, mode: constants.COPYFILE_FICLONE });
}

/**
 * CREATE DATABASE `name` as a copy of the PostgreSQL template. PostgreSQL refuses while the template has a session,
 * which another worker's copy holds for a moment, so that refusal is retried.
 */
export async function copyPostgresTemplate(serverUrl: string, name: string): Promise<void> {
  const template = postgresTemplateName();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

async function ensurePgliteTemplate(): Promise<void> {
  const final = pgliteTemplateDir();
  removeStalePgliteTemplates(final);
  if (existsSync(path.join(final, 'pglite'))) {
    // Its modification time is its last use, which the stale sweep of other checkouts reads.
    const now = new Date();
    utimesSync(final, now, now);
    return;
  }
  // Built beside and renamed into place, so a run that dies mid-build, or two runs building at once, never leave a
  // half-migrated template under the final name.
  const building = `${final}.building-${randomBytes(4).toString('hex')}`;
  try {
    await migrate({ DATA_DIR: building });
    // The lock files openDatabase leaves beside the cluster are not copied (copyPgliteTemplate takes `pglite/` only).
    try {
      renameSync(building, final);
    } catch (error) {
      // Another run got there first with the same migrations: keep theirs.
      if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

function removeStalePgliteTemplates(keep: string): void {
  for (const name of readdirSync(os.tmpdir())) {
    const dir = path.join(os.tmpdir(), name);
    if (!name.startsWith(PGLITE_PREFIX) || dir === keep) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_AFTER_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

async function ensurePostgresTemplate(serverUrl: string): Promise<void> {
  const template = postgresTemplateName();
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    // One builder per server at a time: another run waits here, then finds the template made.
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    const now = new Date().toISOString();
    const { rows } = await client.query<{ datname: string; last_used: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS last_used FROM pg_database WHERE datname LIKE '${POSTGRES_PREFIX}%'`,
    );
    for (const row of rows) {
      if (row.datname === template) continue;
      // A template of other migrations is dropped once unused for a day; a build cut off (no comment yet) at once.
      const unusedFor = row.last_used ? Date.now() - Date.parse(row.last_used) : Infinity;
      if (unusedFor > STALE_AFTER_MS) await dropTemplate(client, row.datname);
    }
    if (!rows.some((row) => row.datname === template)) {
      const building = `${template}_building`;
      await client.query(`DROP DATABASE IF EXISTS "${building}"`);
      await client.query(`CREATE DATABASE "${building}"`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      // db:migrate on PostgreSQL writes nothing to DATA_DIR; an empty one of its own all the same.
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-template-migrate-'));
      try {
        await migrate({ DATABASE_URL: url.toString(), DATA_DIR: dataDir });
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      // No connections, ever: CREATE DATABASE … TEMPLATE needs the template to have none, and nothing may write to it.
      await client.query(`ALTER DATABASE "${template}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    }
    // The last use, read by the stale sweep of runs with other migrations.
    await client.query(`COMMENT ON DATABASE "${template}" IS '${now}'`);
  } finally {
    await client.end();
  }
}

async function dropTemplate(client: Client, name: string) {
  try {
    await client.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`);
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
  } catch {
    // Being copied right now by a run of other migrations after all: the next sweep takes it.
  }
}

/** `npm run db:migrate` against the given database, in a process of its own as an operator runs it. */
function migrate(env: Record<string, string>): Promise<void> {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['--conditions=react-server', 'scripts/db-migrate.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run db:migrate for the test template failed (${code}):\n${output}`)),
    );
  });
}

export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
