import 'server-only';

import type { Database } from '@/lib/db';
import type { Job } from '@/lib/db/schema';

import { removeProfilePhoto } from '../accounts/photos';
import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { getMediaStorage, mediaKeys } from '../storage';

/**
 * Removes a deleted video's or account's files. The request that deletes
 * does the database part in one transaction (the rows are gone at once) and
 * queues this job in the same transaction with every storage prefix to
 * remove, so nothing points at the files any more and a crash can only
 * leave the job to run (again). Deleting what is already gone is a no-op,
 * so a run that was killed half-way is simply run again.
 */
export const PURGE_MEDIA_JOB = 'purge-media';

/**
 * Retried with backoff (capped at 10 minutes) until the files are gone: at
 * that cap 10,000 attempts are about ten weeks, long past any storage outage
 * worth waiting out, and a job that still fails then is `failed` with its
 * last_error for the operator, never dropped silently.
 */
export const PURGE_MAX_ATTEMPTS = 10_000;

export interface PurgePayload {
  /** Storage keys whose object and everything under `key/` go (originals/…, videos/{id}, exports/{userId}). */
  prefixes: string[];
  /** Profile photo keys (the avatar files under DATA_DIR/media/avatars). */
  avatars: string[];
}

/** The storage prefixes of one video: its original and its folder (web MP4, thumbnail, HLS). */
export function videoPrefixes(video: { id: string; sourceKey: string }): string[] {
  return [mediaKeys.original(video.sourceKey), mediaKeys.videoPrefix(video.id)];
}

/** Where a member's data exports are stored (the export job writes under it). */
export const exportPrefix = (userId: string) => `exports/${userId}`;

/** Queues the purge in the caller's transaction; the dedupe key makes a repeated request one job. */
export async function enqueuePurge(tx: Database, dedupeKey: string, payload: PurgePayload): Promise<void> {
  await enqueue(
    tx,
    PURGE_MEDIA_JOB,
    { ...payload },
    { dedupeKey: `${PURGE_MEDIA_JOB}:${dedupeKey}`, maxAttempts: PURGE_MAX_ATTEMPTS },
  );
}

function payloadOf(job: Pick<Job, 'payload'>): PurgePayload {
  const strings = (value: unknown) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.length > 0) : [];
  return { prefixes: strings(job.payload.prefixes), avatars: strings(job.payload.avatars) };
}

/** Deletes every prefix, then the avatars; stops between files when the lease is lost (the job runs again). */
export const purgeMedia: JobHandler = async (job, { signal }) => {
  const { prefixes, avatars } = payloadOf(job);
  const storage = getMediaStorage();
  for (const prefix of prefixes) {
    signal.throwIfAborted();
    await storage.deletePrefix(prefix);
  }
  for (const key of avatars) {
    signal.throwIfAborted();
    await removeProfilePhoto(key);
  }
};

export const PURGE_JOB_HANDLERS: Record<string, JobHandler> = { [PURGE_MEDIA_JOB]: purgeMedia };
