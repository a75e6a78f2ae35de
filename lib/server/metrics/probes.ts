import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';
import type { DatabaseHandle } from '@/lib/db/open';
import { jobs } from '@/lib/db/schema';

import { setJobQueueProbe, setPoolProbe, type QueueRow } from './index';

/** Queued jobs by type: how many, and the age in seconds of the oldest one that is due (0 when none is). */
export async function jobQueueStats(db: Database): Promise<QueueRow[]> {
  const rows = await queryRows<{ type: string; queued: number | string; oldest: number | string | null }>(
    db,
    sql`SELECT type, count(*) AS queued,
               coalesce(extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now())), 0) AS oldest
        FROM ${jobs} WHERE status = 'queued' GROUP BY type`,
  );
  return rows.map((row) => ({ type: row.type, queued: Number(row.queued), oldestSeconds: Math.max(0, Number(row.oldest ?? 0)) }));
}

/** Lets /metrics read this process's database: the job queue and the connection pool, at scrape time. */
export function installMetricsProbes(handle: DatabaseHandle): void {
  setJobQueueProbe(() => jobQueueStats(handle.db));
  setPoolProbe(() => handle.poolStats());
}
