import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { Client } from 'pg';

import { installDatabase } from '@/lib/db';
import { DATABASE_UNAVAILABLE_MESSAGE } from '@/lib/db/connection-loss';
import { jobs, users } from '@/lib/db/schema';
import { enqueue } from '@/lib/server/jobs/queue';

import { serverEnv as e2eBuildEnv } from '../../playwright.config';
import { buildIfNeeded } from '../../scripts/lib/build';
import { startServerProcess, stopServerProcess, waitForServer } from '../../scripts/lib/server-process';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo } from '../helpers/videos';

/**
 * Issue 33 item 10: the database drops every connection while a web process (scripts/serve.ts, the real
 * production server) answers API calls and pages and a worker (scripts/worker.ts) runs jobs, as a
 * PostgreSQL restart or failover does. Every answer is a 2xx or a 503 with Retry-After, never a 500; neither
 * process dies (pg-pool drops its idle error listener from a checked-out connection, whose 'error' was an
 * uncaught exception); both serve and run jobs again at once afterwards.
 *
 * PostgreSQL only: PGlite runs inside the process and has no connection to lose. The shared server is not
 * restarted (other tests use it): its backends for this test's own scratch database are terminated, which
 * is what a restart does to them (57P01 admin_shutdown, "Connection terminated unexpectedly").
 */
const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.TEST_DATABASE_URL)
  console.warn(
    'Skipped: database connection loss needs PostgreSQL (PGlite has no connection to lose); set TEST_DATABASE_URL to run it.',
  );

const PORT = 3173;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SESSION_SECRET = randomBytes(32).toString('hex');
process.env.SESSION_SECRET = SESSION_SECRET;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describeOnPostgres('losing the database connection (skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let server: ChildProcess;
  let worker: ChildProcess;
  let output = '';
  let token: string;
  let videoPath: string;

  beforeAll(async () => {
    // The e2e suite's build, so CI builds once for all (a current build is reused as it is).
    buildIfNeeded({ ...process.env, ...e2eBuildEnv });
    database = await createTestDatabase('postgres');
    installDatabase(database);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-db-loss-'));
    token = await verifiedMemberToken(database.db, 'outage_member');
    const [uploader] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, 'outage_member'));
    await verifiedUploader(database.db, uploader!.id);
    const video = await insertVideo(database.db, uploader!.id, { title: 'Outage Orchid', category: 'Sissy' });
    videoPath = `/video/${video.streamVideoId}`;

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...e2eBuildEnv,
      NODE_OPTIONS: '',
      PORT: String(PORT),
      DATABASE_URL: database.databaseUrl,
      SESSION_SECRET,
      DATA_DIR: dataDir,
      PUBLIC_PAGE_CACHE_SECONDS: '0',
      WORKER_POLL_MS: '200',
      ADMIN_USERNAME: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    };
    const keep = (child: ChildProcess, name: string) => {
      child.stdout?.on('data', (chunk: Buffer) => (output += `[${name}] ${chunk.toString()}`));
      child.stderr?.on('data', (chunk: Buffer) => (output += `[${name}] ${chunk.toString()}`));
      return child;
    };
    server = keep(startServerProcess(env, 'pipe'), 'web');
    worker = keep(
      spawn(path.join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', 'scripts/worker.ts'], {
        env: { ...env, NODE_ENV: 'production' },
        stdio: 'pipe',
      }),
      'worker',
    );
    await waitForServer(`${ORIGIN}/api/health`, 180_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
  }, 15 * 60_000);

  afterAll(async () => {
    await Promise.all([server, worker].filter(Boolean).map((child) => stopServerProcess(child)));
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** Ends every connection to the scratch database but the caller's own, as a restart of the server does. */
  async function terminateBackends(admin: Client): Promise<number> {
    const name = new URL(database.databaseUrl!).pathname.slice(1);
    const { rows } = await admin.query(
      'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return (rows[0] as { ended: number }).ended;
  }

  /** API calls (anonymous and a member's) and pages (one through the public-page cache), each answer kept. */
  const targets = (): { path: string; headers: Record<string, string> }[] => [
    { path: '/api/videos', headers: {} },
    { path: '/api/videos/mine', headers: { authorization: `Bearer ${token}` } },
    { path: '/search?q=orchid', headers: {} },
    { path: videoPath, headers: {} },
  ];

  async function ask(target: { path: string; headers: Record<string, string> }) {
    const response = await fetch(`${ORIGIN}${target.path}`, { headers: target.headers });
    const body = await response.text();
    return { path: target.path, status: response.status, retryAfter: response.headers.get('retry-after'), body };
  }

  it('answers 2xx or 503 with Retry-After while every connection is cut, and both processes go on serving and running jobs', async () => {
    // Jobs in the queue while the connections go, so the worker's claims and transactions are cut too.
    for (let i = 0; i < 30; i += 1) await enqueue(database.db, 'sweep-rate-limits', {}, { dedupeKey: `outage-before-${i}` });

    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const answers: Awaited<ReturnType<typeof ask>>[] = [];
    let ended = 0;
    let storming = true;
    try {
      const storm = (async () => {
        const until = Date.now() + 4_000;
        while (Date.now() < until) {
          ended += await terminateBackends(admin);
          await sleep(60);
        }
        storming = false;
      })();
      // Six clients asking all the time, as traffic does.
      const clients = Array.from({ length: 6 }, async (_, n) => {
        for (let i = n; storming; i += 1) answers.push(await ask(targets()[i % targets().length]!));
      });
      await Promise.all([storm, ...clients]);
    } finally {
      await admin.end();
    }

    const byStatus = (status: number) => answers.filter((answer) => answer.status === status);
    const unexpected = answers.filter((answer) => !(answer.status >= 200 && answer.status < 300) && answer.status !== 503);
    expect(unexpected.map(({ path, status, body }) => ({ path, status, body: body.slice(0, 200) }))).toEqual([]);
    // The storm did hit requests: some were answered 503, each with Retry-After, API ones with the plain message.
    expect(ended).toBeGreaterThan(20);
    expect(byStatus(503).length).toBeGreaterThan(0);
    expect(byStatus(503).filter((answer) => answer.retryAfter !== '5')).toEqual([]);
    for (const answer of byStatus(503).filter((one) => one.path.startsWith('/api/')))
      expect(JSON.parse(answer.body)).toMatchObject({ message: DATABASE_UNAVAILABLE_MESSAGE });

    // Neither process died (an uncaught 'error' from a cut connection kills it) …
    expect({ server: running(server), worker: running(worker) }).toEqual({ server: true, worker: true });
    expect(output).not.toMatch(/uncaughtException|Unhandled 'error' event|Connection terminated unexpectedly\n\s+at /);
    // … and both are back at once: every answer a 200, and a job queued now is run.
    await sleep(500);
    for (const target of targets()) expect(await ask(target)).toMatchObject({ status: 200 });
    const after = await enqueue(database.db, 'sweep-rate-limits', {}, { dedupeKey: `outage-after-${randomUUID()}` });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const [job] = await database.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, after!.id));
      if (job?.status === 'done') break;
      if (Date.now() > deadline)
        throw new Error(`the worker ran no job after the outage (status ${job?.status})\n${output.slice(-4000)}`);
      await sleep(250);
    }
    expect(running(worker)).toBe(true);
  }, 180_000);
});
