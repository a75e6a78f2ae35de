import 'server-only';

import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

import { ZipFile } from 'yazl';

import type { MediaStorage } from '../storage';

export interface ZipEntries {
  /** Small files made here (JSON, README): deflated from memory. */
  buffers: { path: string; data: Buffer }[];
  /** Stored files, streamed from media storage one at a time, in order, stored without compression (video does not deflate). */
  stored: { path: string; key: string; size: number }[];
}

/**
 * Writes a ZIP to `target` as a stream: yazl asks for each stored file's
 * stream only when the previous entry is finished (addReadStreamLazy), and
 * pipes it through with backpressure to the file, so memory stays flat
 * whatever the size of the originals. ZIP64 is used by yazl where sizes
 * need it. Rejects on any read or write error, or when `signal` aborts.
 */
export async function writeZip(target: string, entries: ZipEntries, storage: MediaStorage, signal: AbortSignal): Promise<void> {
  const zip = new ZipFile();
  const mtime = new Date();
  const zipFailed = new Promise<never>((_, reject) => zip.on('error', reject));
  for (const entry of entries.buffers) zip.addBuffer(entry.data, entry.path, { mtime, compress: true });
  for (const entry of entries.stored) {
    zip.addReadStreamLazy(entry.path, { mtime, compress: false, size: entry.size }, (callback) => {
      if (signal.aborted) return callback(new Error('The export was stopped: its job lease was lost'));
      storage.read(entry.key).then(
        (stream) => callback(null, stream),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
  zip.end();
  const output = createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const written = pipeline(zip.outputStream, output, { signal });
  try {
    await Promise.race([written, zipFailed]);
  } finally {
    // On a failure the other side may still be open: close both so nothing holds the file or a storage stream.
    output.destroy();
    zip.outputStream.destroy();
    written.catch(() => undefined);
    zipFailed.catch(() => undefined);
  }
}
