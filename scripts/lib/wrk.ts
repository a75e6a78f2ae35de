/**
 * wrk (Debian's `wrk` package), the load generator of `npm run bench:pages`.
 *
 * autocannon, in the bench's own Node process, tops out near 5,000 answers/s
 * of a 9 KB page on this machine's cores: it was measuring itself, not the
 * servers (decision 039). wrk, in C, spends about 14 µs per answer, so
 * the server under test is what saturates.
 */
import { spawn, spawnSync } from 'node:child_process';

export interface WrkResult {
  rps: number;
  p99Ms: number;
}

/** Throws with the install command when wrk is missing. */
export function requireWrk(): void {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) throw new Error('bench:pages needs wrk, the HTTP load generator: apt-get install wrk');
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** The figures of wrk's text report (with --latency); throws on any non-2xx answer or socket error. */
export function parseWrkReport(report: string): WrkResult {
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(report);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s|m)\b/m.exec(report);
  if (!rps || !p99) throw new Error(`unexpected wrk output:\n${report}`);
  const failed = /Non-2xx or 3xx responses: (\d+)/.exec(report);
  if (failed) throw new Error(`wrk: ${failed[1]} answers were not 2xx`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  if (errors && errors.slice(1).some((count) => Number(count) > 0)) throw new Error(`wrk: ${errors[0]}`);
  return { rps: Number(rps[1]), p99Ms: Number(p99[1]) * UNIT_MS[p99[2]!]! };
}

/** One wrk run: one thread, `connections` keep-alive connections, for `durationS` seconds. */
export function runWrk(
  url: string,
  options: { connections: number; durationS: number; headers: Record<string, string> },
): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.durationS}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let report = '';
    child.stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${report}`));
      try {
        resolve(parseWrkReport(report));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}
