/**
 * npm run bench:first-load-js [-- /path …]: the first-load JavaScript (gzip) of home, one video page (the first
 * video home links to) and any paths given, beside the React + Next runtime floor, on a server already
 * running at BENCH_ORIGIN (default http://127.0.0.1:$BENCH_PORT). See scripts/lib/first-load-js.ts.
 */
import { firstLoadJsGzip, kilobytes, runtimeFloorGzip } from './lib/first-load-js';

const ORIGIN = process.env.BENCH_ORIGIN ?? `http://127.0.0.1:${process.env.BENCH_PORT ?? 3200}`;

async function main() {
  const home = await (await fetch(`${ORIGIN}/`)).text();
  const video = /href="(\/video\/[^"]+)"/.exec(home)?.[1];
  const paths = ['/', ...(video ? [video] : []), ...process.argv.slice(2)];
  const floor = runtimeFloorGzip();
  console.log(`runtime floor (${floor.versions}): ${kilobytes(floor.bytes)} in ${floor.files.length} files`);
  for (const pathname of paths) {
    const js = await firstLoadJsGzip(ORIGIN, pathname);
    console.log(`${pathname}: ${kilobytes(js.bytes)} in ${js.files.length} files (+${kilobytes(js.bytes - floor.bytes)} over the floor)`);
    if (process.env.VERBOSE) for (const file of js.files) console.log(`  ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
