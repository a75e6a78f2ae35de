import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';
import type { DurationFilter, SearchSort } from '@/lib/validation/videos';

import { PUBLIC } from './catalog';

/**
 * Stored search rankings (decision 032): the ranked ids of a query whose
 * matches fill the result cap (a common word: the costly rankings), kept in
 * the database so every web process and every restart reads them instead of
 * ranking tens of thousands of matches again. The refresh-search-rankings job
 * ranks them again every few minutes; a request reads one only while it is
 * younger than STORED_RANKING_FRESH_MS, so without the job they simply stop
 * being used. A video that stops being public is left out when the page is
 * read (the PUBLIC condition), at once; a newly public one joins a stored
 * ranking at its next refresh.
 */

/** A query as the service ranks it: the tsquery of its words, its lowered text (typo similarity), the order and the duration filter. */
export interface RankingQuery {
  tsquery: string;
  lowered: string;
  sort: SearchSort;
  duration?: DurationFilter | undefined;
}

export const rankingKey = (query: RankingQuery) => `${query.tsquery}\n${query.lowered}\n${query.sort}\n${query.duration ?? ''}`;

/** Three refresh periods: a late or failed run does not send every search back to ranking at the request. */
export const STORED_RANKING_FRESH_MS = 15 * 60_000;
/** Reading a ranking marks it used at most this often, so a popular query is not a write per request. */
const MARK_USED_EVERY_MS = 60_000;

/** The stored ids of a query if they are fresh, else null. */
export async function readStoredRanking(db: Database, key: string): Promise<string[] | null> {
  const [row] = await queryRows<{ ids: string[]; stale_use: boolean }>(
    db,
    sql`SELECT ids, used_at < now() - make_interval(secs => ${MARK_USED_EVERY_MS / 1000}) AS stale_use
        FROM search_rankings WHERE key = ${key} AND computed_at > now() - make_interval(secs => ${STORED_RANKING_FRESH_MS / 1000})`,
  );
  if (!row) return null;
  if (row.stale_use) await db.execute(sql`UPDATE search_rankings SET used_at = now() WHERE key = ${key}`);
  return row.ids;
}

/** Stores (or replaces) a query's ranked ids, computed now. */
export async function storeRanking(db: Database, query: RankingQuery, ids: readonly string[]): Promise<void> {
  // One parameter in array literal form (the ids are uuids the database gave), not a thousand.
  await db.execute(sql`
    INSERT INTO search_rankings (key, tsquery, lowered, sort, duration, ids)
    VALUES (${rankingKey(query)}, ${query.tsquery}, ${query.lowered}, ${query.sort}, ${query.duration ?? null}, ${`{${ids.join(',')}}`}::uuid[])
    ON CONFLICT (key) DO UPDATE SET ids = EXCLUDED.ids, computed_at = now()`);
}

export const forgetRanking = (db: Database, key: string) => db.execute(sql`DELETE FROM search_rankings WHERE key = ${key}`);

/** The stored queries someone searched within `usedWithinMs`, most recently used first; the others are deleted. */
export async function rankingsInUse(db: Database, usedWithinMs: number, limit: number): Promise<RankingQuery[]> {
  const within = sql`make_interval(secs => ${usedWithinMs / 1000})`;
  await db.execute(sql`DELETE FROM search_rankings WHERE used_at < now() - ${within}`);
  const rows = await queryRows<{ tsquery: string; lowered: string; sort: SearchSort; duration: DurationFilter | null }>(
    db,
    sql`SELECT tsquery, lowered, sort, duration FROM search_rankings ORDER BY used_at DESC LIMIT ${limit}`,
  );
  return rows.map((row) => ({ tsquery: row.tsquery, lowered: row.lowered, sort: row.sort, duration: row.duration ?? undefined }));
}

/** About how many titles a sample reads to find the common words, whatever the size of the catalogue. */
const SAMPLED_TITLES = 20_000;

/**
 * The words that are in at least `minTitles` public titles, most frequent
 * first, estimated from a random sample of about SAMPLED_TITLES rows (all of
 * them on a small site): a word that common is never missed by such a sample.
 */
export async function commonTitleWords(db: Database, minTitles: number, limit: number): Promise<string[]> {
  const [size] = await queryRows<{ rows: number }>(
    db,
    sql`SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE relname = 'videos'`,
  );
  const estimated = Number(size?.rows ?? 0);
  const percent = estimated > SAMPLED_TITLES ? (100 * SAMPLED_TITLES) / estimated : 100;
  const sampled = percent < 100 ? sql`videos v TABLESAMPLE SYSTEM (${percent})` : sql`videos v`;
  const scale = percent < 100 ? 100 / percent : 1;
  const rows = await queryRows<{ word: string }>(
    db,
    sql`SELECT word FROM (
          SELECT DISTINCT v.id, regexp_split_to_table(lower(v.title), '[^[:alnum:]]+') AS word FROM ${sampled} WHERE ${PUBLIC}
        ) words
        WHERE length(word) >= 3
        GROUP BY word HAVING count(*) * ${scale}::float8 >= ${minTitles}
        ORDER BY count(*) DESC, word LIMIT ${limit}`,
  );
  return rows.map((row) => row.word);
}
