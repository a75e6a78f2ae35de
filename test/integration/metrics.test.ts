import type { Server } from 'node:http';

import { sql } from 'drizzle-orm';

import { jobs } from '@/lib/db/schema';
import { enqueue } from '@/lib/server/jobs/queue';
import { startWorker } from '@/lib/server/jobs/worker';
import { runWithLogContext, setLogSink } from '@/lib/server/log';
import { errorResponse } from '@/lib/server/route-handler';
import { startMetricsServer } from '@/lib/server/metrics';
import { installMetricsProbes } from '@/lib/server/metrics/probes';

import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { sample } from '../helpers/metrics';

/**
 * What an operator's Prometheus sees from a worker process (scripts/worker.ts):
 * /metrics on METRICS_PORT, with and without METRICS_TOKEN, the job queue read
 * from the database at scrape time, job counters after jobs ran, the pool.
 * Ports 3151 and 3152 are this file's.
 */

const TOKEN = 'integration-metrics-token-42';
const OPEN_PORT = 3151;
const TOKEN_PORT = 3152;

async function scrape(port = OPEN_PORT): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** Log records written by the app while this file runs (the anchored logger, pointed at an array). */
const records: Record<string, unknown>[] = [];

describe.each(ENGINES)('metrics on %s', (engine) => {
  let database: TestDatabase;
  let open: Server;
  let guarded: Server;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installMetricsProbes(database);
    setLogSink({ write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) });
    open = await startMetricsServer(OPEN_PORT, '127.0.0.1', undefined);
    guarded = await startMetricsServer(TOKEN_PORT, '127.0.0.1', TOKEN);
  });
  afterAll(async () => {
    await new Promise((resolve) => open.close(resolve));
    await new Promise((resolve) => guarded.close(resolve));
    await database.destroy();
    setLogSink(undefined);
  });
  beforeEach(async () => {
    await database.db.delete(jobs);
  });

  it('serves /metrics on its own port, with the token when one is set, and nothing else', async () => {
    expect((await fetch(`http://127.0.0.1:${OPEN_PORT}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${OPEN_PORT}/api/health`)).status).toBe(404);
    const text = await scrape();
    expect(text).toContain('# TYPE chrysalis_jobs_queued gauge');
    expect(text).toContain('process_resident_memory_bytes');

    const refused = await fetch(`http://127.0.0.1:${TOKEN_PORT}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toContain('chrysalis_');
    expect(
      (await fetch(`http://127.0.0.1:${TOKEN_PORT}/metrics`, { headers: { Authorization: `Bearer ${TOKEN.slice(0, -1)}` } }))
        .status,
    ).toBe(401);
    const allowed = await fetch(`http://127.0.0.1:${TOKEN_PORT}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('chrysalis_jobs_queued');
  });

  it('reads queue depth and the oldest due job by type at scrape time', async () => {
    const type = `queued-${engine}`;
    await enqueue(database.db, type, {}, { runAt: new Date(Date.now() - 90_000) });
    await enqueue(database.db, type, {});
    await enqueue(database.db, type, {}, { runAt: new Date(Date.now() + 600_000) });
    await new Promise((resolve) => setTimeout(resolve, 150)); // the probe's read is shared for 100 ms
    const text = await scrape();
    expect(sample(text, 'chrysalis_jobs_queued', { type })).toBe(3);
    const oldest = sample(text, 'chrysalis_jobs_oldest_queued_seconds', { type });
    expect(oldest).toBeGreaterThanOrEqual(89);
    expect(oldest).toBeLessThan(200);
  });

  it('counts jobs that ran, and failures by type, and logs a failure with the job', async () => {
    const type = `counted-${engine}`;
    const before = await scrape();
    const doneBefore = sample(before, 'chrysalis_job_duration_seconds_count', { type, outcome: 'done' });
    await enqueue(database.db, type, { ok: true });
    await enqueue(database.db, type, { ok: false }, { maxAttempts: 1 });
    const ran: string[] = [];
    const worker = startWorker(database.db, {
      handlers: {
        [type]: async (job) => {
          ran.push(job.id);
          if (!(job.payload as { ok: boolean }).ok) throw new Error('could not reach someone@example.org');
        },
      },
      pollMs: 20,
    });
    for (let i = 0; i < 200 && ran.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    await worker.stop();
    const after = await scrape();
    expect(sample(after, 'chrysalis_job_duration_seconds_count', { type, outcome: 'done' })).toBe(doneBefore + 1);
    expect(sample(after, 'chrysalis_job_duration_seconds_count', { type, outcome: 'failed' })).toBe(1);
    expect(sample(after, 'chrysalis_job_failures_total', { type, final: 'true' })).toBe(1);
    const failure = records.find((record) => record.jobType === type && record.level === 50);
    expect(failure).toMatchObject({ component: 'worker', jobType: type, jobId: expect.any(String) });
    expect(JSON.stringify(failure)).not.toContain('someone@example.org');
  });

  it('reports the database pool', async () => {
    await database.db.execute(sql`select 1`);
    const text = await scrape();
    expect(sample(text, 'chrysalis_db_pool_max')).toBe(engine === 'postgres' ? 10 : 1);
    expect(sample(text, 'chrysalis_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
  });

  it('puts the request id in a 500 answer', async () => {
    const request = new Request('http://localhost/api/anything');
    const body = await runWithLogContext({ requestId: 'req-500-test' }, () => errorResponse(request, new Error('boom')).json());
    expect(body).toEqual({ message: 'Something went wrong on our side. Please try again.', requestId: 'req-500-test' });
    expect(
      records.some((record) => record.requestId === 'req-500-test' && record.level === 50 && record.component === 'api'),
    ).toBe(true);
  });
});
