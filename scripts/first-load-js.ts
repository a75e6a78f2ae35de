/**
 * npm run bench:first-load-js [-- /path …]: the first-load JavaScript (gzip) of home, one video page (the first
 * video home links to) and any paths given, beside the React + Next runtime floor, on a production server
 * already running at http://127.0.0.1:$BENCH_PORT (the same figures bench:pages prints at its end, without
 * its minutes of load). See scripts/lib/first-load-js.ts for what is counted.
 */
import { firstLoadReport } from './lib/first-load-js';

const ORIGIN = `http://127.0.0.1:${process.env.BENCH_PORT ?? 3200}`;

firstLoadReport(ORIGIN, process.argv.slice(2)).then(
  (lines) => console.log(lines.join('\n')),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
