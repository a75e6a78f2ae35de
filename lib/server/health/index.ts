import 'server-only';

import { sql } from 'drizzle-orm';

import { getDatabaseHandle } from '@/lib/db';

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
    console.error('[health] database check failed:', error);
    return { status: 'unavailable', database: { ok: false } };
  }
}
