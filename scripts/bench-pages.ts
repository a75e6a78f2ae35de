/**
 * npm run bench:pages
 *
 * Serves the production build on a fresh, empty DATA_DIR and measures, in one
 * run, requests/s and p99 latency of /, /category/Sissy and
 * /community-standards against a static file of the same size served by the
 * same server (a copy of the home page's HTML in public/). Rounds alternate
 * page and baseline so machine noise hits both; medians are reported with
 * their ratio to the baseline (target ≥ 0.8). Then it sums the gzipped size
 * of the JavaScript the home page loads first (target ≤ 130 KB).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import autocannon from 'autocannon';

import { buildIfNeeded } from './lib/build';

const PORT = 3200;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const PAGES = ['/', '/category/Sissy', '/community-standards'];
const BASELINE = '/__bench-static.html';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function waitForServer(url: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}

async function measure(pathname: string) {
  const result = await autocannon({ url: `${ORIGIN}${pathname}`, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx || result.errors) throw new Error(`${pathname}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function firstLoadJsGzip(): Promise<{ bytes: number; files: number }> {
  const html = await (await fetch(`${ORIGIN}/`)).text();
  const sources = [...new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!))];
  let bytes = 0;
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, ORIGIN))).arrayBuffer());
    bytes += gzipSync(body).length;
  }
  return { bytes, files: sources.length };
}

async function main() {
  const env = { ...process.env, PORT: String(PORT), SITE_URL: ORIGIN, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-')), NODE_ENV: 'production' as const };
  buildIfNeeded(env);
  const baselineFile = path.join(process.cwd(), 'public', BASELINE.slice(1));
  copyFileSync(path.join(process.cwd(), '.next', 'server', 'app', 'index.html'), baselineFile);

  const server = spawn(path.join(process.cwd(), 'node_modules', '.bin', 'next'), ['start', '--port', String(PORT)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitForServer(`${ORIGIN}${BASELINE}`);
    for (const pathname of [BASELINE, ...PAGES]) await autocannon({ url: `${ORIGIN}${pathname}`, connections: 10, duration: 2 });

    const samples = new Map<string, { rps: number[]; p99: number[] }>();
    const record = (key: string, sample: { rps: number; p99: number }) => {
      const entry = samples.get(key) ?? { rps: [], p99: [] };
      entry.rps.push(sample.rps);
      entry.p99.push(sample.p99);
      samples.set(key, entry);
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const pathname of PAGES) {
        record(BASELINE, await measure(BASELINE));
        record(pathname, await measure(pathname));
      }
      console.error(`round ${round}/${ROUNDS} done`);
    }

    const base = samples.get(BASELINE)!;
    const baseRps = median(base.rps);
    console.log(`\nbench:pages — ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, Node ${process.version}, ${os.cpus().length} cores`);
    console.log('page                    req/s (median)   p99 ms (median)   ratio vs static');
    const row = (name: string, rps: number, p99: number, ratio: string) =>
      console.log(`${name.padEnd(24)}${rps.toFixed(0).padStart(14)}${p99.toFixed(1).padStart(18)}${ratio.padStart(18)}`);
    row('static file (baseline)', baseRps, median(base.p99), '1.00');
    let worst = Infinity;
    for (const pathname of PAGES) {
      const s = samples.get(pathname)!;
      const ratio = median(s.rps) / baseRps;
      worst = Math.min(worst, ratio);
      row(pathname, median(s.rps), median(s.p99), ratio.toFixed(2));
    }
    const js = await firstLoadJsGzip();
    console.log(`\nfirst-load JS of /: ${(js.bytes / 1024).toFixed(1)} KB gzipped in ${js.files} files (target ≤ 130 KB)`);
    console.log(`lowest throughput ratio: ${worst.toFixed(2)} (target ≥ 0.80)`);
  } finally {
    server.kill('SIGTERM');
    rmSync(baselineFile, { force: true });
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
