import 'server-only';

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import type { ServerConfig } from '@/lib/config/server';
import { queryRows, type Database } from '@/lib/db';
import { MIGRATIONS_DIR } from '@/lib/db/open';

import { BackupError, type Manifest } from './archive';

/** A database failure as one line for the operator: the root cause's message (drizzle wraps node-postgres errors). */
export function databaseProblem(error: unknown, what: string): BackupError {
  let root = error as { message?: string; cause?: unknown } | undefined;
  while (root?.cause) root = root.cause as typeof root;
  return new BackupError(`${what}: ${root?.message ?? String(error)}`);
}

/** The migrations this code knows, oldest first (drizzle's journal). */
export function knownMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The migration level of a database: what drizzle recorded in drizzle.__drizzle_migrations. */
export async function migrationLevel(db: Database): Promise<Manifest['migrations']> {
  const rows = await queryRows<{ created_at: string | number }>(
    db,
    sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`,
  );
  const createdAt = rows.map((row) => Number(row.created_at));
  const latest = createdAt.at(-1) ?? null;
  return {
    applied: createdAt.length,
    latestTag: knownMigrations().find((migration) => migration.when === latest)?.tag ?? null,
    latestCreatedAt: latest,
    createdAt,
  };
}

export async function siteCounts(db: Database): Promise<Manifest['counts']> {
  const [row] = await queryRows<{ members: number; videos: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM users) AS members, (SELECT count(*)::int FROM videos) AS videos`,
  );
  return { members: row!.members, videos: row!.videos };
}

export async function serverVersion(db: Database): Promise<string> {
  const [row] = await queryRows<{ server_version: string }>(db, sql`SHOW server_version`);
  return row!.server_version.split(' ')[0]!;
}

/** The major version in "15.20", "pg_dump (PostgreSQL) 17.2 (Debian …)" or "10.4". */
export function majorVersion(version: string): number {
  const match = /(\d+)(?:\.\d+)?/.exec(version.replace(/^[^)]*\)\s*/, ''));
  return match ? Number(match[1]) : NaN;
}

/**
 * A PostgreSQL client tool (pg_dump, pg_restore, psql): from PG_BIN_DIR when
 * set, else the PATH (on Debian, /usr/bin/pg_dump is postgresql-common's
 * wrapper, which runs the newest installed client version).
 */
export function pgTool(config: ServerConfig, name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  return config.pgBinDir ? path.join(config.pgBinDir, name) : name;
}

/** libpq connection settings: the URL without its password (argv is visible to every local user) and PGPASSWORD. */
export function pgConnection(databaseUrl: string): { dbname: string; env: Environment } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** The version a client tool reports, or a BackupError saying how to install it. */
export async function toolVersion(config: ServerConfig, name: 'pg_dump' | 'pg_restore' | 'psql'): Promise<string> {
  const result = await run(pgTool(config, name), ['--version'], {}).catch(() => null);
  if (!result || result.code !== 0) {
    throw new BackupError(
      `${name} was not found (${pgTool(config, name)}). Install PostgreSQL's client tools of the server's major version or newer ` +
        '(Debian: apt-get install postgresql-client; for another major version, the PGDG packages postgresql-client-NN), ' +
        'or set PG_BIN_DIR to the folder that holds them.',
    );
  }
  return result.stdout.trim();
}

/** Variables added to this process's environment for a child. */
export type Environment = Record<string, string>;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion, collecting its output (the tools' own messages are what the operator needs). */
export function run(command: string, args: string[], env: Environment, stdin?: NodeJS.ReadableStream): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-64_000)));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-64_000)));
    if (stdin && child.stdin) {
      child.stdin.on('error', () => undefined); // the child's exit code tells what went wrong
      stdin.pipe(child.stdin);
    }
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
