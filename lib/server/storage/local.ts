import 'server-only';

import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

import type { ByteRange, MediaStorage, StoredObject } from './index';

/** Media in a folder (DATA_DIR/media by default). Keys map to paths; nothing outside the root is reachable. */
export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'media');
  }

  pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`Media key escapes the storage root: ${key}`);
    return resolved;
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another file system: copy beside the target, then rename, so readers never see half a file.
      const temp = `${target}.partial`;
      try {
        await copyFile(localPath, temp);
        await rename(temp, target);
      } catch (copyError) {
        // A full disk leaves half a copy: it goes, and the upload's own file stays for its retry.
        await rm(temp, { force: true });
        throw copyError;
      }
      await rm(localPath, { force: true });
    }
  }

  async openLocal(key: string) {
    return { path: this.pathOf(key), release: async () => {} };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, modified: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    return createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }
}
