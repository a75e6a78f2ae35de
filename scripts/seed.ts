/**
 * `npm run seed -- --videos N [--users M] [--media K] [--batch B]`: a large
 * synthetic catalogue for benchmarks, on PostgreSQL (DATABASE_URL) or the
 * embedded database in DATA_DIR (stop the server first: one process at a
 * time). N public videos owned by M new members (default 1,000); the newest
 * K per category and the top dozen get real media (default 24; 0 for none).
 * See lib/server/demo/bulk-seed.ts for what the rows look like.
 */
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { installDatabase } from '@/lib/db';
import { DatabaseLockedError, openDatabase } from '@/lib/db/open';
import { seedBulk } from '@/lib/server/demo/bulk-seed';

const USAGE = 'Usage: npm run seed -- --videos N [--users M] [--media K] [--batch B]';

function wholeNumber(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const parsed = Number(value?.replace(/[_,]/g, ''));
  if (value === undefined || !Number.isInteger(parsed) || parsed < 0) {
    console.error(`--${name} must be a whole number (got ${JSON.stringify(value ?? '')}).\n${USAGE}`);
    process.exit(1);
  }
  return parsed;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en-US');

async function main() {
  const { values } = parseArgs({
    options: {
      videos: { type: 'string' },
      users: { type: 'string' },
      media: { type: 'string' },
      batch: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || values.videos === undefined) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  const videos = wholeNumber('videos', values.videos);
  const users = wholeNumber('users', values.users, 1000);
  const mediaPerCategory = wholeNumber('media', values.media, 24);
  const batchSize = Math.max(1, wholeNumber('batch', values.batch, 5000));

  const config = loadConfig();
  const started = Date.now();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  installDatabase(handle);
  const where = handle.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`[seed] ${count(videos)} videos by ${count(users)} new members into the ${where}`);

  let phaseStarted = Date.now();
  let lastPhase = '';
  let lastLine = 0;
  try {
    const result = await seedBulk(handle.db, {
      videos,
      users,
      batchSize,
      mediaPerCategory,
      onProgress: ({ phase, done, total }) => {
        if (phase !== lastPhase) {
          lastPhase = phase;
          phaseStarted = Date.now();
          lastLine = 0;
        }
        const now = Date.now();
        // A line every two seconds and at the end of each phase, with the rate and what is left.
        if (done < total && now - lastLine < 2000) return;
        lastLine = now;
        const elapsed = (now - phaseStarted) / 1000;
        const rate = elapsed > 0 ? done / elapsed : 0;
        const speed = done > 0 ? `, ${count(Math.round(rate))}/s` : '';
        const eta = done > 0 && done < total ? `, about ${seconds(((total - done) / rate) * 1000)} left` : '';
        if (phase === 'analyze') {
          if (done === total) console.log(`[seed] ANALYZE done in ${seconds(now - phaseStarted)}`);
          return;
        }
        console.log(
          `[seed] ${phase}: ${count(done)}/${count(total)} (${Math.round((done / Math.max(1, total)) * 100)} %${speed}${eta})`,
        );
      },
    });
    console.log(
      `[seed] done in ${seconds(Date.now() - started)} (seeding ${seconds(result.milliseconds)}): ${count(result.videos)} videos, ` +
        `${count(result.users)} members seed_${result.run}_…, ${result.withMedia} videos with real media`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseLockedError ? error.message : error);
  process.exit(1);
});
