/**
 * `npm run worker`: runs background jobs (video processing) beside the web
 * processes when DATABASE_URL points at PostgreSQL. Start as many as the
 * machine has cores for; SIGTERM lets the running job finish first. (With
 * the embedded database the server runs the jobs itself.)
 */
import { ConfigError, loadConfig } from '@/lib/config/server';
import { parseEnv } from '@/lib/config/schema';
import { installDatabase } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { ALL_JOB_HANDLERS } from '@/lib/server/jobs/handlers';
import { startWorker } from '@/lib/server/jobs/worker';
import { EXPIRE_VIP_JOB, scheduleVipExpiry } from '@/lib/server/vip/expiry';
import { scheduleDataExportSweep, SWEEP_DATA_EXPORTS } from '@/lib/server/exports';
import { schedulePrivateDocumentSweep, SWEEP_PRIVATE_DOCUMENTS } from '@/lib/server/verification/retention';
import { logger } from '@/lib/server/log';
import { startMetricsServer } from '@/lib/server/metrics';
import { installMetricsProbes } from '@/lib/server/metrics/probes';

const log = logger('worker');

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    log.fatal('npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, `npm start` runs the jobs itself.');
    process.exit(1);
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  installDatabase(handle);
  installMetricsProbes(handle);
  const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 1);
  const all = ALL_JOB_HANDLERS;
  // WORKER_JOB_TYPES=process-video gives new uploads their own worker, never queued behind HLS packaging.
  const only = (process.env.WORKER_JOB_TYPES ?? '').split(',').map((type) => type.trim()).filter(Boolean);
  const unknown = only.filter((type) => !(type in all));
  if (unknown.length) {
    log.fatal(`WORKER_JOB_TYPES names unknown job types: ${unknown.join(', ')}. Known: ${Object.keys(all).join(', ')}`);
    process.exit(1);
  }
  const handlers = only.length ? Object.fromEntries(only.map((type) => [type, all[type]!])) : all;
  // The VIP expiry job re-queues itself; queueing the current slot restarts the chain after downtime (one job per slot whatever the number of workers).
  if (EXPIRE_VIP_JOB in handlers) await scheduleVipExpiry(handle.db);
  if (SWEEP_DATA_EXPORTS.type in handlers) await scheduleDataExportSweep(handle.db);
  if (SWEEP_PRIVATE_DOCUMENTS.type in handlers) await schedulePrivateDocumentSweep(handle.db);
  const worker = startWorker(handle.db, {
    handlers,
    concurrency,
    pollMs: Number(process.env.WORKER_POLL_MS ?? 1_000),
  });
  log.info({ workerId: worker.id, types: Object.keys(handlers), concurrency }, `${worker.id} running ${Object.keys(handlers).join(', ')} (concurrency ${concurrency})`);
  // METRICS_PORT: this worker's /metrics (jobs, ffmpeg, the queue), loopback unless METRICS_HOST says otherwise.
  const env = parseEnv(process.env);
  const metricsServer = env.METRICS_PORT ? await startMetricsServer(env.METRICS_PORT, env.METRICS_HOST, env.METRICS_TOKEN) : undefined;
  if (metricsServer) log.info({ metricsPort: env.METRICS_PORT, metricsHost: env.METRICS_HOST }, `metrics on http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics`);
  const stop = async () => {
    log.info('stopping after the running job…');
    metricsServer?.close();
    await worker.stop();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) log.fatal(error.message);
  else log.fatal({ err: error }, 'worker failed');
  process.exit(1);
});
