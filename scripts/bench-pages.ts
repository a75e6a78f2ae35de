/**
 * npm run bench:pages
 *
 * Serves the production build (scripts/serve.ts) on a fresh DATA_DIR holding
 * a few dozen synthetic approved videos (npm run seed, no media files, so no
 * ffmpeg) and measures with wrk (scripts/lib/wrk.ts), in one run, requests/s
 * and p99 latency of /, /category/Sissy, /community-standards and the newest
 * video's page, each against three baselines with the same bytes:
 * - a static twin: the page's HTML, fetched from the running server without
 *   Accept-Encoding and placed in public/, served by the same server (which is
 *   then restarted, since Next lists public/ once at start);
 * - a bare Node `http` server in a process of its own
 *   (scripts/lib/bare-page-server.ts) answering with the exact status,
 *   headers and body the server sent for each encoding, negotiated the same
 *   way (target ≥ 0.8 of it);
 * - the same bare server inside a process that has loaded and prepared the
 *   Next app (`--in-app`): the ceiling of any answer from memory in the app's
 *   process, so the table shows what the cache's own work costs (page cache
 *   against it) apart from what running beside Next costs (it against bare
 *   Node; decision 039).
 * Requests carry a browser's Accept-Encoding. Each round measures a page
 * and its three baselines back to back; the table shows medians over rounds,
 * and as ratios the median of each round's ratio, so a burst of other work
 * on the machine during one window moves one round, not the result. Then it prints the first-load JavaScript of home and a
 * video page beside the React + Next runtime floor (scripts/lib/first-load-js.ts;
 * target: within 10 KB of the floor).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { buildIfNeeded } from './lib/build';
import { firstLoadReport, firstVideoPath } from './lib/first-load-js';
import { capturePages, startBareServer } from './lib/page-captures';
import { ownServerPid, startServerProcess, stopServerProcess, waitForServer } from './lib/server-process';
import { writeStaticTwins } from './lib/static-twins';
import { requireWrk, runWrk } from './lib/wrk';

const PORT = Number(process.env.BENCH_PORT ?? 3200);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** Each page and the name its static twin is derived from; the video page's path is found once the videos exist. */
const PAGES = [
  { path: '/', html: 'index.html' },
  { path: '/category/Sissy', html: 'category/Sissy.html' },
  { path: '/community-standards', html: 'community-standards.html' },
  { path: '/video/:id', html: 'video.html' },
];
/** Synthetic videos for the lists and the video page (npm run seed without media files). */
const SEED_VIDEOS = 36;
const twinOf = (html: string) => `/__bench-${html.replace(/\W+/g, '-')}`;
/** A browser's Accept-Encoding by default; BENCH_ACCEPT_ENCODING= (empty) measures uncompressed transfers. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'br, gzip, deflate';
const HEADERS: Record<string, string> = {
  accept: 'text/html,application/xhtml+xml',
  ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}),
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function measure(url: string) {
  const result = await runWrk(url, { connections: CONNECTIONS, durationS: DURATION_S, headers: HEADERS });
  return { rps: result.rps, p99: result.p99Ms };
}

/** Brings a server's code paths (and the page cache) to speed before it is measured. */
const warm = (url: string) => runWrk(url, { connections: 10, durationS: 2, headers: HEADERS });

