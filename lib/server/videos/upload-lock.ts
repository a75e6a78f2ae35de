import 'server-only';

import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

import type { Lock, Locker, RequestRelease } from '@tus/utils';

import { ownerIsGone, ownerTag } from '@/lib/process-owner';

import { logger } from '../log';

const log = logger('upload');

/** How long a request waits for another one's lock before it fails (the client then retries from the server's offset). */
const ACQUIRE_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A tus locker that works across web processes on one shared DATA_DIR
 * (decision 026): a lock is a file created with O_EXCL beside the upload,
 * holding its owner's tag (lib/process-owner.ts), so a lock left by a
 * crashed process is broken at once. A request of this process that wants
 * a lock another request of this process holds asks that one to let go
 * (tus's requestRelease: a client that reconnected after a drop must not
 * wait for the dead connection's PATCH to time out); across processes it
 * waits, since the old request ends by itself when its socket closes.
 */
export class FileLocker implements Locker {
  /** Locks held by this process, by upload id: who to ask to let go, and the holder's signal (aborted when it is asked). */
  readonly held = new Map<string, { release: RequestRelease; signal: AbortSignal }>();
  /**
   * Lock files of this process being removed, by upload id. A PATCH's answer
   * does not wait for the removal (an unlink that waits behind the disk's
   * writeback held each answer up to tens of ms: decision 026); the next lock
   * of the same upload in this process waits for it instead. Another process
   * sees the file a little longer and polls, as for any lock.
   */
  readonly releasing = new Map<string, Promise<void>>();

  constructor(readonly directory: string) {}

  /** Resolves once this process's lock file for the upload is gone (at once when none is being removed). */
  async released(id: string): Promise<void> {
    await this.releasing.get(id);
  }

  /** The signal of the request of this process that holds the upload's lock: a body write stops when it aborts. */
  signalOf(id: string): AbortSignal | undefined {
    return this.held.get(id)?.signal;
  }

  newLock(id: string): Lock {
    return new FileLock(this, id);
  }
}

class FileLock implements Lock {
  private readonly file: string;

  constructor(
    private readonly locker: FileLocker,
    private readonly id: string,
  ) {
    this.file = path.join(locker.directory, `${id}.lock`);
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
    await this.locker.released(this.id);
    for (;;) {
      if (signal.aborted) throw new Error('The request ended while it waited for the upload.');
      if (await this.tryCreate()) {
        this.locker.held.set(this.id, { release: requestRelease, signal });
        return;
      }
      await this.locker.held.get(this.id)?.release();
      if (Date.now() > deadline) throw new Error(`Upload ${this.id} stayed locked for ${ACQUIRE_TIMEOUT_MS} ms.`);
      await sleep(POLL_MS);
    }
  }

  async unlock(): Promise<void> {
    this.locker.held.delete(this.id);
    const { releasing } = this.locker;
    const removal = rm(this.file, { force: true }).then(
      () => {
        if (releasing.get(this.id) === removal) releasing.delete(this.id);
      },
      (error: unknown) => {
        // As when the answer waited for it: a lock file of this living process stays, and the next request for the upload times out.
        if (releasing.get(this.id) === removal) releasing.delete(this.id);
        log.error({ err: error, upload: this.id }, 'could not remove an upload lock');
      },
    );
    releasing.set(this.id, removal);
  }

  /** Creates the lock file; false when someone alive holds it (a dead holder's file is removed and the next try wins). */
  private async tryCreate(): Promise<boolean> {
    try {
      const handle = await open(this.file, 'wx');
      try {
        await handle.writeFile(ownerTag());
      } catch (error) {
        // A full disk makes the file but not its tag: an empty lock names no holder, so nobody could ever take it. It goes.
        await rm(this.file, { force: true });
        throw error;
      } finally {
        await handle.close();
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readFile(this.file, 'utf8').catch(() => '');
    if (holder && ownerIsGone(holder)) await rm(this.file, { force: true });
    return false;
  }
}
