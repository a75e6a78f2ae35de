import { eq, sql } from 'drizzle-orm';

import { jobs } from '@/lib/db/schema';
import { backoffMs, claim, complete, enqueue, fail } from '@/lib/server/jobs/queue';
import { startWorker } from '@/lib/server/jobs/worker';

import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

describe.each(ENGINES)('job queue on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(jobs);
  });

  it('enqueues, claims once, and completes', async () => {
    const job = await enqueue(database.db, 'probe', { videoId: 'v1' });
    expect(job).toMatchObject({ type: 'probe', status: 'queued', attempts: 0, payload: { videoId: 'v1' } });
    const claimed = await claim(database.db, 'worker-a', ['probe'], 30_000);
    expect(claimed).toMatchObject({ id: job!.id, status: 'running', attempts: 1, lockedBy: 'worker-a' });
    expect(await claim(database.db, 'worker-b', ['probe'], 30_000)).toBeNull();
    await complete(database.db, claimed!, 'worker-a');
    const [done] = await database.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(done).toMatchObject({ status: 'done', lockedBy: null });
    expect(done!.finishedAt).not.toBeNull();
  });

  it('ignores a second enqueue with the same dedupe key', async () => {
    expect(await enqueue(database.db, 'transcode', {}, { dedupeKey: 'transcode:v1' })).not.toBeNull();
    expect(await enqueue(database.db, 'transcode', {}, { dedupeKey: 'transcode:v1' })).toBeNull();
    expect(await database.db.select().from(jobs)).toHaveLength(1);
  });

  it('only claims the types asked for, and nothing scheduled for later', async () => {
    await enqueue(database.db, 'mail', {});
    await enqueue(database.db, 'probe', {}, { runAt: new Date(Date.now() + 60_000) });
    expect(await claim(database.db, 'w', ['probe'], 30_000)).toBeNull();
    expect(await claim(database.db, 'w', ['mail'], 30_000)).toMatchObject({ type: 'mail' });
  });

  it('retries a failure after a backoff, then gives up keeping the reason', async () => {
    const job = await enqueue(database.db, 'probe', {}, { maxAttempts: 2 });
    const first = await claim(database.db, 'w', ['probe'], 30_000);
    expect(await fail(database.db, first!, 'w', new Error('ffprobe: invalid data'))).toBe('queued');
    const [waiting] = await database.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(waiting).toMatchObject({ status: 'queued', lastError: 'ffprobe: invalid data', attempts: 1 });
    expect(waiting!.runAt.getTime()).toBeGreaterThan(Date.now() + 3_000);
    expect(await claim(database.db, 'w', ['probe'], 30_000)).toBeNull();

    await database.db.update(jobs).set({ runAt: sql`now() - interval '1 second'` });
    const second = await claim(database.db, 'w', ['probe'], 30_000);
    expect(second!.attempts).toBe(2);
    expect(await fail(database.db, second!, 'w', new Error('still broken'))).toBe('failed');
    const [failed] = await database.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(failed).toMatchObject({ status: 'failed', lastError: 'still broken', attempts: 2 });
    expect(await claim(database.db, 'w', ['probe'], 30_000)).toBeNull();
  });

  it('gives a job whose worker died (lease ran out) to another worker, and ignores the dead worker’s late answer', async () => {
    await enqueue(database.db, 'probe', {});
    const taken = await claim(database.db, 'dead-worker', ['probe'], 30_000);
    await database.db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` });
    const retaken = await claim(database.db, 'live-worker', ['probe'], 30_000);
    expect(retaken).toMatchObject({ id: taken!.id, lockedBy: 'live-worker', attempts: 2 });
    await complete(database.db, taken!, 'dead-worker');
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, taken!.id));
    expect(row!.status).toBe('running');
  });

  it('never hands one job to two workers claiming at the same time', async () => {
    for (let i = 0; i < 20; i += 1) await enqueue(database.db, 'probe', { i });
    const claims = await Promise.all(Array.from({ length: 30 }, (_, i) => claim(database.db, `w${i}`, ['probe'], 30_000)));
    const ids = claims.filter(Boolean).map((job) => job!.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('runs jobs with a worker, retries failures, and stops cleanly', async () => {
    const seen: string[] = [];
    let flaky = 0;
    await enqueue(database.db, 'ok', { n: 1 });
    await enqueue(database.db, 'flaky', {}, { maxAttempts: 3 });
    const worker = startWorker(database.db, {
      handlers: {
        ok: async (job) => void seen.push(`ok:${(job.payload as { n: number }).n}`),
        flaky: async () => {
          flaky += 1;
          if (flaky < 2) throw new Error('transient');
          seen.push('flaky');
        },
      },
      pollMs: 20,
      baseBackoffMs: 1,
    });
    const deadline = Date.now() + 10_000;
    while (seen.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    await worker.stop();
    expect(seen.sort()).toEqual(['flaky', 'ok:1']);
    const rows = await database.db.select().from(jobs);
    expect(rows.map((row) => row.status)).toEqual(['done', 'done']);
  });

  it('backs off exponentially, capped at ten minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(backoffMs(30)).toBe(600_000);
  });
});
