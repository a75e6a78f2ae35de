import 'server-only';

import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages } from '@/lib/events';
import { THUMBNAIL_WIDTHS } from '@/lib/media/thumbnails';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { makeThumbnailVariants } from '../media/thumbnail-variants';
import { logger } from '../log';
import { getMediaStorage, mediaKeys, thumbnailVariantName } from '../storage';

const log = logger('thumbnails');

/**
 * Videos processed before thumbnails had WebP widths (migration 0022) get
 * them from this job, queued once per database at start: it walks every
 * video with a JPEG and no version, oldest first, and stops when none is
 * left (a rerun after a crash picks up where it stopped, since done rows
 * have their version). Until then their cards show the JPEG.
 */
export const THUMBNAIL_BACKFILL_JOB = 'thumbnail-backfill';
const BATCH = 50;

export async function enqueueThumbnailBackfill(db: Database): Promise<void> {
  await enqueue(db, THUMBNAIL_BACKFILL_JOB, {}, { dedupeKey: `${THUMBNAIL_BACKFILL_JOB}:0022`, maxAttempts: 5 });
}

export const thumbnailBackfill: JobHandler = async (_job, { signal }) => {
  const db = await getDb();
  const storage = getMediaStorage();
  const work = path.join(getConfig().dataDir, 'work', THUMBNAIL_BACKFILL_JOB);
  let made = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  try {
    for (;;) {
      const batch = await queryRows<{ id: string; thumbnail_key: string }>(
        db,
        sql`SELECT id, thumbnail_key FROM videos WHERE thumbnail_key IS NOT NULL AND thumbnail_version IS NULL AND id > ${after} ORDER BY id LIMIT ${BATCH}`,
      );
      if (batch.length === 0) break;
      for (const { id, thumbnail_key: key } of batch) {
        signal.throwIfAborted();
        after = id;
        const jpeg = await storage.openLocal(key).catch(() => null);
        // A row whose file went missing keeps its JPEG URL (a 404 either way); it is not this job's to repair.
        if (!jpeg) continue;
        try {
          await rm(work, { recursive: true, force: true });
          await mkdir(work, { recursive: true });
          const version = await makeThumbnailVariants(jpeg.path, work);
          for (const width of THUMBNAIL_WIDTHS)
            await storage.putFile(
              mediaKeys.thumbnailVariant(id, width),
              path.join(work, thumbnailVariantName(width)),
              'image/webp',
            );
          // Only if the thumbnail is still the one the variants were made from (processing may have replaced it meanwhile).
          await db.execute(
            sql`UPDATE videos SET thumbnail_version = ${version} WHERE id = ${id} AND thumbnail_key = ${key} AND thumbnail_version IS NULL`,
          );
          made += 1;
        } catch (error) {
          log.warn({ err: error, videoId: id }, 'thumbnail variants not made; the card keeps its JPEG');
        } finally {
          await jpeg.release();
        }
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (made > 0) {
    log.info(`made the WebP thumbnail widths of ${made} videos processed before them`);
    purgePublicPages();
  }
};

export const THUMBNAIL_JOB_HANDLERS: Record<string, JobHandler> = { [THUMBNAIL_BACKFILL_JOB]: thumbnailBackfill };
