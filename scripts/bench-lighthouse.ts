/**
 * npm run bench:lighthouse
 *
 * What a phone feels: Lighthouse 12 (mobile form factor, simulated
 * throttling, Debian Chromium) on `/`, a video page and /category/Sissy of
 * the production build with the demo content, three runs per page, medians
 * printed against the targets (performance ≥ 95, accessibility,
 * best practices and SEO 100, LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS ≤ 0.05: issue 34's, which replaced issue
 * 14's 2.0 s and 150 ms).
 *
 * The server starts on a fresh DATA_DIR, seeds the twelve demo clips through
 * the real pipeline and is measured once they are all public and their
 * processing has finished (the HLS ladders are made after a clip is public:
 * ffmpeg on the same two cores would be counted as the page's blocking time
 * under simulated throttling). Lighthouse
 * visits as a returning visitor: the age gate is confirmed the way the site
 * remembers it (sessionStorage, set before any page script runs).
 *
 * The simulated CPU is this machine's slowed down 4×, the slow-down
 * Lighthouse calibrates for a desktop of benchmark index 1500–2000 (a
 * phone like its emulated Moto G Power at a few hundred): each page's
 * median benchmark index is printed so that runs on different machines can
 * be compared. Reference pages are measured and printed the same way,
 * without targets: BENCH_LIGHTHOUSE_REFERENCE (default /privacy-policy, a
 * page of text in the site's shell), and the runtime floor, a page of text
 * with no client component built by the same Next and React
 * (built in the temporary folder as bench:first-load-js builds it): what any App Router
 * page costs a phone before any code of ours.
 *
 * Each target page is measured twice more through a loopback proxy
 * (scripts/lib/script-free-proxy.ts): as it is, and without its scripts
 * (Next's runtime, its RSC payload and React; the app's own constant inline
 * scripts stay), the page's own rendering cost on this machine. The proxy
 * moves Lighthouse's simulated figures by itself (it answers later and
 * whole), so the page without scripts is compared with the same page through
 * the same proxy: that difference, in the same run, is what the scripts add,
 * a figure that compares across machines where the absolute TBT does not.
 * BENCH_LIGHTHOUSE_SCRIPT_FREE=0 skips these rows.
 *
 * After the targets, each run of the three pages is listed with the start-up scripts that had loaded before its
 * observed largest paint: Lighthouse counts their download in the simulated LCP, which is why one page's LCP
 * moves between about 1.2 and 2.2 s from run to run on this machine (decision 038).
 *
 * BENCH_PORT (default 3240), BENCH_LIGHTHOUSE_RUNS (default 3),
 * BENCH_LIGHTHOUSE_REPORTS=<dir> keeps every run's JSON report there.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import * as chromeLauncher from 'chrome-launcher';

import { STORAGE_KEYS } from '@/lib/storage-keys';

import { median } from './lib/bench';
import { buildIfNeeded } from './lib/build';
import { floorApp } from './lib/first-load-js';
import { commandName, processTree } from './lib/proc';
import { startPageProxy, withoutFrameworkScripts } from './lib/script-free-proxy';
import { type PaintAudits, type ScriptsBeforePaint, scriptsBeforeLargestPaint } from './lib/scripts-before-paint';
import { ownServerPid, startServerProcess, stopServerProcess, waitForServer } from './lib/server-process';

const execFileAsync = promisify(execFile);
const PORT = Number(process.env.BENCH_PORT ?? 3240);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const REFERENCE_PAGES = (process.env.BENCH_LIGHTHOUSE_REFERENCE ?? '/privacy-policy').split(',').filter(Boolean);
const REPORT_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;
const CHROME_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const DEMO_CLIPS = 12;
const DEMO_TIMEOUT_MS = Number(process.env.BENCH_DEMO_TIMEOUT_MS ?? 480_000);
const METRICS_PORT = PORT + 1;
const FLOOR_PORT = PORT + 2;
const SCRIPT_FREE_PORT = PORT + 3;
const PROXY_PORT = PORT + 4;
const SCRIPT_FREE = process.env.BENCH_LIGHTHOUSE_SCRIPT_FREE !== '0';
const SCRIPT_FREE_SUFFIX = ' without scripts';
const PROXY_SUFFIX = ' via the proxy';
const LABEL_WIDTH = 40;
const FLOOR_LABEL = 'runtime floor (Next app)';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = [
  { id: 'largest-contentful-paint', label: 'LCP', unit: 'ms' },
  { id: 'total-blocking-time', label: 'TBT', unit: 'ms' },
  { id: 'cumulative-layout-shift', label: 'CLS', unit: '' },
  { id: 'first-contentful-paint', label: 'FCP', unit: 'ms' },
  { id: 'speed-index', label: 'SI', unit: 'ms' },
] as const;
/** The targets of issue 14: scores ×100, metrics in ms (CLS unitless). */
const TARGETS: {
  name: string;
  value: (m: PageMedians) => number;
  ok: (v: number) => boolean;
  show: (v: number) => string;
  goal: string;
}[] = [
  { name: 'performance', value: (m) => m.scores.performance, ok: (v) => v >= 95, show: String, goal: '≥ 95' },
  { name: 'accessibility', value: (m) => m.scores.accessibility, ok: (v) => v === 100, show: String, goal: '100' },
  { name: 'best practices', value: (m) => m.scores['best-practices'], ok: (v) => v === 100, show: String, goal: '100' },
  { name: 'SEO', value: (m) => m.scores.seo, ok: (v) => v === 100, show: String, goal: '100' },
  { name: 'LCP', value: (m) => m.metrics.LCP, ok: (v) => v <= 2500, show: (v) => `${(v / 1000).toFixed(2)} s`, goal: '≤ 2.5 s' },
  { name: 'TBT', value: (m) => m.metrics.TBT, ok: (v) => v <= 200, show: (v) => `${Math.round(v)} ms`, goal: '≤ 200 ms' },
  { name: 'CLS', value: (m) => m.metrics.CLS, ok: (v) => v <= 0.05, show: (v) => v.toFixed(3), goal: '≤ 0.05' },
];

