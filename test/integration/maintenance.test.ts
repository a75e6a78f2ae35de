import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { installDatabase, queryRows } from '@/lib/db';
import { VACUUM_EMBEDDED, vacuumEmbeddedJob } from '@/lib/server/maintenance';
import type { Job } from '@/lib/db/schema';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { heldJobContext } from '../helpers/jobs';
import { insertVideo } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-maintenance-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('embedded maintenance on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
  });
  afterAll(() => database.destroy());

  it('vacuums and analyses (index-only scans and fresh planner statistics), and queues its next hour', async () => {
    const [owner] = await queryRows<{ id: string }>(
      database.db,
      sql`INSERT INTO users (username, email, password_hash, date_of_birth) VALUES ('keeper', 'keeper@example.org', 'x', '1990-01-01') RETURNING id`,
    );
    for (let i = 0; i < 20; i += 1) await insertVideo(database.db, owner!.id, { title: `Clip ${i}` });
    const visible = async () =>
      (
        await queryRows<{ n: number }>(database.db, sql`SELECT relallvisible::int AS n FROM pg_class WHERE relname = 'videos'`)
      )[0]!.n;
    expect(await visible()).toBe(0);

    await vacuumEmbeddedJob({ id: 'x', type: VACUUM_EMBEDDED.type } as Job, heldJobContext());

    expect(await visible()).toBeGreaterThan(0);
    const [stats] = await queryRows<{ analyzed: boolean }>(
      database.db,
      sql`SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = 'videos'`,
    );
    expect(stats!.analyzed).toBe(true);
    const next = await queryRows<{ run_at: Date | string }>(
      database.db,
      sql`SELECT run_at FROM jobs WHERE type = ${VACUUM_EMBEDDED.type} AND status = 'queued'`,
    );
    expect(next).toHaveLength(1);
    const due = new Date(next[0]!.run_at).getTime();
    expect(due).toBeGreaterThan(Date.now());
    expect(due - Date.now()).toBeLessThanOrEqual(VACUUM_EMBEDDED.everyMs);
  });
});