/** Seeds synthetic videos into env's DATA_DIR (the server must not be running: the embedded database is one process's). */
function seedVideos(env: NodeJS.ProcessEnv) {
  const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const args = ['--conditions=react-server', 'scripts/seed.ts', '--videos', String(SEED_VIDEOS), '--users', '3', '--media', '0'];
  const result = spawnSync(tsx, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm run seed failed (${result.status})`);
}

async function main() {
  requireWrk();
  const env = {
    ...process.env,
    PORT: String(PORT),
    SITE_URL: ORIGIN,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-')),
    NODE_ENV: 'production' as const,
    SEED_DEMO: '0', // demo seeding would run ffmpeg in the background
  };
  buildIfNeeded(env);
  seedVideos(env);
  const twins = PAGES.map((page) => path.join(process.cwd(), 'public', twinOf(page.html).slice(1)));
  const captures = path.join(env.DATA_DIR, 'bare-pages.json');

  let server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  let inApp: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    // Home and the categories render per request (then sit in the page cache): their twins are fetched from the server.
    await waitForServer(`${ORIGIN}/api/health`);
    ownServerPid(server, PORT);
    const videoPath = await firstVideoPath(ORIGIN);
    if (!videoPath) throw new Error('home links to no video: did seeding fail?');
    const pages = PAGES.map((page) => (page.path === '/video/:id' ? { ...page, path: videoPath } : page));
    await writeStaticTwins(
      ORIGIN,
      pages.map((page) => ({ path: page.path, twin: twinOf(page.html) })),
    );
    // Next lists public/ once at start: restart so it serves the twins.
    await stopServerProcess(server);
    server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
    await waitForServer(`${ORIGIN}${twinOf(pages[0]!.html)}`);
    ownServerPid(server, PORT);
    for (const page of pages) {
      for (const pathname of [twinOf(page.html), page.path]) await warm(`${ORIGIN}${pathname}`);
    }
    // The pages are in the page cache now: the bare server gets the very answers a visitor gets.
    await capturePages(
      ORIGIN,
      pages.map((page) => page.path),
      HEADERS,
      captures,
    );
    bare = await startBareServer(captures);
    // Its own DATA_DIR: the embedded database is one process's.
    inApp = await startBareServer(captures, { env: { ...env, DATA_DIR: `${env.DATA_DIR}-in-app` } });
    for (const page of pages) {
      for (const origin of [bare.origin, inApp.origin]) await warm(`${origin}${page.path}`);
    }

    const targets = (page: (typeof pages)[number]) => ({
      page: `${ORIGIN}${page.path}`,
      twin: `${ORIGIN}${twinOf(page.html)}`,
      bare: `${bare!.origin}${page.path}`,
      inApp: `${inApp!.origin}${page.path}`,
    });
    const samples = new Map<string, { rps: number[]; p99: number[] }>();
    const roundRatios = new Map<string, { twin: number[]; bare: number[]; inApp: number[]; ceiling: number[] }>();
    const record = (key: string, sample: { rps: number; p99: number }) => {
      const entry = samples.get(key) ?? { rps: [], p99: [] };
      entry.rps.push(sample.rps);
      entry.p99.push(sample.p99);
      samples.set(key, entry);
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const page of pages) {
        const urls = targets(page);
        const [own, twin, node, nodeInApp] = [
          await measure(urls.page),
          await measure(urls.twin),
          await measure(urls.bare),
          await measure(urls.inApp),
        ];
        record(urls.page, own);
        record(urls.twin, twin);
        record(urls.bare, node);
        record(urls.inApp, nodeInApp);
        // Each round's ratios, of measurements taken back to back: on a shared machine a neighbour's burst
        // that hits one 5 s window moves one round's ratio, not the median.
        const ratios = roundRatios.get(page.path) ?? { twin: [], bare: [], inApp: [], ceiling: [] };
        ratios.twin.push(own.rps / twin.rps);
        ratios.bare.push(own.rps / node.rps);
        ratios.inApp.push(own.rps / nodeInApp.rps);
        ratios.ceiling.push(nodeInApp.rps / node.rps);
        roundRatios.set(page.path, ratios);
      }
      console.error(`round ${round}/${ROUNDS} done`);
    }

    console.log(
      `\nbench:pages — ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, accept-encoding: ${ACCEPT_ENCODING || 'none'}, Node ${process.version}, ${os.cpus().length} cores`,
    );
    console.log(
      'page                      page req/s p99 ms │ static req/s p99 ms  ratio │ bare Node req/s p99 ms  ratio │ in app req/s p99 ms  ratio  ceiling',
    );
    let worstStatic = Infinity;
    let worstBare = Infinity;
    let worstInApp = Infinity;
    let worstCeiling = Infinity;
    for (const page of pages) {
      const urls = targets(page);
      const [own, twin, node, nodeInApp] = [
        samples.get(urls.page)!,
        samples.get(urls.twin)!,
        samples.get(urls.bare)!,
        samples.get(urls.inApp)!,
      ];
      const ratios = roundRatios.get(page.path)!;
      const [staticRatio, bareRatio, inAppRatio, ceiling] = [
        median(ratios.twin),
        median(ratios.bare),
        median(ratios.inApp),
        median(ratios.ceiling),
      ];
      worstStatic = Math.min(worstStatic, staticRatio);
      worstBare = Math.min(worstBare, bareRatio);
      worstInApp = Math.min(worstInApp, inAppRatio);
      worstCeiling = Math.min(worstCeiling, ceiling);
      const cells = (entry: { rps: number[]; p99: number[] }, width: number) =>
        `${median(entry.rps).toFixed(0).padStart(width)}${median(entry.p99).toFixed(2).padStart(7)}`;
      const ratio = (value: number) => value.toFixed(2).padStart(7);
      console.log(
        `${page.path.padEnd(22)}${cells(own, 14)} │${cells(twin, 13)}${ratio(staticRatio)} │${cells(node, 16)}${ratio(bareRatio)} │${cells(nodeInApp, 13)}${ratio(inAppRatio)}${ratio(ceiling).padStart(9)}`,
      );
    }
    console.log(`lowest throughput ratio vs the static twin: ${worstStatic.toFixed(2)} (target ≥ 0.80)`);
    console.log(`lowest throughput ratio vs bare Node: ${worstBare.toFixed(2)} (target ≥ 0.80)`);
    console.log(
      `lowest throughput ratio vs bare Node in the app's process: ${worstInApp.toFixed(2)} (what the page cache's own work leaves)`,
    );
    console.log(
      `lowest ceiling, bare Node in the app's process vs bare Node: ${worstCeiling.toFixed(2)} (the most any in-process cache can reach)`,
    );
    console.log(
      `load average: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(', ')}`,
    );
    console.log(`\nfirst-load JS (gzip, module scripts):\n${(await firstLoadReport(ORIGIN)).join('\n')}`);
  } finally {
    if (bare) await stopServerProcess(bare.process);
    if (inApp) await stopServerProcess(inApp.process);
    await stopServerProcess(server);
    for (const twin of twins) rmSync(twin, { force: true });
    rmSync(env.DATA_DIR, { recursive: true, force: true });
    rmSync(`${env.DATA_DIR}-in-app`, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
