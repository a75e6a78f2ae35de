import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase, type Database } from '@/lib/db';
import { jobs, videos, type Job } from '@/lib/db/schema';
import { enqueue } from '@/lib/server/jobs/queue';
import { errorBackoffMs, startWorker, type JobHandler, type RunningWorker } from '@/lib/server/jobs/worker';
import { resetLimiters } from '@/lib/server/rate-limit';
import { processVideo } from '@/lib/server/videos/processing';
import { PROCESS_VIDEO_JOB } from '@/lib/server/videos/upload';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

/**
 * The worker renews the lease of every job while its handler runs, stops
 * the handler when the lease is lost, and keeps running through database
 * errors. Leases here are short (1.5 s) and jobs longer, as a transcode of
 * a long video is against the default 60 s.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-job-leases-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;

const media = mediaFixtures();
const slowAvi = media.slowAvi();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const LEASE_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Work that takes ms unless the job's signal stops it first. */
function work(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

/** The database as a worker sees it, with a switch that makes every query fail for a while (a lost connection). */
function withOutages(db: Database) {
  let downUntil = 0;
  const queries = new Set<PropertyKey>(['select', 'insert', 'update', 'delete', 'execute', 'transaction']);
  const flaky = new Proxy(db, {
    get(target, property) {
      if (queries.has(property) && Date.now() < downUntil) {
        return () => {
          throw new Error('Connection terminated unexpectedly');
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: flaky, outage: (ms: number) => void (downUntil = Date.now() + ms) };
}

describe.each(ENGINES)('job leases on %s', (engine) => {
  let database: TestDatabase;
  let workers: RunningWorker[] = [];
  const jobRow = async (id: string) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(jobs);
    // Workers log lost leases and database errors: expected here.
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
    jest.restoreAllMocks();
  });

  const start = (db: Database, handlers: Record<string, JobHandler>) => {
    const worker = startWorker(db, { handlers, pollMs: 20, leaseMs: LEASE_MS, baseBackoffMs: 1 });
    workers.push(worker);
    return worker;
  };

  it('renews the lease of a job that runs longer than it, so two workers never both run it', async () => {
    const runs: string[] = [];
    const slow: JobHandler = async (job, { signal }) => {
      runs.push(job.lockedBy!);
      await work(3 * LEASE_MS, signal);
    };
    const job = await enqueue(database.db, 'slow', {});
    start(database.db, { slow });
    start(database.db, { slow });
    await until('the slow job to finish', async () => (await jobRow(job!.id)).status === 'done', 20_000);
    expect(runs).toHaveLength(1);
    expect(await jobRow(job!.id)).toMatchObject({ status: 'done', attempts: 1, lastError: null });
  });

  it('stops a job whose lease was taken away, and leaves its outcome to the worker that holds it', async () => {
    let stoppedWith: unknown = null;
    let started = false;
    const job = await enqueue(database.db, 'long', {});
    start(database.db, {
      long: async (_job, { signal }) => {
        started = true;
        await work(60_000, signal).catch((error: unknown) => {
          stoppedWith = error;
          throw error;
        });
      },
    });
    await until('the job to start', () => started);
    const takenAt = Date.now();
    await database.db.update(jobs).set({ lockedBy: 'another-worker' }).where(eq(jobs.id, job!.id));
    await until('the job to be stopped', () => stoppedWith !== null, 10_000);
    // Noticed at the next renewal, a third of the lease later.
    expect(Date.now() - takenAt).toBeLessThan(LEASE_MS);
    expect(String(stoppedWith)).toMatch(/lease was lost/);
    // Neither completed nor failed by the worker that lost it.
    expect(await jobRow(job!.id)).toMatchObject({ status: 'running', lockedBy: 'another-worker', attempts: 1, lastError: null });
  });

  it.each([
    ['completing', false],
    ['recording the failure of', true],
  ])('keeps running after a database error while %s a job, and runs later jobs', async (_label, throws) => {
    const { db, outage } = withOutages(database.db);
    let firstRuns = 0;
    const first = await enqueue(database.db, 'first', {});
    start(db, {
      // The connection drops just as the job ends, so recording its outcome fails.
      first: async () => {
        firstRuns += 1;
        if (firstRuns > 1) return;
        outage(300);
        if (throws) throw new Error('the work failed');
      },
      later: async () => {},
    });
    await until('the first run', () => firstRuns === 1);
    await sleep(400);
    const later = await enqueue(database.db, 'later', {});
    await until('the later job to be done', async () => (await jobRow(later!.id)).status === 'done', 10_000);
    // The first job's outcome was lost with the connection: it ran again once its lease ran out.
    await until('the first job to be done', async () => (await jobRow(first!.id)).status === 'done', 10_000);
    expect(firstRuns).toBe(2);
  });

  it('backs off after errors in a row: doubling from the poll interval, at most a minute', () => {
    expect([1, 2, 3, 4].map((n) => errorBackoffMs(n, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(errorBackoffMs(30, 1_000)).toBe(60_000);
  });

  describe('with a real transcode', () => {
    let token: string;
    beforeAll(async () => {
      token = await verifiedMemberToken(database.db, 'uploader');
    });

    async function uploadSlowVideo(): Promise<string> {
      const form = new FormData();
      form.append('title', 'A long transcode');
      form.append('category', 'Beta');
      form.append('video', new Blob([readFileSync(slowAvi)]), 'slow.avi');
      const response = await call(upload, '/api/videos/upload', { form, bearer: token });
      expect(response.status).toBe(201);
      return (response.body.video as { _id: string })._id;
    }
    const videoRow = async (id: string) => (await database.db.select().from(videos).where(eq(videos.id, id)))[0]!;
    const processJob = async (id: string) =>
      (
        await database.db
          .select()
          .from(jobs)
          .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${id}`))
      )[0]!;
    /** ffmpeg processes still reading this video's original. */
    const ffmpegRunsFor = (id: string) =>
      readdirSync('/proc')
        .filter((pid) => /^\d+$/.test(pid))
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          } catch {
            return '';
          }
        })
        .filter((cmdline) => cmdline.startsWith('ffmpeg') && cmdline.includes(id));

    it('two workers: a transcode longer than the lease runs once and the video is ready', async () => {
      const id = await uploadSlowVideo();
      const runs: { job: Job; ms: number }[] = [];
      const timed: JobHandler = async (job, context) => {
        const startedAt = performance.now();
        await processVideo(job, context);
        runs.push({ job, ms: performance.now() - startedAt });
      };
      start(database.db, { [PROCESS_VIDEO_JOB]: timed });
      start(database.db, { [PROCESS_VIDEO_JOB]: timed });
      await until('the video to be ready', async () => (await videoRow(id)).processingState === 'ready', 60_000);
      await until('the job to be done', async () => (await processJob(id)).status === 'done');
      expect(runs).toHaveLength(1);
      expect(runs[0]!.ms).toBeGreaterThan(LEASE_MS); // or this test proves nothing
      expect(await processJob(id)).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    });

    it('stops ffmpeg when the lease is taken away mid-transcode, and stores nothing', async () => {
      const id = await uploadSlowVideo();
      let outcome: unknown = null;
      start(database.db, {
        [PROCESS_VIDEO_JOB]: async (job, context) => {
          try {
            await processVideo(job, context);
            outcome = 'finished';
          } catch (error) {
            outcome = error;
            throw error;
          }
        },
      });
      await until('ffmpeg to run', () => ffmpegRunsFor(id).length > 0, 20_000);
      await database.db
        .update(jobs)
        .set({ lockedBy: 'another-worker' })
        .where(eq(jobs.dedupeKey, `${PROCESS_VIDEO_JOB}:${id}`));
      await until('the transcode to stop', () => outcome !== null, 10_000);
      expect(String(outcome)).toMatch(/lease was lost/);
      // Killed, not left to finish: it exits well before the transcode would have.
      await until('ffmpeg to exit', () => ffmpegRunsFor(id).length === 0, 2_000);
      expect(existsSync(path.join(dataDir, 'media', 'videos', id))).toBe(false);
      // The video's state is left to the worker that holds the job now.
      expect(await videoRow(id)).toMatchObject({ processingState: 'processing', processingError: null, webMp4Key: null });
    });
  });
});
