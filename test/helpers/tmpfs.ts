/**
 * Real full disks for tests: a small tmpfs mounted over a folder of DATA_DIR
 * (the quarantine, the resumable uploads, the media), filled to the last
 * block. Mounting needs root (CI runs as root); without it the tests that
 * use this skip themselves, saying why (SKIP_WITHOUT_ROOT).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export const CAN_MOUNT = process.getuid?.() === 0;
/** The words a describe carries when it cannot run here. */
export const SKIP_WITHOUT_ROOT = 'skipped: mounting a tmpfs needs root';

/** Mounts a tmpfs of `size` (mount's spelling: 2m) over `dir`, hiding what was there until unmount. */
export function mountTmpfs(dir: string, size = '2m'): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
}

export function unmount(dir: string): void {
  execFileSync('umount', [dir]);
}

const FILLER = '.filler';

/**
 * Fills the file system of `dir` until a write fails with ENOSPC, then frees
 * about `leaveBytes` again (in whole 4 KiB blocks): the next writer gets that
 * much room and then a full disk. Returns a function that frees it all.
 */
export function fillUp(dir: string, leaveBytes = 0): () => void {
  const file = path.join(dir, FILLER);
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (const size of [256 * 1024, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  if (leaveBytes > 0) execFileSync('truncate', ['-s', String(Math.max(0, written - Math.ceil(leaveBytes / 4096) * 4096)), file]);
  return () => rmSync(file, { force: true });
}
