/**
 * What one integration test file pays for its database, before and after the migrated templates (decision 047):
 * "fresh" is what test/helpers/db.ts did until then (a new PGlite cluster, or an empty PostgreSQL database, and all
 * migrations), "template" what it does now (a copy of the template; the migrations are no-ops). Interleaved, medians.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx --conditions=react-server scripts/bench-test-databases.ts [--runs 5]
 *
 * The templates must exist: any integration Jest run makes them (test/helpers/integration-setup.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openDatabase, type Engine } from '@/lib/db/open';

import { adminQuery, copyPgliteTemplate, copyPostgresTemplate, ensureTemplates } from '../test/helpers/db-template';

const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 5;
const serverUrl = process.env.TEST_DATABASE_URL;

async function timeOne(engine: Engine, way: 'fresh' | 'template'): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-db-'));
  const name = `chrysalis_test_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string | undefined;
  const started = performance.now();
  try {
    if (engine === 'postgres') {
      if (way === 'template') await copyPostgresTemplate(serverUrl!, name);
      else await adminQuery(serverUrl!, `CREATE DATABASE "${name}"`);
      const url = new URL(serverUrl!);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    } else if (way === 'template') copyPgliteTemplate(dataDir);
    const handle = await openDatabase({ dataDir, databaseUrl });
    const ms = performance.now() - started;
    await handle.close();
    return ms;
  } finally {
    if (databaseUrl) await adminQuery(serverUrl!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  await ensureTemplates();
  const engines: Engine[] = serverUrl ? ['pglite', 'postgres'] : ['pglite'];
  for (const engine of engines) {
    const times = { fresh: [] as number[], template: [] as number[] };
    for (let run = 0; run < RUNS; run += 1) {
      // Alternating, so a change in the machine's load falls on both.
      for (const way of run % 2 ? (['template', 'fresh'] as const) : (['fresh', 'template'] as const))
        times[way].push(await timeOne(engine, way));
    }
    const show = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(1)).join(' ');
    console.log(
      `${engine}: fresh median ${(median(times.fresh) / 1000).toFixed(1)} s (${show(times.fresh)}), ` +
        `template median ${(median(times.template) / 1000).toFixed(1)} s (${show(times.template)})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
