/**
 * `npm run worker`: runs background jobs (video processing) beside the web
 * processes when DATABASE_URL points at PostgreSQL. Start as many as the
 * machine has cores for; SIGTERM lets the running job finish first. (With
 * the embedded database the server runs the jobs itself.)
 */
import { ConfigError, getSessionSecret, loadConfig } from '@/lib/config/server';
import { parseEnv } from '@/lib/config/schema';
import { installDatabase } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { startClusterEvents } from '@/lib/server/cluster';
import { ALL_JOB_HANDLERS } from '@/lib/server/jobs/handlers';
import { scheduleRetentionSweeps } from '@/lib/server/jobs/retention';
import { startWorker, type JobHandler } from '@/lib/server/jobs/worker';
import { mediaToolsProblem } from '@/lib/server/media/tools';
import { recoverAtStart } from '@/lib/server/recovery';
import { EXPIRE_VIP_JOB, scheduleVipExpiry } from '@/lib/server/vip/expiry';
import { scheduleDataExportSweep, SWEEP_DATA_EXPORTS } from '@/lib/server/exports';
import { schedulePrivateDocumentSweep, SWEEP_PRIVATE_DOCUMENTS } from '@/lib/server/verification/retention';
import { REFRESH_SEARCH_RANKINGS, scheduleSearchRankingRefresh } from '@/lib/server/videos/search-refresh';
import { logger } from '@/lib/server/log';
import { startMetricsServer } from '@/lib/server/metrics';
import { installMetricsProbes } from '@/lib/server/metrics/probes';

const log = logger('worker');

/**
 * The handlers this worker runs: WORKER_JOB_TYPES (already checked for form
 * by the config schema) or all. WORKER_JOB_TYPES=process-video gives new
 * uploads their own worker, never queued behind HLS packaging. A type no
 * handler has is a configuration error, named like the schema's.
 */
function pickHandlers(only: string[] | null): Record<string, JobHandler> {
  if (!only) return ALL_JOB_HANDLERS;
  const unknown = only.filter((type) => !(type in ALL_JOB_HANDLERS));
  if (unknown.length) {
    throw new ConfigError([
      {
        variable: 'WORKER_JOB_TYPES',
        message: `names unknown job types: ${unknown.join(', ')} (known: ${Object.keys(ALL_JOB_HANDLERS).join(', ')})`,
      },
    ]);
  }
  return Object.fromEntries(only.map((type) => [type, ALL_JOB_HANDLERS[type]!]));
}

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    log.fatal('npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, `npm start` runs the jobs itself.');
    process.exit(1);
  }
  const { workerConcurrency: concurrency, workerJobTypes, workerPollMs } = config.jobs;
  const handlers = pickHandlers(workerJobTypes);
  // Video jobs need ffmpeg and ffprobe: refuse to start rather than fail every upload (decision 020).
  const toolsProblem = await mediaToolsProblem();
  if (toolsProblem) {
    log.fatal(`npm run worker: ${toolsProblem}`);
    process.exit(1);
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  installDatabase(handle);
  installMetricsProbes(handle);
  // After a crash: this host's dead workers' jobs are due at once, their work folders go.
  await recoverAtStart(handle.db, 'worker');
  // The VIP expiry job re-queues itself; queueing the current slot restarts the chain after downtime (one job per slot whatever the number of workers).
  if (EXPIRE_VIP_JOB in handlers) await scheduleVipExpiry(handle.db);
  if (SWEEP_DATA_EXPORTS.type in handlers) await scheduleDataExportSweep(handle.db);
  if (SWEEP_PRIVATE_DOCUMENTS.type in handlers) await schedulePrivateDocumentSweep(handle.db);
  if (REFRESH_SEARCH_RANKINGS.type in handlers) await scheduleSearchRankingRefresh(handle.db);
  await scheduleRetentionSweeps(handle.db, Object.keys(handlers));
  // Jobs committed by a web process wake this worker at once; pages its jobs change (a video ready) are purged in every web process (decision 022).
  const cluster = startClusterEvents(config.databaseListenUrl ?? config.databaseUrl, getSessionSecret(config));
  const worker = startWorker(handle.db, {
    handlers,
    concurrency,
    pollMs: workerPollMs,
  });
  log.info(
    { workerId: worker.id, types: Object.keys(handlers), concurrency },
    `${worker.id} running ${Object.keys(handlers).join(', ')} (concurrency ${concurrency})`,
  );
  // METRICS_PORT: this worker's /metrics (jobs, ffmpeg, the queue), loopback unless METRICS_HOST says otherwise.
  const env = parseEnv(process.env);
  const metricsServer = env.METRICS_PORT
    ? await startMetricsServer(env.METRICS_PORT, env.METRICS_HOST, env.METRICS_TOKEN)
    : undefined;
  if (metricsServer)
    log.info(
      { metricsPort: env.METRICS_PORT, metricsHost: env.METRICS_HOST },
      `metrics on http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics`,
    );
  const stop = async () => {
    log.info('stopping after the running job…');
    metricsServer?.close();
    await worker.stop();
    await cluster.stop();
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
