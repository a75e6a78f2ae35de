/**
 * `npm run worker`: runs background jobs (video processing) beside the web
 * processes when DATABASE_URL points at PostgreSQL. Start as many as the
 * machine has cores for; SIGTERM lets the running job finish first. (With
 * the embedded database the server runs the jobs itself.)
 */
import { ConfigError, loadConfig } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { startWorker } from '@/lib/server/jobs/worker';
import { JOB_HANDLERS } from '@/lib/server/videos/processing';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error('npm run worker needs DATABASE_URL (PostgreSQL). With the embedded database, `npm start` runs the jobs itself.');
    process.exit(1);
  }
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  installDatabase(handle);
  const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 1);
  const worker = startWorker(handle.db, {
    handlers: JOB_HANDLERS,
    concurrency,
    onError: (job, error, status) => console.error(`[worker] ${job.type} ${job.id} ${status === 'failed' ? 'gave up' : 'will retry'}:`, error),
  });
  console.log(`[worker] ${worker.id} running ${Object.keys(JOB_HANDLERS).join(', ')} (concurrency ${concurrency})`);
  const stop = async () => {
    console.log('[worker] stopping after the running job…');
    await worker.stop();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
