/**
 * `npm run bench:sitemap`: the sitemap index and one video file at BENCH_SITEMAP_VIDEOS public videos
 * (1,000,000 by default) on PostgreSQL (a scratch database on BENCH_PG_URL's server, dropped at the end).
 * The videos are inserted in bulk (generate_series), as their states and texts do not change the queries'
 * plans. Measured in this process, through the same service the routes call (lib/server/sitemap.ts): the
 * time of each answer (median of BENCH_ROUNDS) and the peak RSS over the level before (sampled every 5 ms).
 * Next's own XML writing (resolveRouteData) is not included: it is a string join over the entries.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { installDatabase, queryRows } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { sitemapFile, sitemapIds, sitemapIndexXml } from '@/lib/server/sitemap';

import { count, median, secs, withPostgres } from './lib/bench';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const VIDEOS = Number(process.env.BENCH_SITEMAP_VIDEOS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCH = 100_000;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Runs work ROUNDS times: its median time, and the highest RSS above the level just before it. */
async function measure<T>(work: () => Promise<T>): Promise<{ ms: number; peak: number; result: T }> {
  const times: number[] = [];
  let peak = 0;
  let result!: T;
  for (let round = 0; round < ROUNDS; round += 1) {
    global.gc?.();
    const base = process.memoryUsage.rss();
    let high = base;
    const sampler = setInterval(() => (high = Math.max(high, process.memoryUsage.rss())), 5);
    const started = performance.now();
    result = await work();
    times.push(performance.now() - started);
    clearInterval(sampler);
    peak = Math.max(peak, Math.max(high, process.memoryUsage.rss()) - base);
  }
  return { ms: median(times), peak, result };
}

async function main() {
  const name = `chrysalis_bench_sitemap_${randomBytes(4).toString('hex')}`;
  await withPostgres(PG_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-sitemap-'));
  process.env.SITE_URL ??= 'https://chrysalis.example';
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir });
  try {
    installDatabase(handle);
    const [owner] = await queryRows<{ id: string }>(
      handle.db,
      sql`INSERT INTO users (username, email, password_hash, date_of_birth, email_verified_at)
          VALUES ('bench_owner', 'bench-owner@example.org', 'x', '1990-01-01', now()) RETURNING id`,
    );
    const seedStarted = performance.now();
    for (let from = 1; from <= VIDEOS; from += BATCH) {
      const to = Math.min(VIDEOS, from + BATCH - 1);
      await queryRows(
        handle.db,
        sql`INSERT INTO videos (stream_video_id, owner_id, title, description, category, tags, source_key, source_bytes,
                                processing_state, moderation_status, published_at, thumbnail_key, web_mp4_key, duration_seconds, views)
            SELECT 'b' || g, ${owner!.id}, 'Bench video number ' || g, 'A description of bench video ' || g || ', as members write them.',
                   'Sissy', ARRAY['tag' || (g % 1000)], 'k' || g, 1000, 'ready', 'approved', now() - g * interval '1 second',
                   't' || g, 'm' || g, 61, g % 5000
            FROM generate_series(${from}::int, ${to}::int) g`,
      );
      console.error(`[bench:sitemap] ${count(to)} videos`);
    }
    await queryRows(handle.db, sql`VACUUM ANALYZE videos`);
    console.error(`[bench:sitemap] seeded in ${secs(performance.now() - seedStarted)}`);

    const ids = await sitemapIds();
    const index = await measure(() => sitemapIndexXml());
    const middle = ids.filter((id) => id.startsWith('videos-'))[Math.floor(ids.length / 2)]!;
    const file = await measure(() => sitemapFile(middle));
    const tags = await measure(() => sitemapFile('tags'));
    console.log(`Sitemap at ${count(VIDEOS)} public videos on PostgreSQL (median of ${ROUNDS}, peak RSS over the level before):`);
    console.log(
      `  index /sitemap.xml: ${ids.length} files, ${(Buffer.byteLength(index.result) / 1024).toFixed(1)} KiB, ${index.ms.toFixed(1)} ms, peak +${mb(index.peak)}`,
    );
    console.log(
      `  one video file (${middle}): ${file.result.length} URLs, ${mb(Buffer.byteLength(JSON.stringify(file.result)))} as JSON, ${file.ms.toFixed(1)} ms, peak +${mb(file.peak)}`,
    );
    console.log(`  tags file: ${tags.result.length} URLs, ${tags.ms.toFixed(1)} ms, peak +${mb(tags.peak)}`);
    console.log(`  seeding (for scale): ${secs(performance.now() - seedStarted)}`);
  } finally {
    await handle.close();
    await withPostgres(PG_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
