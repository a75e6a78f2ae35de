/**
 * Who owns a file or a lock this process leaves behind: a tag naming the
 * host, the pid and the process's start time, so a later process can tell
 * for sure that the owner is gone (a crash, kill -9) and clean up at once
 * instead of waiting for a timeout. A pid alone is not enough: a container
 * restarted after a crash often gives the new process the dead one's pid,
 * and the start time tells them apart.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Short and file-name safe: host names may hold characters we do not want in paths. */
function hostTag(): string {
  return createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
}

/** A process's start time in clock ticks since boot (Linux /proc), '0' where we cannot read it. */
export function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '0';
  } catch {
    return '0';
  }
}

/** The process's state letter from /proc (R, S, D, Z…), '' where we cannot read it. */
function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * A zombie (Z: killed, not yet reaped by its new parent) or a dying process (X) counts as gone: it holds no
 * files and runs no code, but still answers kill(pid, 0) for the moment between kill -9 and the reaping, which is
 * exactly when a restarted server looks at the lock its predecessor left.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state !== 'Z' && state !== 'X';
}

/** This process's tag: `<host>-<pid>-<start>`. */
export function ownerTag(pid: number = process.pid): string {
  return `${hostTag()}-${pid}-${processStart(pid)}`;
}

const TAG = /^([0-9a-f]{8})-(\d+)-(\d+)$/;

/** The tag names a process of this host (alive or not). */
export function ownerIsLocal(tag: string): boolean {
  return TAG.exec(tag.trim())?.[1] === hostTag();
}

/**
 * True only when we know the tagged process is gone: it ran on this host
 * and its pid is free now, or taken by a process that started at another
 * time. A tag from another host (a shared data folder) or an unreadable
 * tag is never taken for a dead owner: that is left to time-outs.
 */
export function ownerIsGone(tag: string): boolean {
  const match = TAG.exec(tag.trim());
  if (!match || match[1] !== hostTag()) return false;
  const pid = Number(match[2]);
  if (!isProcessAlive(pid)) return true;
  return match[3] !== '0' && processStart(pid) !== match[3];
}
