/**
 * Linux /proc helpers for benchmarks: a process tree, its command names and resident memory,
 * which process in it listens on a port, and stopping the whole tree
 * (the server's ffmpeg children outlive it otherwise).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Parent pid and start time of a process, or null once it is gone. */
function statOf(pid: number): { ppid: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), start: fields[19]! };
  } catch {
    return null;
  }
}

/** pid and every process below it (children, grandchildren…), pid first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** The command name of a process (`/proc/<pid>/comm`, e.g. "ffmpeg"), or null once it is gone. */
export function commandName(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** A process's command line, its arguments joined by spaces, or null once it is gone. */
export function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return null;
  }
}

/** Resident set size in bytes (VmRSS), or null when the process is gone. */
export function rssBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Socket inodes listening on a TCP port (IPv4 or IPv6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue; // 0A: LISTEN
      if (parseInt(fields[1]!.split(':').pop()!, 16) === port) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** The process among candidates that holds the socket listening on port (the real server under a tsx wrapper). */
export function listeningPid(port: number, candidates: number[]): number | undefined {
  const inodes = listeningInodes(port);
  for (const pid of candidates) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return pid;
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/** The processes of a tree as they are now, to be stopped later even if their parents exit first. */
export function snapshotTree(pid: number): { pid: number; start: string }[] {
  return processTree(pid).flatMap((p) => {
    const stat = statOf(p);
    return stat ? [{ pid: p, start: stat.start }] : [];
  });
}

/** Sends SIGKILL to every process of a snapshot that still runs (same pid and start time, so never a reused pid). */
export function killSnapshot(snapshot: { pid: number; start: string }[]): number {
  let killed = 0;
  for (const { pid, start } of snapshot) {
    if (statOf(pid)?.start !== start) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // already gone
    }
  }
  return killed;
}
