import 'server-only';

import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import { ownerIsGone } from '@/lib/process-owner';

import { quarantineDir } from './upload';
import { logger } from '@/lib/server/log';

const log = logger('uploads');

/** An upload's quarantine file is written continuously; one untouched this long belongs to a dead upload. */
export const STALE_UPLOAD_MS = 15 * 60_000;

/**
 * Removes what uploads cut off by a crash or a kill left in the quarantine
 * folder. Such an upload never got a database row (the row is written only
 * after the whole file arrived and passed ffprobe), so nothing else refers
 * to these files. A file whose name carries its writer's tag
 * (lib/process-owner.ts) goes at once when that process is gone (a restart
 * after kill -9); any other goes once untouched for maxAgeMs. Files still
 * being written are left alone, so this is safe while other processes upload.
 */
export async function sweepQuarantine(now: number = Date.now(), maxAgeMs: number = STALE_UPLOAD_MS): Promise<number> {
  let names: string[];
  try {
    names = await readdir(quarantineDir());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(quarantineDir(), name);
    try {
      const owner = /\.([0-9a-f]{8}-\d+-\d+)\.upload$/.exec(name)?.[1];
      const info = await stat(file);
      if (!(owner && ownerIsGone(owner)) && now - info.mtimeMs < maxAgeMs) continue;
      await rm(file, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Gone meanwhile (its upload finished or failed): nothing to do.
    }
  }
  return removed;
}

/** At start-up and then every few minutes in each web process. */
export function startQuarantineSweeper(): void {
  const sweep = () =>
    sweepQuarantine()
      .then((removed) => {
        if (removed) log.info(`removed ${removed} file(s) left by interrupted uploads`);
      })
      .catch((error: unknown) => log.error({ err: error }, 'could not sweep the quarantine folder'));
  void sweep();
  setInterval(sweep, 5 * 60_000).unref();
}