interface PageMedians {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<(typeof METRICS)[number]['label'], number>;
  benchmarkIndex: number;
}

type Run = PageMedians & { scriptsBeforePaint: ScriptsBeforePaint | null };

/** Waits until the seed job's clips are processed and listed publicly; returns a video page's path. */
async function waitForDemoContent(): Promise<string> {
  const deadline = Date.now() + DEMO_TIMEOUT_MS;
  let listed = 0;
  while (Date.now() < deadline) {
    const answer = await fetch(`${ORIGIN}/api/videos?limit=50`).catch(() => null);
    if (answer?.ok) {
      const { videos } = (await answer.json()) as { videos: { streamVideoId: string; thumbnailUrl: string | null }[] };
      listed = videos.filter((video) => video.thumbnailUrl).length;
      if (listed >= DEMO_CLIPS) return `/video/${videos[0]!.streamVideoId}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error(`only ${listed} of ${DEMO_CLIPS} demo videos were public after ${DEMO_TIMEOUT_MS / 1000} s`);
}

/** Whether a due job is waiting, from the server's own metrics (recurring jobs queued for later do not count). */
async function dueJobWaiting(): Promise<boolean> {
  const text = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
  return text
    .split('\n')
    .some(
      (line) => line.startsWith('chrysalis_jobs_oldest_queued_seconds{') && Number(line.slice(line.lastIndexOf(' ') + 1)) > 0,
    );
}

/** ffmpeg or ffprobe at work under the server. */
const ffmpegRunning = (serverPid: number) => processTree(serverPid).some((pid) => commandName(pid)?.startsWith('ff'));

/** Waits until no due job waits and no ffmpeg runs, twice in a row 2 s apart (a job may queue the next one). */
async function waitForIdleQueue(serverPid: number): Promise<void> {
  const deadline = Date.now() + DEMO_TIMEOUT_MS;
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() > deadline) throw new Error(`the job queue was still busy after ${DEMO_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    quiet = !(await dueJobWaiting()) && !ffmpegRunning(serverPid) ? quiet + 1 : 0;
  }
}

/** A report's file name for a page: its path with every run of other characters made one dash ('home' for `/`). */
const reportNameOf = (pathname: string) => pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';

/** One Lighthouse run in a plain Node child (scripts/lib/lighthouse-audit.mjs says why). */
async function audit(url: string, chromePort: number, run: number, name?: string): Promise<Run> {
  const reportName = name ?? reportNameOf(new URL(url).pathname);
  const reportPath = REPORT_DIR ? path.join(REPORT_DIR, `${reportName}-${run}.json`) : undefined;
  const args = JSON.stringify({ url, chromePort, storageKey: STORAGE_KEYS.ageConfirmed, reportPath });
  const { stdout } = await execFileAsync(process.execPath, ['scripts/lib/lighthouse-audit.mjs', args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as {
    scores: PageMedians['scores'];
    metrics: Record<(typeof METRICS)[number]['id'], number>;
    benchmarkIndex: number;
    paintAudits: PaintAudits;
  };
  return {
    scores: result.scores,
    metrics: Object.fromEntries(METRICS.map((m) => [m.label, result.metrics[m.id]])) as PageMedians['metrics'],
    benchmarkIndex: result.benchmarkIndex,
    scriptsBeforePaint: scriptsBeforeLargestPaint(result.paintAudits),
  };
}

/** The runtime floor app served by `next start`, audited like the site's pages. */
async function measureFloor(chromePort: number): Promise<PageMedians> {
  const { dir } = floorApp();
  const floor = spawn(
    path.join(process.cwd(), 'node_modules', '.bin', 'next'),
    ['start', '-p', String(FLOOR_PORT), '-H', '127.0.0.1'],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    },
  );
  try {
    const origin = `http://127.0.0.1:${FLOOR_PORT}`;
    await waitForServer(`${origin}/`);
    const runs: Run[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      runs.push(await audit(`${origin}/`, chromePort, run, 'runtime-floor'));
      console.error(`${FLOOR_LABEL}: run ${run}/${RUNS} performance ${runs.at(-1)!.scores.performance}`);
    }
    return medians(runs);
  } finally {
    await stopServerProcess(floor);
  }
}

function medians(runs: PageMedians[]): PageMedians {
  return {
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, median(runs.map((r) => r.scores[id]))])) as PageMedians['scores'],
    metrics: Object.fromEntries(
      METRICS.map((m) => [m.label, median(runs.map((r) => r.metrics[m.label]))]),
    ) as PageMedians['metrics'],
    benchmarkIndex: median(runs.map((r) => r.benchmarkIndex)),
  };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/**
 * Each run's LCP beside the start-up scripts that had loaded before the observed largest paint, which Lighthouse's
 * simulation counts in LCP (decision 038), and the LCP medians of the runs where most of a page's start-up scripts
 * had (at least half the bytes of that page's largest figure) and of those where they had not.
 */
function printScriptsBeforePaint(pages: [string, Run[]][]) {
  console.log(
    "\nLCP of each run, and the scripts loaded before the page's largest paint (Lighthouse counts their download in LCP):",
  );
  const before: number[] = [];
  const after: number[] = [];
  for (const [pathname, runs] of pages) {
    const most = Math.max(...runs.map((run) => run.scriptsBeforePaint?.bytes ?? 0));
    const cells = runs.map((run) => {
      const scripts = run.scriptsBeforePaint;
      if (scripts && most > 0) (scripts.bytes >= most / 2 ? before : after).push(run.metrics.LCP);
      return `${Math.round(run.metrics.LCP)} ms (${scripts ? `${kb(scripts.bytes)} at ${Math.round(scripts.observedLcp)} ms` : 'n/a'})`;
    });
    console.log(`  ${pathname.padEnd(26)}${cells.join(' · ')}`);
  }
  const show = (values: number[]) =>
    values.length > 0 ? `median LCP ${(median(values) / 1000).toFixed(2)} s in ${values.length} run(s)` : 'no runs';
  console.log(`  scripts loaded before the paint: ${show(before)}; not loaded: ${show(after)}`);
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-lh-'));
  // The demo content is seeded on an empty embedded database only: no DATABASE_URL.
  const { DATABASE_URL: _notUsed, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: String(PORT),
    SITE_URL: ORIGIN,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    SEED_DEMO: '1',
    METRICS_PORT: String(METRICS_PORT),
  };
  if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true });
  buildIfNeeded(env);

  const server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForServer(`${ORIGIN}/api/health`);
    const serverPid = ownServerPid(server, PORT);
    console.error('waiting for the demo videos to be processed…');
    const videoPage = await waitForDemoContent();
    await waitForIdleQueue(serverPid);
    const targetPages = ['/', videoPage, '/category/Sissy'];
    const pages = [...targetPages, ...REFERENCE_PAGES];

    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
    const results = new Map<string, PageMedians>();
    const runsOf = new Map<string, Run[]>();
    const measure = async (label: string, origin: string, pathname: string, reportName?: string) => {
      const runs: Run[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        // Warm the page cache right before each run, as a live site's is: the runs measure the cached page, not a
        // render on demand. A run takes longer than the cache keeps an entry (twice PUBLIC_PAGE_CACHE_SECONDS), so
        // warming once before the first run left the later runs measuring Next rendering the page (decision 038).
        await (await fetch(`${ORIGIN}${pathname}`, { headers: { 'accept-encoding': 'br, gzip' } })).arrayBuffer();
        runs.push(await audit(`${origin}${pathname}`, chrome!.port, run, reportName));
        console.error(`${label}: run ${run}/${RUNS} performance ${runs.at(-1)!.scores.performance}`);
      }
      results.set(label, medians(runs));
      runsOf.set(label, runs);
    };
    for (const pathname of pages) await measure(pathname, ORIGIN, pathname);
    if (SCRIPT_FREE) {
      const proxies = [
        await startPageProxy(ORIGIN, PROXY_PORT),
        await startPageProxy(ORIGIN, SCRIPT_FREE_PORT, withoutFrameworkScripts),
      ];
      try {
        for (const pathname of targetPages) {
          await measure(
            `${pathname}${PROXY_SUFFIX}`,
            `http://127.0.0.1:${PROXY_PORT}`,
            pathname,
            `${reportNameOf(pathname)}-via-the-proxy`,
          );
          await measure(
            `${pathname}${SCRIPT_FREE_SUFFIX}`,
            `http://127.0.0.1:${SCRIPT_FREE_PORT}`,
            pathname,
            `${reportNameOf(pathname)}-without-scripts`,
          );
        }
      } finally {
        for (const proxy of proxies) proxy.close();
      }
    }
    results.set(FLOOR_LABEL, await measureFloor(chrome.port));

    const load = os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    console.log(
      `\nbench:lighthouse — lighthouse 12 mobile (simulated throttling), median of ${RUNS} runs, ${os.cpus().length} cores, load ${load}`,
    );
    console.log(`${'page'.padEnd(LABEL_WIDTH)}perf  a11y  bp   seo    LCP ms   TBT ms    CLS     FCP ms    SI ms  bench index`);
    for (const [pathname, m] of results) {
      const reference = targetPages.includes(pathname) ? '' : '  (reference)';
      console.log(
        `${pathname.padEnd(LABEL_WIDTH)}${String(m.scores.performance).padEnd(6)}${String(m.scores.accessibility).padEnd(6)}${String(m.scores['best-practices']).padEnd(5)}${String(m.scores.seo).padEnd(5)}` +
          `${m.metrics.LCP.toFixed(0).padStart(8)}${m.metrics.TBT.toFixed(0).padStart(9)}${m.metrics.CLS.toFixed(3).padStart(8)}${m.metrics.FCP.toFixed(0).padStart(10)}${m.metrics.SI.toFixed(0).padStart(9)}` +
          `${m.benchmarkIndex.toFixed(0).padStart(13)}${reference}`,
      );
    }
    console.log('');
    let allMet = true;
    for (const pathname of targetPages) {
      const m = results.get(pathname)!;
      for (const target of TARGETS) {
        const value = target.value(m);
        const ok = target.ok(value);
        allMet &&= ok;
        console.log(
          `${ok ? 'met    ' : 'NOT MET'}  ${pathname.padEnd(26)}${target.name.padEnd(16)}${target.show(value).padEnd(10)}(target ${target.goal})`,
        );
      }
    }
    if (SCRIPT_FREE) {
      console.log('\nTBT the scripts add (the page minus the same page without them, both through the proxy, same run):');
      for (const pathname of targetPages) {
        const page = results.get(`${pathname}${PROXY_SUFFIX}`)!.metrics.TBT;
        const bare = results.get(`${pathname}${SCRIPT_FREE_SUFFIX}`)!.metrics.TBT;
        console.log(`  ${pathname.padEnd(26)}${Math.round(page - bare)} ms (${Math.round(page)} − ${Math.round(bare)})`);
      }
    }
    printScriptsBeforePaint(targetPages.map((pathname) => [pathname, runsOf.get(pathname)!]));
    console.log(`\n${allMet ? 'all targets met' : 'some targets not met'}`);
  } finally {
    await chrome?.kill();
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
