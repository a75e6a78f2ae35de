/**
 * First-load JavaScript, as a modern browser fetches it: the module scripts a
 * page's HTML names (the `noModule` polyfills are skipped by every current
 * browser), each gzipped on its own (what a server sends with
 * `Content-Encoding: gzip`). Chunks that load later (a dialog's `import()`)
 * are not counted: they are not in the HTML.
 *
 * The runtime floor is the same sum for a page with no client component of
 * its own, built apart with the same versions and the same compile hints
 * (runtimeFloorGzip): React, React DOM, the App Router runtime, and the
 * router's own client components (layout router, error boundaries) that
 * every App Router page loads.
 * The build manifest's `rootMainFiles` alone leave those out (about 3.5 KB).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { addCompileHints } from '@/lib/build/compile-hints';

export interface FirstLoadJs {
  /** Sum of the gzipped sizes, bytes. */
  bytes: number;
  /** The script URLs (paths) counted. */
  files: string[];
}

/** Module script sources named by an HTML document, in order, each once. */
export function moduleScriptSources(html: string): string[] {
  const tags = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!).filter((attrs) => !/\bnoModule\b/i.test(attrs));
  return [...new Set(tags.map((attrs) => /\bsrc="([^"]+)"/.exec(attrs)?.[1]).filter((src): src is string => Boolean(src)))];
}

/** The first-load JS of `pathname` on the running server at `origin`. */
export async function firstLoadJsGzip(
  origin: string,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<FirstLoadJs> {
  const answer = await fetch(new URL(pathname, origin), { headers });
  if (!answer.ok) throw new Error(`${pathname}: HTTP ${answer.status}`);
  const files = moduleScriptSources(await answer.text());
  let bytes = 0;
  for (const src of files) {
    const script = await fetch(new URL(src, origin));
    if (!script.ok) throw new Error(`${src}: HTTP ${script.status}`);
    bytes += gzipSync(Buffer.from(await script.arrayBuffer())).length;
  }
  return { bytes, files };
}

/** Sums the gzipped module scripts an HTML file names, read from a build's static folder. */
function firstLoadJsOfBuiltPage(distDir: string, htmlFile: string): FirstLoadJs {
  const files = moduleScriptSources(readFileSync(path.join(distDir, 'server', 'app', htmlFile), 'utf8'));
  const bytes = files.reduce(
    (sum, src) => sum + gzipSync(readFileSync(path.join(distDir, src.replace(/^\/_next\//, '')))).length,
    0,
  );
  return { bytes, files };
}

/**
 * Outside the project: built inside it, Next also builds the project's proxy.ts and instrumentation.ts into the
 * floor app (whose server then runs the site's start-up and fails). Its node_modules is a link to the project's,
 * so the same next, react and react-dom are built, with Turbopack rooted at / to follow the link.
 */
const FLOOR_APP = path.join(os.tmpdir(), 'chrysalis-bench-floor-app');
const FLOOR_SOURCES: Record<string, string> = {
  'app/layout.tsx':
    'export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n',
  'app/page.tsx': 'export default function Page() {\n  return <p>The runtime floor.</p>;\n}\n',
  'package.json': '{ "name": "bench-floor-app", "private": true }\n',
  'next.config.mjs': `export default { turbopack: { root: '/' } };\n`,
};

/**
 * The runtime floor app: a page with no client component of its own (a root layout of <html> and <body>, a page of
 * text) built by the same Next, React and bundler as the app, in FLOOR_APP, with the app's compile hints on the
 * chunks it starts with (decision 034), so that bytes and Lighthouse compare like with like. Rebuilt when those versions
 * or its sources change; about a minute the first time. Returns its folder and the versions.
 */
export function floorApp(): { dir: string; versions: string } {
  const versions = ['next', 'react', 'react-dom']
    .map(
      (name) =>
        `${name}@${(JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version}`,
    )
    .join(' ');
  const stamp = path.join(FLOOR_APP, 'versions.txt');
  // The hint step's source is part of the stamp: any change to which chunks it marks, or how, rebuilds the floor.
  const hintStep = readFileSync(path.join(process.cwd(), 'lib', 'build', 'compile-hints.ts'), 'utf8');
  const built = `${versions}\n${createHash('sha256')
    .update(JSON.stringify(FLOOR_SOURCES) + hintStep)
    .digest('hex')}`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== built) {
    rmSync(FLOOR_APP, { recursive: true, force: true });
    for (const [file, text] of Object.entries(FLOOR_SOURCES)) {
      mkdirSync(path.dirname(path.join(FLOOR_APP, file)), { recursive: true });
      writeFileSync(path.join(FLOOR_APP, file), text);
    }
    symlinkSync(path.join(process.cwd(), 'node_modules'), path.join(FLOOR_APP, 'node_modules'), 'dir');
    const build = spawnSync(path.join(process.cwd(), 'node_modules', '.bin', 'next'), ['build'], {
      cwd: FLOOR_APP,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    if (build.status !== 0) throw new Error(`building the floor app in ${FLOOR_APP} failed`);
    addCompileHints(path.join(FLOOR_APP, '.next'));
    writeFileSync(stamp, built);
  }
  return { dir: FLOOR_APP, versions };
}

/** The runtime floor's first-load JavaScript (gzip): React, React DOM, the App Router runtime and its own client components. */
export function runtimeFloorGzip(): FirstLoadJs & { versions: string } {
  const { dir, versions } = floorApp();
  return { ...firstLoadJsOfBuiltPage(path.join(dir, '.next'), 'index.html'), versions };
}

export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Budget over the runtime floor for home and a video page: 10 KB (issue 34, which retired issue 14's 5 KB along with
 * the partial-hydration runtime that bought it).
 */
export const FIRST_LOAD_BUDGET_BYTES = 10 * 1024;

/** The path of the first video home links to, if any (the benches' video page). */
export async function firstVideoPath(origin: string): Promise<string | undefined> {
  const home = await (await fetch(new URL('/', origin))).text();
  return /href="(\/video\/[A-Za-z0-9_-]+)"/.exec(home)?.[1];
}

/**
 * The lines bench:pages (and `npm run bench:first-load-js`) print: the floor, home, the first video home links
 * to, and any further paths, each with its excess over the floor and the budget.
 */
export async function firstLoadReport(origin: string, extraPaths: string[] = []): Promise<string[]> {
  const floor = runtimeFloorGzip();
  const video = await firstVideoPath(origin);
  const lines = [
    `runtime floor (a page with no client component, ${floor.versions}): ${kilobytes(floor.bytes)} in ${floor.files.length} files`,
  ];
  if (!video) lines.push('no video linked from home: the video page is not measured');
  for (const pathname of ['/', ...(video ? [video] : []), ...extraPaths]) {
    const js = await firstLoadJsGzip(origin, pathname);
    const over = js.bytes - floor.bytes;
    // Bytes as well as KB: a page near the budget is over or under it by a few bytes, which a rounded KB hides.
    const verdict = over <= FIRST_LOAD_BUDGET_BYTES ? 'met' : 'NOT MET';
    lines.push(
      `${pathname}: ${kilobytes(js.bytes)} in ${js.files.length} files, floor + ${kilobytes(over)} (${over} B; target ≤ floor + ${FIRST_LOAD_BUDGET_BYTES} B): ${verdict}`,
    );
  }
  return lines;
}
