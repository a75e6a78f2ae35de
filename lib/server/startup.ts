import 'server-only';

import { ConfigError, getConfig, getSessionSecret } from '@/lib/config/server';
import { getDatabaseHandle } from '@/lib/db';
import { DatabaseLockedError } from '@/lib/db/open';

import { ensureAdmin } from './accounts';
import { startClusterEvents } from './cluster';
import { demoSeedingEnabled, enqueueDemoSeedIfEmpty } from './demo/seed-demo';
import { scheduleDataExportSweep } from './exports';
import { ALL_JOB_HANDLERS } from './jobs/handlers';
import { startWorker } from './jobs/worker';
import { seedStarterTasksIfUnused } from './tasks/starter-pool';
import { startQuarantineSweeper } from './videos/quarantine';
import { registerUploadBridge } from './videos/upload-node';
import { PROCESS_VIDEO_JOB } from './videos/upload';
import { scheduleSearchRankingRefresh } from './videos/search-refresh';
import { enqueuePreviewsBackfill } from './videos/previews-backfill';
import { enqueueThumbnailBackfill } from './videos/thumbnail-backfill';
import { schedulePrivateDocumentSweep } from './verification/retention';
import { scheduleVipExpiry } from './vip/expiry';
import { scheduleRecurring } from './jobs/recurring';
import { scheduleRetentionSweeps } from './jobs/retention';
import { SWEEP_RESUMABLE_UPLOADS, VACUUM_EMBEDDED } from './maintenance';
import { recoverAtStart } from './recovery';
import { logger } from './log';
import { installMetricsProbes } from './metrics/probes';

const log = logger('startup');

/** Start-up checks for the web process; exits the process when they fail. */
export async function startServer(): Promise<void> {
  try {
    const config = getConfig();
    const handle = await getDatabaseHandle();
    const { engine, db } = handle;
    installMetricsProbes(handle);
    const where = engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
    log.info({ engine }, `${config.siteName} ready: ${config.siteUrl} · database: ${where}, migrations applied`);
    // Not a start-up error (decision 017): /2257 says plainly that no custodian is named, and this says it to the operator.
    if (config.nodeEnv === 'production' && !config.operator.recordsCustodianConfigured) {
      log.warn(
        'RECORDS_CUSTODIAN_NAME and RECORDS_CUSTODIAN_ADDRESS are not set: /2257 names no custodian of records (see docs/configuration.md).',
      );
    }
    // After a crash or kill -9: uploads cut off go (startQuarantineSweeper), jobs of dead workers are due at once, stale work folders go (decision 020).
    await recoverAtStart(db, 'chrysalis');
    // Several web processes and workers on one PostgreSQL database: purges and job wake-ups reach all of them (decision 022).
    if (config.databaseListenUrl) startClusterEvents(config.databaseListenUrl, getSessionSecret(config));
    startQuarantineSweeper();
    registerUploadBridge();
    // The recurring VIP expiry job re-queues itself; queueing the current slot here restarts the chain after any downtime.
    await scheduleVipExpiry(db);
    // Expired data exports are deleted by a recurring job too (lib/server/exports).
    await scheduleDataExportSweep(db);
    // Identity documents past their retention after an account ended (lib/server/verification/retention.ts).
    await schedulePrivateDocumentSweep(db);
    // Old finished and failed jobs, and expired rate-limit counters (lib/server/jobs/retention.ts, decision 023).
    await scheduleRetentionSweeps(db);
    // Videos processed before thumbnails had WebP widths get them, once per database (lib/server/videos/thumbnail-backfill.ts).
    await enqueueThumbnailBackfill(db);
    // Videos packaged before the ladder made storyboards and preview clips get them (lib/server/videos/previews-backfill.ts).
    await enqueuePreviewsBackfill(db);
    // Unfinished resumable uploads past their expiry (decision 026).
    await scheduleRecurring(db, SWEEP_RESUMABLE_UPLOADS);
    // Common words' search rankings, stored for every process (decision 032).
    await scheduleSearchRankingRefresh(db);
    if (engine === 'pglite') {
      // One process owns the embedded database, so it runs the jobs too; with PostgreSQL, run `npm run worker` beside the web processes.
      // Two loops: new uploads get their playable MP4 at once, never queued behind a long HLS packaging job.
      const { [PROCESS_VIDEO_JOB]: processVideo, ...background } = ALL_JOB_HANDLERS;
      startWorker(db, { handlers: { [PROCESS_VIDEO_JOB]: processVideo! }, concurrency: 1 });
      startWorker(db, { handlers: background, concurrency: 1 });
      log.info('job workers running in this process');
      await scheduleRecurring(db, VACUUM_EMBEDDED);
      // Before ensureAdmin: a first start with ADMIN_* set still counts as an empty site. The clips are made by the worker, not here.
      if (demoSeedingEnabled() && (await enqueueDemoSeedIfEmpty(db))) {
        log.info('empty site: making a dozen labelled demo videos in the background (SEED_DEMO=0 skips this)');
      }
    }
    // Either engine: a fresh site should have a daily task from day one (never again once the feature was used).
    if (demoSeedingEnabled()) {
      const added = await seedStarterTasksIfUnused(db);
      if (added > 0) log.info(`daily tasks: added ${added} starter tasks to the pool (SEED_DEMO=0 skips this)`);
    }
    const admin = await ensureAdmin();
    // Admin tools answer only after two-factor (decision 018): the operator is told where the first admin turns it on.
    if (admin === 'created' || admin === 'promoted')
      log.info(
        `admin account ${config.admin!.username} ${admin}; log in and turn on two-factor authentication at /settings/security to use the admin panel`,
      );
    if (admin === 'missing') {
      log.info(
        'there is no admin account yet. To create one, start with ADMIN_USERNAME, ADMIN_EMAIL and ' +
          'ADMIN_PASSWORD (12+ characters) set, e.g. ADMIN_USERNAME=admin ADMIN_EMAIL=you@example.org ADMIN_PASSWORD=… npm start',
      );
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
      log.fatal(error.message);
    } else {
      log.fatal({ err: error }, 'start-up failed');
    }
    process.exit(1);
  }
}
