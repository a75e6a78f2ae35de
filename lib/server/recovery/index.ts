import 'server-only';

import { readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { and, eq, sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';
import { jobs } from '@/lib/db/schema';
import { isProcessAlive } from '@/lib/process-owner';

import { logger } from '../log';

const log = logger('recovery');

/** A job's work folder under DATA_DIR/work: the video id, and `-hls` for the ladder (lib/server/videos/processing.ts). */
const WORK_FOLDER = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(-hls)?$/;

/**
 * The worker that holds a job ran on this host and is gone. Worker ids are
 * `host:pid:random` (lib/server/jobs/worker.ts). This process's own pid
 * counts as gone because recovery runs before this process starts a
 * worker: a job held under our pid was held by an earlier process that had
 * it (a container restarted after a crash).
 */
function heldByDeadLocalWorker(lockedBy: string | null): boolean {
  if (!lockedBy) return false;
  const [host, pidText] = lockedBy.split(':');
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  return pid === process.pid || !isProcessAlive(pid);
}

export interface Recovery {
  /** Running jobs whose worker on this host died: due again now instead of when their lease runs out. */
  releasedJobs: number;
  /** Work folders no live job owns. */
  removedFolders: number;
}

/**
 * Start-up recovery after a crash or kill -9, before this process starts
 * any worker: jobs held by dead workers of this host are due again at once
 * (each handler is idempotent, so the transcode starts over and finishes),
 * and work folders (DATA_DIR/work/{videoId}[-hls]) that no job with a live
 * lease owns are removed. A folder made after the jobs were read is left
 * alone (a worker in another process may have just claimed its job).
 */
export async function recoverAfterCrash(db: Database): Promise<Recovery> {
  const startedAt = Date.now();
  const running = await db
    .select({ id: jobs.id, lockedBy: jobs.lockedBy, payload: jobs.payload, live: sql<boolean>`${jobs.lockedUntil} > now()` })
    .from(jobs)
    .where(eq(jobs.status, 'running'));
  const dead = running.filter((job) => heldByDeadLocalWorker(job.lockedBy));
  let releasedJobs = 0;
  for (const job of dead) {
    const released = await db
      .update(jobs)
      .set({ lockedUntil: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, job.lockedBy!)))
      .returning({ id: jobs.id });
    releasedJobs += released.length;
  }
  const deadIds = new Set(dead.map((job) => job.id));
  const owned = new Set(
    running.filter((job) => job.live && !deadIds.has(job.id)).map((job) => String(job.payload.videoId ?? '')),
  );

  const workRoot = path.join(getConfig().dataDir, 'work');
  let names: string[];
  try {
    names = await readdir(workRoot);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { releasedJobs, removedFolders: 0 };
    throw error;
  }
  let removedFolders = 0;
  for (const name of names) {
    const match = WORK_FOLDER.exec(name);
    if (!match || owned.has(match[1]!)) continue;
    const folder = path.join(workRoot, name);
    try {
      if ((await stat(folder)).mtimeMs >= startedAt) continue;
      await rm(folder, { recursive: true, force: true });
      removedFolders += 1;
    } catch {
      // Gone meanwhile: its job finished.
    }
  }
  return { releasedJobs, removedFolders };
}

/** Runs recoverAfterCrash and says what it did; never stops a start. */
export async function recoverAtStart(db: Database, who: string): Promise<void> {
  try {
    const { releasedJobs, removedFolders } = await recoverAfterCrash(db);
    if (releasedJobs || removedFolders) {
      log.warn(
        { who },
        `recovered after an unclean stop: ${releasedJobs} job(s) of dead workers due again, ${removedFolders} stale work folder(s) removed`,
      );
    }
  } catch (error) {
    log.error({ who, err: error }, 'start-up recovery failed (jobs resume when their leases run out)');
  }
}
