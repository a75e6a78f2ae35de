/**
 * Child processes that die with their parent. A server or worker killed with kill -9 (the OOM killer, a
 * crash) runs no clean-up, so whatever it started would run on without it: an ffmpeg transcode for tens of
 * seconds more, writing into a work folder the next start sweeps, or a whole server holding the port and the
 * database lock under a dead `npm start`.
 *
 * On Linux the kernel does it: setpriv (util-linux, part of every Linux base system) sets the parent-death
 * signal (prctl PR_SET_PDEATHSIG) and then becomes the program itself (same pid, so timeouts and aborts still
 * reach it). Node cannot set it itself. Where setpriv is missing (macOS, for development) children run as
 * they are. Plain Node (no server-only marker): scripts/start.ts and scripts/lib use it too.
 */
import { spawnSync } from 'node:child_process';

let parentDeathSignalWorks: boolean | undefined;

/** setpriv with --pdeathsig (util-linux 2.33 and later), tried once per process. */
function canSetParentDeathSignal(): boolean {
  parentDeathSignalWorks ??=
    process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0;
  return parentDeathSignalWorks;
}

/**
 * The command and arguments that run `command` so that the kernel sends it `signal` the moment this process
 * dies, however it dies: SIGKILL for tools whose half-done output is worthless (ffmpeg), SIGTERM for a
 * child that should stop cleanly (the server under `npm start`).
 */
export function dyingWithParent(
  command: string,
  args: readonly string[],
  signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL',
): [string, string[]] {
  if (!canSetParentDeathSignal()) return [command, [...args]];
  return ['setpriv', ['--pdeathsig', signal.replace(/^SIG/, ''), '--', command, ...args]];
}

/**
 * For a process whose own parent cannot give it a death signal (npm running `npm start`): calls onOrphaned
 * once, within a second of the parent's death (this process is then handed to init or a subreaper, and its
 * parent pid changes).
 */
export function whenParentDies(onOrphaned: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, 1_000);
  timer.unref();
}
