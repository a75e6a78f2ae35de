import 'server-only';

import { sql } from 'drizzle-orm';

import { getDatabaseHandle } from '@/lib/db';
import { logger } from '@/lib/server/log';

const log = logger('health');

export interface Health {
  status: 'ok' | 'unavailable';
  database: { engine: 'pglite' | 'postgres'; ok: boolean } | { ok: false };
}

/** Liveness plus a real round trip to the database (a query on the migrated users table). */
export async function checkHealth(): Promise<Health> {
  try {
    const { db, engine } = await getDatabaseHandle();
    await db.execute(sql`select count(*) from users`);
    return { status: 'ok', database: { engine, ok: true } };
  } catch (error) {
    log.error({ err: error }, 'database check failed');
    return { status: 'unavailable', database: { ok: false } };
  }
}
