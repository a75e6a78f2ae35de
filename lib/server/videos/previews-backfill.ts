import 'server-only';

import path from 'node:path';
import { rm } from 'node:fs/promises';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages } from '@/lib/events';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { logger } from '../log';
import { makePreviews } from '../media/previews';
import { probeVideo } from '../media/probe';
import { getMediaStorage } from '../storage';

import { putPreviews } from './processing';

const log = logger('previews');

/**
 * Videos packaged before the ladder made previews (migration 0026) get their storyboard and preview clip
 * from this job, queued once per database at start: it walks every video with a ladder and no previews,
 * oldest id first, making them from the web MP4, and stops when none is left (a rerun after a crash picks
 * up where it stopped, since done rows have their version). Until then their seek bar shows the time alone
 * and their cards no clip.
 */
export const PREVIEWS_BACKFILL_JOB = 'previews-backfill';
const BATCH = 20;

export async function enqueuePreviewsBackfill(db: Database): Promise<void> {
  await enqueue(db, PREVIEWS_BACKFILL_JOB, {}, { dedupeKey: `${PREVIEWS_BACKFILL_JOB}:0026`, maxAttempts: 5 });
}

export const previewsBackfill: JobHandler = async (_job, { signal }) => {
  const db = await getDb();
  const storage = getMediaStorage();
  const work = path.join(getConfig().dataDir, 'work', PREVIEWS_BACKFILL_JOB);
  let made = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  try {
    for (;;) {
      const batch = await queryRows<{ id: string; web_mp4_key: string }>(
        db,
        sql`SELECT id, web_mp4_key FROM videos
            WHERE hls_master_key IS NOT NULL AND web_mp4_key IS NOT NULL AND previews_version IS NULL AND id > ${after}
            ORDER BY id LIMIT ${BATCH}`,
      );
      if (batch.length === 0) break;
      for (const { id, web_mp4_key: key } of batch) {
        signal.throwIfAborted();
        after = id;
        const mp4 = await storage.openLocal(key).catch(() => null);
        // A row whose file went missing is not this job's to repair.
        if (!mp4) continue;
        try {
          const probe = await probeVideo(mp4.path, { signal });
          const version = await makePreviews(mp4.path, work, probe, { signal });
          await putPreviews(id, work);
          await db.execute(sql`UPDATE videos SET previews_version = ${version} WHERE id = ${id} AND previews_version IS NULL`);
          made += 1;
        } catch (error) {
          if (signal.aborted) throw error;
          log.warn({ err: error, videoId: id }, 'previews not made; the video plays without them');
        } finally {
          await mp4.release();
        }
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (made > 0) {
    log.info(`made the storyboard and preview clip of ${made} videos packaged before them`);
    purgePublicPages();
  }
};

export const PREVIEWS_JOB_HANDLERS: Record<string, JobHandler> = { [PREVIEWS_BACKFILL_JOB]: previewsBackfill };
