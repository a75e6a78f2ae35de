/**
 * Prometheus metrics (prom-client): one registry per process, served at
 * /metrics by scripts/serve.ts (with METRICS_TOKEN) and on METRICS_PORT by
 * scripts/serve.ts and scripts/worker.ts (docs/operations.md, Metrics).
 *
 * Metrics are counted in the Next app's module instances (jobs, ffmpeg,
 * uploads) and in scripts/serve.ts (requests, page cache), which Next loads
 * separately; so the registry and every metric are made once and anchored on
 * the global object, like lib/events.ts. Values read at scrape time (the job
 * queue, the database pool) come from probes the process that owns the
 * database installs (setJobQueueProbe, setPoolProbe).
 *
 * Deliberately plain Node (no server-only marker, no app imports): scripts/serve.ts imports it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Queued jobs of one type: how many, and how long the oldest due one has waited. */
export interface QueueRow {
  type: string;
  queued: number;
  oldestSeconds: number;
}

/** A database pool's connections now (PGlite: one, always open). */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

function makeMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const probes: { jobQueue?: () => Promise<QueueRow[]>; pool?: () => PoolStats } = {};
  // One query per scrape feeds both queue gauges.
  let queueRead: Promise<QueueRow[]> | undefined;
  const readQueue = () => {
    if (!probes.jobQueue) return Promise.resolve([] as QueueRow[]);
    queueRead ??= probes.jobQueue().finally(() => setTimeout(() => (queueRead = undefined), 100).unref());
    return queueRead.catch(() => [] as QueueRow[]);
  };
  const metrics = {
    registry,
    probes,
    httpRequests: new Counter({
      name: 'chrysalis_http_requests_total',
      help: 'HTTP requests answered, by method, route (ids collapsed) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'chrysalis_http_request_duration_seconds',
      help: 'Time from a request to its answer being sent, by method and route.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    pageCache: new Counter({
      name: 'chrysalis_page_cache_requests_total',
      help: 'Public page documents answered by the page cache: hit, stale (served, refreshed behind), miss (stored after), pass (fetched for this request only).',
      labelNames: ['result'],
      registers,
    }),
    jobsQueued: new Gauge({
      name: 'chrysalis_jobs_queued',
      help: 'Jobs waiting in the queue, by type (read from the jobs table at scrape time).',
      labelNames: ['type'],
      registers,
      async collect() {
        this.reset();
        for (const row of await readQueue()) this.set({ type: row.type }, row.queued);
      },
    }),
    jobsOldest: new Gauge({
      name: 'chrysalis_jobs_oldest_queued_seconds',
      help: 'Age of the oldest due job still waiting, by type (0 when none is due).',
      labelNames: ['type'],
      registers,
      async collect() {
        this.reset();
        for (const row of await readQueue()) this.set({ type: row.type }, row.oldestSeconds);
      },
    }),
    jobDuration: new Histogram({
      name: 'chrysalis_job_duration_seconds',
      help: 'Time a job handler ran, by type and outcome (done, retry, failed, lost).',
      labelNames: ['type', 'outcome'],
      buckets: [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers,
    }),
    jobFailures: new Counter({
      name: 'chrysalis_job_failures_total',
      help: 'Job runs that threw, by type; final="true" when the job gave up.',
      labelNames: ['type', 'final'],
      registers,
    }),
    ffmpegSeconds: new Histogram({
      name: 'chrysalis_ffmpeg_duration_seconds',
      help: 'Wall-clock time of ffmpeg runs, by output (web_mp4, hls, thumbnail) and outcome.',
      labelNames: ['output', 'outcome'],
      buckets: [0.5, 1, 5, 15, 60, 300, 900, 3600, 14400],
      registers,
    }),
    clusterRefused: new Counter({
      name: 'chrysalis_cluster_messages_refused_total',
      help: 'Cluster notifications dropped (decision 022), by reason: forged (bad MAC), stale, replayed, malformed, oversized.',
      labelNames: ['reason'],
      registers,
    }),
    uploadBytes: new Counter({
      name: 'chrysalis_upload_bytes_total',
      help: 'Bytes of video upload bodies received, by outcome (stored or refused).',
      labelNames: ['outcome'],
      registers,
    }),
    poolConnections: new Gauge({
      name: 'chrysalis_db_pool_connections',
      help: 'Database connections by state: open, idle, in_use; and requests waiting for one (waiting).',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const stats = probes.pool?.();
        if (!stats) return;
        this.set({ state: 'open' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    }),
    poolMax: new Gauge({
      name: 'chrysalis_db_pool_max',
      help: 'Most connections the pool opens.',
      registers,
      collect() {
        const stats = probes.pool?.();
        if (stats) this.set(stats.max);
      },
    }),
  };
  return metrics;
}

export type Metrics = ReturnType<typeof makeMetrics>;

const ANCHOR = Symbol.for('chrysalis.metrics');
const anchored = globalThis as typeof globalThis & { [ANCHOR]?: Metrics };

/** The process's metrics, made by whichever copy of this module asks first. */
export function metrics(): Metrics {
  return (anchored[ANCHOR] ??= makeMetrics());
}

/** Reads the job queue at scrape time (the process that has the database installs it; the last one wins). */
export function setJobQueueProbe(probe: (() => Promise<QueueRow[]>) | undefined): void {
  metrics().probes.jobQueue = probe;
}

/** Reads the database pool at scrape time. */
export function setPoolProbe(probe: (() => PoolStats) | undefined): void {
  metrics().probes.pool = probe;
}

/** Times an async piece of work into a histogram with the given labels plus `outcome` (ok or error). */
export async function timed<T>(
  histogram: Histogram<'output' | 'outcome'>,
  labels: { output: string },
  work: () => Promise<T>,
): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    const result = await work();
    end({ outcome: 'ok' });
    return result;
  } catch (error) {
    end({ outcome: 'error' });
    throw error;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  // Digests have one length, so the comparison takes the same time whatever was sent.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

export const METRICS_PATH = '/metrics';

/**
 * Answers GET /metrics: the registry in Prometheus' text format when no token is
 * required or the request carries it, else 401 with a Bearer challenge.
 */
export async function answerMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined): Promise<void> {
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    res.writeHead(401, {
      'content-type': 'text/plain; charset=utf-8',
      'www-authenticate': 'Bearer realm="metrics"',
      'cache-control': 'no-store',
    });
    res.end('A valid METRICS_TOKEN is required.\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' });
    res.end();
    return;
  }
  const { registry } = metrics();
  const body = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Whether a request is for /metrics (any query string). */
export function isMetricsRequest(req: IncomingMessage): boolean {
  return (req.url ?? '').split('?')[0] === METRICS_PATH;
}

/**
 * A tiny server of its own for /metrics on METRICS_PORT (bound to METRICS_HOST, loopback by default):
 * everything else is a 404. Resolves once it listens.
 */
export function startMetricsServer(port: number, host: string, token: string | undefined): Promise<Server> {
  const server = createServer((req, res) => {
    if (!isMetricsRequest(req)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found. Metrics are at /metrics.\n');
      return;
    }
    answerMetrics(req, res, token).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
