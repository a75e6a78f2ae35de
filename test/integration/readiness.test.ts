import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { GET as health } from '@/app/api/health/route';
import { GET as ready } from '@/app/api/ready/route';
import { installDatabase, queryRows } from '@/lib/db';
import { startWorker, type RunningWorker } from '@/lib/server/jobs/worker';
import { resetReadinessCache } from '@/lib/server/health';
import { setMediaStorage } from '@/lib/server/storage';
import { LocalMediaStorage } from '@/lib/server/storage/local';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

/**
 * GET /api/health is liveness (the process and `select 1`); GET /api/ready
 * is readiness: migrations, media storage, ffmpeg and a live job worker,
 * each named when it fails, as a load balancer or an operator sees them.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-ready-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Checks = Record<string, { ok: boolean; detail?: string }>;

describe.each(ENGINES)('health and readiness on %s', (engine) => {
  let database: TestDatabase;
  let worker: RunningWorker | null = null;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
  }, 180_000);
  afterEach(async () => {
    await worker?.stop();
    worker = null;
    setMediaStorage(null);
    resetReadinessCache();
  });
  afterAll(() => database.destroy());

  it('health answers small and uncached: the process and the database are up', async () => {
    const response = await call(health, '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('is not ready without a job worker, and says so; ready once one polls; not ready after it stops', async () => {
    const before = await call(ready, '/api/ready');
    expect(before.status).toBe(503);
    expect(before.headers.get('cache-control')).toBe('no-store');
    const checks = before.body.checks as Checks;
    expect(checks.worker).toMatchObject({ ok: false, detail: expect.stringMatching(/no job worker/) });
    expect(checks.database!.ok && checks.migrations!.ok && checks.storage!.ok && checks.media_tools!.ok).toBe(true);

    worker = startWorker(database.db, { handlers: { 'ready-test-noop': async () => {} }, pollMs: 50 });
    await sleep(300);
    const during = await call(ready, '/api/ready');
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({
      status: 'ready',
      checks: { worker: { ok: true, detail: expect.stringMatching(/^1 seen/) } },
    });

    // A clean stop takes the worker's heartbeat away at once.
    await worker.stop();
    worker = null;
    expect((await call(ready, '/api/ready')).status).toBe(503);
  });

  it('names pending migrations (a database older than the code)', async () => {
    worker = startWorker(database.db, { handlers: { 'ready-test-noop': async () => {} }, pollMs: 50 });
    await sleep(300);
    const [newest] = await queryRows<{ id: number; hash: string; created_at: string }>(
      database.db,
      sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`);
    try {
      const response = await call(ready, '/api/ready');
      expect(response.status).toBe(503);
      expect((response.body.checks as Checks).migrations).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/^1 of \d+ migrations not applied/),
      });
    } finally {
      await database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await call(ready, '/api/ready')).status).toBe(200);
  });

  it('names media storage that takes no writes, without its path', async () => {
    worker = startWorker(database.db, { handlers: { 'ready-test-noop': async () => {} }, pollMs: 50 });
    await sleep(300);
    // A data folder whose media directory is a file: every write fails, as on a full or read-only disk.
    const broken = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-ready-broken-'));
    writeFileSync(path.join(broken, 'media'), 'not a folder');
    setMediaStorage(new LocalMediaStorage(broken));
    try {
      const response = await call(ready, '/api/ready');
      expect(response.status).toBe(503);
      expect((response.body.checks as Checks).storage).toEqual({
        ok: false,
        detail: 'local media storage is not writable (see the server log)',
      });
      expect(JSON.stringify(response.body)).not.toContain(broken);
      expect(JSON.stringify(response.body)).not.toContain(dataDir);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it('names missing ffmpeg and ffprobe, and what to install', async () => {
    worker = startWorker(database.db, { handlers: { 'ready-test-noop': async () => {} }, pollMs: 50 });
    await sleep(300);
    const path0 = process.env.PATH;
    process.env.PATH = path.join(process.cwd(), 'node_modules', '.bin');
    try {
      resetReadinessCache();
      const response = await call(ready, '/api/ready');
      expect(response.status).toBe(503);
      expect((response.body.checks as Checks).media_tools).toEqual({
        ok: false,
        detail: 'ffmpeg and ffprobe not found: apt-get install ffmpeg',
      });
    } finally {
      process.env.PATH = path0;
    }
    // Cached a while: installing ffmpeg is noticed at the next lookup, not on every poll.
    expect((await call(ready, '/api/ready')).status).toBe(503);
    resetReadinessCache();
    expect((await call(ready, '/api/ready')).status).toBe(200);
  });
});
