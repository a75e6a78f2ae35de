/**
 * npm run bench:pages
 *
 * Serves the production build (scripts/serve.ts) on a fresh, empty DATA_DIR
 * and measures, in one run, requests/s and p99 latency of /, /category/Sissy
 * and /community-standards, each against a static file with the same bytes
 * served by the same server (that page's HTML, fetched from the running
 * server without Accept-Encoding and placed in public/; the server is then
 * restarted, since Next lists public/ once at start). Requests carry a
 * browser's Accept-Encoding. Rounds alternate page and baseline so machine
 * noise hits both; medians are reported with their ratio to the baseline
 * (target ≥ 0.8). Then it prints the first-load JavaScript of home and a
 * video page beside the React + Next runtime floor (scripts/lib/first-load-js.ts;
 * target: within 5 KB of the floor).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';

import { buildIfNeeded } from './lib/build';
import { firstLoadReport } from './lib/first-load-js';
import { ownServerPid, startServerProcess, stopServerProcess, waitForServer } from './lib/server-process';
import { writeStaticTwins } from './lib/static-twins';

const PORT = Number(process.env.BENCH_PORT ?? 3200);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** Each page and the name its static twin is derived from. */
const PAGES = [
  { path: '/', html: 'index.html' },
  { path: '/category/Sissy', html: 'category/Sissy.html' },
  { path: '/community-standards', html: 'community-standards.html' },
];
const twinOf = (html: string) => `/__bench-${html.replace(/\W+/g, '-')}`;
/** A browser's Accept-Encoding by default; BENCH_ACCEPT_ENCODING= (empty) measures uncompressed transfers. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'br, gzip, deflate';
const HEADERS: Record<string, string> = { accept: 'text/html,application/xhtml+xml', ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}) };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(pathname: string) {
  const result = await autocannon({ url: `${ORIGIN}${pathname}`, connections: CONNECTIONS, duration: DURATION_S, headers: HEADERS });
  if (result.non2xx || result.errors) throw new Error(`${pathname}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function main() {
  const env = {
    ...process.env,
    PORT: String(PORT),
    SITE_URL: ORIGIN,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-')),
    NODE_ENV: 'production' as const,
    SEED_DEMO: '0', // demo seeding would run ffmpeg in the background
  };
  buildIfNeeded(env);
  const twins = PAGES.map((page) => path.join(process.cwd(), 'public', twinOf(page.html).slice(1)));

  let server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
  try {
    // Home and the categories render per request (then sit in the page cache): their twins are fetched from the server.
    await waitForServer(`${ORIGIN}/api/health`);
    ownServerPid(server, PORT);
    await writeStaticTwins(ORIGIN, PAGES.map((page) => ({ path: page.path, twin: twinOf(page.html) })));
    // Next lists public/ once at start: restart so it serves the twins.
    await stopServerProcess(server);
    server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
    await waitForServer(`${ORIGIN}${twinOf(PAGES[0]!.html)}`);
    ownServerPid(server, PORT);
    for (const page of PAGES) {
      for (const pathname of [twinOf(page.html), page.path]) await autocannon({ url: `${ORIGIN}${pathname}`, connections: 10, duration: 2, headers: HEADERS });
    }

    const samples = new Map<string, { rps: number[]; p99: number[] }>();
    const record = (key: string, sample: { rps: number; p99: number }) => {
      const entry = samples.get(key) ?? { rps: [], p99: [] };
      entry.rps.push(sample.rps);
      entry.p99.push(sample.p99);
      samples.set(key, entry);
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const page of PAGES) {
        record(twinOf(page.html), await measure(twinOf(page.html)));
        record(page.path, await measure(page.path));
      }
      console.error(`round ${round}/${ROUNDS} done`);
    }

    console.log(
      `\nbench:pages — ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, accept-encoding: ${ACCEPT_ENCODING || 'none'}, Node ${process.version}, ${os.cpus().length} cores`,
    );
    console.log('page                    page req/s  page p99 ms   static req/s  static p99 ms   ratio');
    let worst = Infinity;
    for (const page of PAGES) {
      const s = samples.get(page.path)!;
      const base = samples.get(twinOf(page.html))!;
      const ratio = median(s.rps) / median(base.rps);
      worst = Math.min(worst, ratio);
      console.log(
        `${page.path.padEnd(22)}${median(s.rps).toFixed(0).padStart(12)}${median(s.p99).toFixed(1).padStart(13)}` +
          `${median(base.rps).toFixed(0).padStart(15)}${median(base.p99).toFixed(1).padStart(15)}${ratio.toFixed(2).padStart(8)}`,
      );
    }
    console.log(`lowest throughput ratio: ${worst.toFixed(2)} (target ≥ 0.80)`);

    // First-load JS needs a video page: a few catalogue rows (no media) are added with the server stopped
    // (the embedded database is one process's), after the throughput rounds, which they would change.
    await stopServerProcess(server);
    const seed = spawnSync('npm', ['run', '--silent', 'seed', '--', '--videos', '3', '--users', '1', '--media', '0'], { env, stdio: 'ignore' });
    if (seed.status !== 0) throw new Error('seeding a video for the first-load JS measure failed');
    server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
    await waitForServer(`${ORIGIN}/api/health`);
    ownServerPid(server, PORT);
    console.log(`\nfirst-load JS (gzip, module scripts):\n${(await firstLoadReport(ORIGIN)).join('\n')}`);
  } finally {
    await stopServerProcess(server);
    for (const twin of twins) rmSync(twin, { force: true });
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
