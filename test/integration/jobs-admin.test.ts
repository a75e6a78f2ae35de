import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as listJobsRoute } from '@/app/api/admin/jobs/route';
import { POST as retryRoute } from '@/app/api/admin/jobs/[id]/retry/route';
import { installDatabase, queryRows, type Database } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { adminAuditLog, jobs, rateLimits, users } from '@/lib/db/schema';
import { sealSecret } from '@/lib/server/auth/two-factor-codes';
import { claim, complete, enqueue } from '@/lib/server/jobs/queue';
import { SWEEP_JOBS, SWEEP_RATE_LIMITS, sweepJobsJob, sweepRateLimitsJob } from '@/lib/server/jobs/retention';
import { consume, resetLimiters } from '@/lib/server/rate-limit';
import type { Job } from '@/lib/db/schema';

import { call, ORIGIN } from '../helpers/api';
import { copyPgliteTemplate, createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { promoteToAdmin, TEST_TOTP_SECRET, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/**
 * Jobs an operator can see and act on (decision 023): finished and failed
 * jobs and expired rate-limit counters are swept; admins (second factor
 * passed) and `npm run jobs` list and retry failed and stuck jobs.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-jobs-admin-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

/** A job row in a given state, as the queue leaves it. */
async function insertJob(
  db: Database,
  fields: {
    type?: string;
    status: Job['status'];
    finishedDaysAgo?: number;
    payload?: Record<string, unknown>;
    attempts?: number;
    maxAttempts?: number;
    lastError?: string;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO jobs (type, payload, status, attempts, max_attempts, last_error, finished_at)
        VALUES (${fields.type ?? 'process-video'}, ${JSON.stringify(fields.payload ?? {})}::jsonb, ${fields.status}, ${fields.attempts ?? 1}, ${fields.maxAttempts ?? 5}, ${fields.lastError ?? null},
                ${fields.finishedDaysAgo === undefined ? null : daysAgo(fields.finishedDaysAgo)})
        RETURNING id`,
  );
  return row!.id;
}

const jobById = async (db: Database, id: string) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];

describe.each(ENGINES)('jobs you can see on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  }, 180_000);
  afterAll(() => database.destroy());

  it('the sweep deletes done jobs after 14 days and failed ones after 90, never queued or running ones, and queues its next hour', async () => {
    const db = database.db;
    const keep = [
      await insertJob(db, { status: 'done', finishedDaysAgo: 13 }),
      await insertJob(db, { status: 'failed', finishedDaysAgo: 89, lastError: 'still worth a look' }),
      await insertJob(db, { status: 'queued' }),
      await insertJob(db, { status: 'running' }),
      // The seed-demo job's row is what makes demo content once per database.
      await insertJob(db, { type: 'seed-demo', status: 'done', finishedDaysAgo: 400 }),
    ];
    const gone = [
      await insertJob(db, { status: 'done', finishedDaysAgo: 15 }),
      await insertJob(db, { status: 'failed', finishedDaysAgo: 91, lastError: 'old news' }),
    ];

    await sweepJobsJob({ id: 'x', type: SWEEP_JOBS.type } as Job, heldJobContext());

    for (const id of keep) expect(await jobById(db, id)).toBeDefined();
    for (const id of gone) expect(await jobById(db, id)).toBeUndefined();
    const next = await queryRows<{ run_at: Date | string }>(
      db,
      sql`SELECT run_at FROM jobs WHERE type = ${SWEEP_JOBS.type} AND status = 'queued'`,
    );
    expect(next).toHaveLength(1);
    expect(new Date(next[0]!.run_at).getTime()).toBeGreaterThan(Date.now());
    await db.delete(jobs);
  });

  it('the rate-limit sweep deletes expired counters only, and a live limit still holds afterwards', async () => {
    const db = database.db;
    // A live window, counted by the real limiter: five comments a minute.
    for (let i = 0; i < 5; i += 1) await consume('commentPerMinute', 'member-live');
    await db.insert(rateLimits).values([
      { key: 'loginFailuresPerAddress:198.51.100.7', points: 3, expire: new Date(Date.now() - 60_000) },
      { key: 'registerPerIp:198.51.100.8', points: 1, expire: new Date(Date.now() - 86_400_000) },
      { key: 'forever', points: 1, expire: null },
    ]);

    await sweepRateLimitsJob({ id: 'x', type: SWEEP_RATE_LIMITS.type } as Job, heldJobContext());

    const keys = (await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key).sort();
    expect(keys).toEqual(['commentPerMinute:member-live', 'forever']);
    await expect(consume('commentPerMinute', 'member-live')).rejects.toMatchObject({ status: 429 });
    expect(
      await queryRows(db, sql`SELECT 1 FROM jobs WHERE type = ${SWEEP_RATE_LIMITS.type} AND status = 'queued'`),
    ).toHaveLength(1);
  });

  describe('listing and retrying', () => {
    let adminToken: string;
    let memberToken: string;
    let failedId: string;
    let streamVideoId: string;

    beforeAll(async () => {
      const db = database.db;
      adminToken = await verifiedMemberToken(db, 'jobs_admin');
      await promoteToAdmin(db, await userId(db, 'jobs_admin'));
      memberToken = await verifiedMemberToken(db, 'jobs_member');
      const video = await insertVideo(db, await userId(db, 'jobs_member'), {
        title: 'Broken <b>clip</b>',
        processingState: 'failed',
        moderationStatus: 'pending',
        publishedAt: null,
      });
      streamVideoId = video.streamVideoId;
      failedId = await insertJob(db, {
        status: 'failed',
        finishedDaysAgo: 0,
        attempts: 5,
        payload: { videoId: video.id },
        lastError: 'ffmpeg (thumbnail) failed: <script>alert(1)</script> moov atom not found',
      });
    });

    const retry = (id: string, bearer: string) =>
      call(retryRoute, `/api/admin/jobs/${id}/retry`, { method: 'POST', bearer, params: { id } });

    it('lists failed jobs with their target, attempts and last error, and counts by state and type', async () => {
      const answer = await call(listJobsRoute, '/api/admin/jobs?state=failed', { bearer: adminToken });
      expect(answer.status).toBe(200);
      const listed = (
        answer.body.jobs as {
          id: string;
          attempts: number;
          maxAttempts: number;
          lastError: string;
          target: { label: string; href: string };
        }[]
      ).find((job) => job.id === failedId);
      expect(listed).toMatchObject({
        attempts: 5,
        maxAttempts: 5,
        target: { label: 'Video “Broken <b>clip</b>”', href: `/video/${streamVideoId}` },
      });
      expect(listed!.lastError).toContain('moov atom not found');
      const counts = answer.body.counts as { byType: { type: string; failed: number }[]; totals: { failed: number } };
      expect(counts.byType.find((row) => row.type === 'process-video')?.failed).toBe(1);
      expect(counts.totals.failed).toBe(1);
    });

    it('refuses a visitor, a member, an admin without two-factor and an admin whose session skipped it', async () => {
      expect(
        (await call(retryRoute, `/api/admin/jobs/${failedId}/retry`, { method: 'POST', params: { id: failedId } })).status,
      ).toBe(401);
      expect((await retry(failedId, memberToken)).status).toBe(403);
      expect((await call(listJobsRoute, '/api/admin/jobs', { bearer: memberToken })).status).toBe(403);
      // An admin flag without two-factor enrolled, then enrolled but in a session that never passed it.
      const db = database.db;
      const noFactor = await verifiedMemberToken(db, 'half_admin');
      await db.update(users).set({ isAdmin: true }).where(eq(users.username, 'half_admin'));
      const enrol = await retry(failedId, noFactor);
      expect(enrol.status).toBe(403);
      expect(enrol.body).toMatchObject({ twoFactorRequired: true, twoFactor: 'enrol' });
      await db
        .update(users)
        .set({ twoFactorSecret: await sealSecret(TEST_TOTP_SECRET), twoFactorEnabledAt: new Date() })
        .where(eq(users.username, 'half_admin'));
      const login = await retry(failedId, noFactor);
      expect(login.status).toBe(403);
      expect(login.body).toMatchObject({ twoFactorRequired: true, twoFactor: 'login' });
      // Nothing changed, nothing logged.
      expect((await jobById(db, failedId))!.status).toBe('failed');
      expect(await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'job.retry'))).toHaveLength(0);
    });

    it('an admin retries a failed job: queued now with one more attempt, audit-logged; a worker can claim it', async () => {
      const db = database.db;
      const answer = await retry(failedId, adminToken);
      expect(answer.status).toBe(200);
      expect(answer.body.job).toMatchObject({
        id: failedId,
        status: 'queued',
        previousStatus: 'failed',
        attempts: 5,
        maxAttempts: 6,
      });
      const row = (await jobById(db, failedId))!;
      expect(row).toMatchObject({ status: 'queued', attempts: 5, maxAttempts: 6, finishedAt: null });
      expect(row.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'job.retry'));
      expect(entry).toMatchObject({
        adminUsername: 'jobs_admin',
        targetType: 'job',
        targetId: failedId,
        summary: 'Retried failed process-video job (Video “Broken <b>clip</b>”)',
      });
      // Retrying again while it waits for its worker only makes it due now: no further attempts are added.
      expect((await retry(failedId, adminToken)).status).toBe(200);
      expect((await jobById(db, failedId))!).toMatchObject({ status: 'queued', attempts: 5, maxAttempts: 6 });
      const claimed = await claim(db, 'test-worker', ['process-video'], 60_000);
      expect(claimed?.id).toBe(failedId);
      expect(claimed?.attempts).toBe(6);
      await complete(db, claimed!, 'test-worker');
      // Done jobs are not retried; unknown and malformed ids are told so.
      expect((await retry(failedId, adminToken)).status).toBe(409);
      expect((await retry('00000000-0000-4000-8000-000000000000', adminToken)).status).toBe(404);
      expect((await retry('not-a-job', adminToken)).status).toBe(400);
    });

    it('stuck jobs: a lost lease or a run past JOB_STUCK_MINUTES is listed and retried; its old worker can no longer complete it', async () => {
      const db = database.db;
      const lost = (await enqueue(db, 'package-hls', {}))!;
      const hung = (await enqueue(db, 'build-data-export', {}))!;
      const healthy = (await enqueue(db, 'purge-media', {}))!;
      await db.execute(
        sql`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'gone-worker', locked_until = now() - interval '1 minute', claimed_at = now() - interval '2 minutes' WHERE id = ${lost.id}`,
      );
      await db.execute(
        sql`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'slow-worker', locked_until = now() + interval '1 minute', claimed_at = now() - interval '3 hours' WHERE id = ${hung.id}`,
      );
      await db.execute(
        sql`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'busy-worker', locked_until = now() + interval '1 minute', claimed_at = now() WHERE id = ${healthy.id}`,
      );

      const stuck = await call(listJobsRoute, '/api/admin/jobs?state=stuck', { bearer: adminToken });
      expect((stuck.body.jobs as { id: string }[]).map((job) => job.id).sort()).toEqual([lost.id, hung.id].sort());
      expect((stuck.body.counts as { totals: { running: number; stuck: number } }).totals).toMatchObject({
        running: 3,
        stuck: 2,
      });

      expect((await retry(healthy.id, adminToken)).status).toBe(409);
      const answer = await retry(hung.id, adminToken);
      expect(answer.status).toBe(200);
      expect(answer.body.job).toMatchObject({ previousStatus: 'running', status: 'queued' });
      // The slow worker finishing now records nothing: the job is no longer its own.
      await complete(db, { id: hung.id }, 'slow-worker');
      expect((await jobById(db, hung.id))!.status).toBe('queued');
      const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, hung.id));
      expect(entry!.summary).toBe('Retried stuck build-data-export job');
    });
  });
});

/** `npm run jobs`, spawned as an operator runs it, against a database of its own. */
describe.each(ENGINES)('npm run jobs on %s', (engine) => {
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
  let cliDir: string;
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let failedId: string;

  /** The database as the CLI sees it: PGlite is opened here only between runs (one process at a time). */
  async function withDb<T>(work: (db: Database) => Promise<T>): Promise<T> {
    if (database) return work(database.db);
    const handle = await openDatabase({ dataDir: cliDir });
    try {
      return await work(handle.db);
    } finally {
      await handle.close();
    }
  }

  function runJobs(...args: string[]) {
    const result = spawnSync(tsx, ['--conditions=react-server', 'scripts/jobs.ts', ...args], {
      env: {
        PATH: `${path.join(process.cwd(), 'node_modules', '.bin')}:${process.env.PATH}`,
        HOME: os.tmpdir(),
        NODE_ENV: 'test',
        ...env,
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
  }

  beforeAll(async () => {
    cliDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-jobs-cli-'));
    if (engine === 'pglite') copyPgliteTemplate(cliDir);
    env = { DATA_DIR: cliDir };
    if (engine === 'postgres') {
      database = await createTestDatabase('postgres');
      env.DATABASE_URL = database.databaseUrl!;
    }
    failedId = await withDb(async (db) => {
      await insertJob(db, { status: 'done', finishedDaysAgo: 1 });
      return insertJob(db, {
        type: 'password-reset-email',
        status: 'failed',
        finishedDaysAgo: 0,
        attempts: 5,
        lastError: 'connect ECONNREFUSED 127.0.0.1:587\nsecond line',
      });
    });
  });
  afterAll(async () => {
    await database?.destroy();
    rmSync(cliDir, { recursive: true, force: true });
  });

  it('lists failed jobs as a table, retries one by id (audit-logged as the operator), and refuses what it cannot do', async () => {
    const list = runJobs('list', '--state', 'failed');
    expect(list.output).toContain('Jobs: 0 queued, 0 running (0 stuck), 1 failed, 1 done.');
    expect(list.stdout).toMatch(/ID\s+TYPE\s+STATE\s+TRIES\s+GAVE UP \(UTC\)\s+TARGET\s+LAST ERROR/);
    const line = list.stdout.split('\n').find((text) => text.startsWith(failedId));
    expect(line).toMatch(
      /password-reset-email\s+failed\s+5\/5\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+-\s+connect ECONNREFUSED 127\.0\.0\.1:587 second line$/,
    );
    expect(list.status).toBe(0);

    const retried = runJobs('retry', failedId);
    expect(retried.output).toContain(
      `Queued password-reset-email job ${failedId} to run again now (it was failed; attempt 6 of 6).`,
    );
    expect(retried.status).toBe(0);
    await withDb(async (db) => {
      expect((await jobById(db, failedId))!).toMatchObject({ status: 'queued', maxAttempts: 6 });
      const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, failedId));
      expect(entry).toMatchObject({ adminId: null, adminUsername: 'operator (npm run jobs)', action: 'job.retry' });
    });
    // Jobs that are neither failed, stuck nor retrying after an error are refused.
    const done = await withDb(async (db) => (await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.status, 'done')))[0]!.id);
    const again = runJobs('retry', done);
    expect(again.status).toBe(1);
    expect(again.output).toContain('Only failed or stuck jobs');
    const bad = runJobs('list', '--state', 'sideways');
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('--state must be one of failed, stuck, retrying, queued, running.');
    // Each run starts tsx and opens the database: seconds on a quiet machine, far more on a loaded one.
  }, 300_000);
});

/** `npm run worker` refuses bad job settings before it opens the database, naming the variable. */
describe('npm run worker with bad job settings', () => {
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const runWorker = (env: Record<string, string>) => {
    const result = spawnSync(tsx, ['--conditions=react-server', 'scripts/worker.ts'], {
      // Nothing listens on port 1: the worker must stop before it tries.
      env: {
        PATH: `${path.join(process.cwd(), 'node_modules', '.bin')}:${process.env.PATH}`,
        HOME: os.tmpdir(),
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        ...env,
      },
      encoding: 'utf8',
      timeout: 90_000,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it.each([
    [
      { WORKER_JOB_TYPES: 'process-video,nonsense' },
      /WORKER_JOB_TYPES names unknown job types: nonsense \(known: process-video, package-hls, /,
    ],
    [{ WORKER_CONCURRENCY: 'two' }, /WORKER_CONCURRENCY must be a whole number of jobs from 1 to 64 \(got "two"\)/],
  ])(
    '%j stops it with a message',
    (env, message) => {
      const run = runWorker(env);
      expect(run.output).toMatch(message);
      expect(run.output).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
      expect(run.status).toBe(1);
    },
    120_000,
  );
});
