import 'server-only';

import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';

import { getConfig } from '@/lib/config/server';
import { getDatabaseHandle, queryRows, type Database } from '@/lib/db';
import { MIGRATIONS_DIR } from '@/lib/db/open';
import { logger } from '@/lib/server/log';

import { recentWorkers, WORKER_SEEN_WITHIN_MS } from '../jobs/heartbeat';
import { missingMediaTools } from '../media/tools';
import { getMediaStorage } from '../storage';

const log = logger('health');

export interface Health {
  status: 'ok' | 'unavailable';
}

/**
 * Liveness for load balancers and uptime checks: the process answers and the
 * database answers `select 1`. Nothing heavier, so it can be polled often;
 * GET /api/ready says whether this process can do its work.
 */
export async function checkHealth(): Promise<Health> {
  try {
    const { db } = await getDatabaseHandle();
    await db.execute(sql`select 1`);
    return { status: 'ok' };
  } catch (error) {
    log.error({ err: error }, 'database check failed');
    return { status: 'unavailable' };
  }
}

/** One readiness check's outcome: what an operator needs, never a secret or a server path. */
export interface Check {
  ok: boolean;
  detail?: string;
}

export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: { database: Check; migrations: Check; storage: Check; media_tools: Check; worker: Check };
}

/** Every migration in the journal is recorded as applied (drizzle applies by timestamp, so compare the newest). */
async function checkMigrations(db: Database): Promise<Check> {
  const expected = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  const [row] = await queryRows<{ applied: number | string; newest: number | string | null }>(
    db,
    sql`select count(*) as applied, max(created_at) as newest from drizzle.__drizzle_migrations`,
  );
  const newest = Number(row?.newest ?? 0);
  const pending = expected.filter((migration) => migration.folderMillis > newest).length;
  return pending === 0
    ? { ok: true, detail: `${expected.length} applied` }
    : {
        ok: false,
        detail: `${pending} of ${expected.length} migrations not applied (run npm run db:migrate, or start a web process)`,
      };
}

/**
 * How long a passed storage probe stands. Load balancers poll readiness every
 * few seconds, and on S3 each probe is a PUT, a HEAD and a DELETE: a success
 * is remembered this long, a failure is probed again on the next poll.
 */
const STORAGE_PASS_TTL_MS = 30_000;
const storagePassedAt = new WeakMap<object, number>();

/** Writes a small object into media storage and deletes it again. */
async function checkStorage(now: number = performance.now()): Promise<Check> {
  const storage = getMediaStorage();
  const passedAt = storagePassedAt.get(storage);
  if (passedAt !== undefined && now - passedAt < STORAGE_PASS_TTL_MS) return { ok: true, detail: storage.kind };
  const name = `ready-probe-${randomUUID()}`;
  const local = path.join(getConfig().dataDir, 'work', name);
  const key = `health/${name}`;
  try {
    await mkdir(path.dirname(local), { recursive: true });
    await writeFile(local, 'ready');
    await storage.putFile(key, local, 'text/plain');
    if (!(await storage.stat(key))) throw new Error('the probe object was not found after writing it');
    await storage.deletePrefix(key);
    storagePassedAt.set(storage, now);
    return { ok: true, detail: storage.kind };
  } catch (error) {
    log.error({ err: error, storage: storage.kind }, `media storage (${storage.kind}) is not writable`);
    return { ok: false, detail: `${storage.kind} media storage is not writable (see the server log)` };
  } finally {
    await rm(local, { force: true }).catch(() => undefined);
  }
}

/** ffmpeg and ffprobe run; looked up again after TOOLS_TTL_MS (installing them fixes readiness without a restart). */
const TOOLS_TTL_MS = 5 * 60_000;
let toolsChecked: { at: number; missing: Promise<string[]> } | null = null;

async function checkMediaTools(now: number = performance.now()): Promise<Check> {
  if (!toolsChecked || now - toolsChecked.at > TOOLS_TTL_MS) toolsChecked = { at: now, missing: missingMediaTools() };
  const missing = await toolsChecked.missing;
  return missing.length === 0
    ? { ok: true }
    : { ok: false, detail: `${missing.join(' and ')} not found: apt-get install ffmpeg` };
}

/** A job worker polled or ran a job lately (the embedded server's own loops count). */
async function checkWorker(db: Database): Promise<Check> {
  const workers = await recentWorkers(db);
  return workers.length > 0
    ? { ok: true, detail: `${workers.length} seen in the last ${WORKER_SEEN_WITHIN_MS / 1000} s` }
    : { ok: false, detail: `no job worker seen in the last ${WORKER_SEEN_WITHIN_MS / 1000} s (start npm run worker)` };
}

const down = (detail: string): Check => ({ ok: false, detail });

async function settle(check: Promise<Check>, what: string): Promise<Check> {
  try {
    return await check;
  } catch (error) {
    log.error({ err: error }, `${what} check failed`);
    return down(`${what} check failed (see the server log)`);
  }
}

/**
 * Readiness: this process can serve and get work done. The database answers
 * and has every migration, media storage takes a write, ffmpeg and ffprobe
 * run, and some job worker was alive lately. Checks run side by side; one
 * failing says which, without secrets or server paths.
 */
export async function checkReadiness(): Promise<Readiness> {
  let db: Database | null = null;
  let database: Check;
  try {
    db = (await getDatabaseHandle()).db;
    await db.execute(sql`select 1`);
    database = { ok: true };
  } catch (error) {
    log.error({ err: error }, 'database check failed');
    database = down('the database does not answer');
  }
  const unreachable = down('skipped: the database does not answer');
  const [migrations, storage, mediaTools, worker] = await Promise.all([
    db && database.ok ? settle(checkMigrations(db), 'migrations') : unreachable,
    settle(checkStorage(), 'storage'),
    settle(checkMediaTools(), 'ffmpeg'),
    db && database.ok ? settle(checkWorker(db), 'worker') : unreachable,
  ]);
  const checks = { database, migrations, storage, media_tools: mediaTools, worker };
  return { status: Object.values(checks).every((check) => check.ok) ? 'ready' : 'unavailable', checks };
}

/** Forgets the cached ffmpeg lookup (tests). */
export function resetReadinessCache(): void {
  toolsChecked = null;
}

/** How both probes answer: JSON, never cached (a cached "ok" would hide an outage), 503 when not ok. */
export function probeResponse(body: Health | Readiness, ok: boolean): Response {
  return Response.json(body, { status: ok ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
