import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import type { VideoListDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { onAppEvent } from '@/lib/events';
import type { SearchOrder, SearchSort } from '@/lib/validation/videos';

import { DURATION_BUCKETS, PUBLIC, VIDEO_COLUMNS, type PageRequest } from './catalog';
import { toVideoDto, type VideoRow } from './dto';
import { rankingKey, readStoredRanking, storeRanking, type RankingQuery } from './search-rankings';

export const SEARCH_QUERY_MAX = 200;

/**
 * Words of a query as prefix terms for to_tsquery: "sis trans" matches
 * "sissy transformation". Only letters and digits survive, so no query
 * syntax from the visitor reaches Postgres' parser.
 */
export function prefixTsQuery(query: string): string | null {
  const words = query
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

/** Search answers at most this many results (84 pages of 12), as the big video sites do; refining the words finds the rest. */
export const SEARCH_RESULT_CAP = 1000;
/** How long a query's ranked ids are reused in this process; a change to what is public (approval, ban, removal) drops them at once. */
const RESULT_TTL_MS = 10_000;
const RESULT_CACHE_ENTRIES = 256;

/**
 * Ranked ids per database and query, newest use last (a Map keeps insertion
 * order, so its first key is the least recently used). Per database handle,
 * because tests open several in one process.
 */
let rankedIdsByDb = new WeakMap<Database, Map<string, { ids: string[]; at: number }>>();
onAppEvent('public-content-changed', (prefix) => {
  if (prefix === '/') rankedIdsByDb = new WeakMap();
});

/**
 * The ids of the public videos matching a query, best first, at most
 * SEARCH_RESULT_CAP: from this process's cache for RESULT_TTL_MS, else from a
 * stored ranking while it is fresh (decision 032: common words, shared by
 * every process), else ranked now (rankMatches), and stored when the matches
 * fill the cap, which is when ranking them costs.
 */
async function rankedVideoIds(query: RankingQuery): Promise<string[]> {
  const key = rankingKey(query);
  const now = Date.now();
  const db = await getDb();
  let rankedIds = rankedIdsByDb.get(db);
  if (!rankedIds) rankedIdsByDb.set(db, (rankedIds = new Map()));
  const cached = rankedIds.get(key);
  if (cached && now - cached.at < RESULT_TTL_MS) {
    rankedIds.delete(key);
    rankedIds.set(key, cached);
    return cached.ids;
  }
  let ids = await readStoredRanking(db, key);
  if (!ids) {
    ids = await rankMatches(db, query);
    if (ids.length === SEARCH_RESULT_CAP) await storeRanking(db, query, ids);
  }
  rankedIds.delete(key);
  rankedIds.set(key, { ids, at: now });
  if (rankedIds.size > RESULT_CACHE_ENTRIES) rankedIds.delete(rankedIds.keys().next().value!);
  return ids;
}

/**
 * Ranks the public videos matching a query now. Full-text search over title
 * (weight A), tags (B) and description (C) with prefix matching, plus trigram
 * word similarity on the title so a typo ("sisy") still finds "sissy";
 * newest first on ties.
 *
 * Words before typos (decision 025): the full-text matches are ranked first,
 * and only when they do not fill the cap is the query run again with the
 * typo guesses, which for a common word would mean reading tens of
 * thousands more titles to add results that rank below the exact ones. With
 * the RUM index (PostgreSQL with the rum extension) the best matches come
 * from the index in rank order, so a word in 4 % of a million videos reads
 * a thousand rows, not forty thousand; they are then ordered as everywhere
 * else.
 */
export async function rankMatches(db: Database, { tsquery, lowered, sort, duration }: RankingQuery): Promise<string[]> {
  const visible = duration ? sql`${PUBLIC} AND v.duration_bucket = ${DURATION_BUCKETS[duration]}` : PUBLIC;
  const ranking = sql`${SEARCH_ORDERS[sort](lowered)}, v.published_at DESC NULLS LAST, v.id DESC`;
  const rank = async (candidates: SQL) =>
    (
      await queryRows<{ id: string }>(
        db,
        sql`WITH q AS (SELECT to_tsquery('english', ${tsquery}) AS ts)
            SELECT v.id FROM q, ${candidates} ORDER BY ${ranking} LIMIT ${SEARCH_RESULT_CAP}`,
      )
    ).map((row) => row.id);
  // RUM's <=> needs its query as a constant (not q.ts) to be answered from the index.
  const fullText =
    sort === 'relevance' && (await hasRumIndex(db))
      ? sql`(SELECT v.id FROM videos v WHERE ${visible} AND v.search_vector @@ to_tsquery('english', ${tsquery})
              ORDER BY v.search_vector <=> to_tsquery('english', ${tsquery}) LIMIT ${SEARCH_RESULT_CAP}) best
            JOIN videos v ON v.id = best.id`
      : sql`videos v WHERE ${visible} AND v.search_vector @@ q.ts`;
  const ids = await rank(fullText);
  return ids.length < SEARCH_RESULT_CAP
    ? rank(sql`videos v WHERE ${visible} AND (v.search_vector @@ q.ts OR ${lowered} <% lower(v.title))`)
    : ids;
}

/** Whether a database has the RUM index (migration 0021), asked once per handle: it only appears when the database is opened (lib/db/open.ts). */
const rumIndexByDb = new WeakMap<Database, Promise<boolean>>();
function hasRumIndex(db: Database): Promise<boolean> {
  let present = rumIndexByDb.get(db);
  if (!present) {
    present = queryRows<{ present: boolean }>(db, sql`SELECT to_regclass('videos_search_rum_idx') IS NOT NULL AS present`).then(
      ([row]) => row?.present === true,
    );
    rumIndexByDb.set(db, present);
  }
  return present;
}

/**
 * What ranks the matches: relevance, or one of the list orders. The sorted
 * orders take the best SEARCH_RESULT_CAP matches by that key, so "most
 * viewed" is the most viewed of all full-text matches (typo guesses join
 * when those are fewer than the cap), not of the best thousand.
 */
const SEARCH_ORDERS: Record<SearchSort, (lowered: string) => SQL> = {
  relevance: (lowered) => sql`ts_rank_cd(v.search_vector, q.ts) + word_similarity(${lowered}, lower(v.title)) DESC`,
  newest: () => sql`v.published_at DESC NULLS LAST`,
  views: () => sql`v.views DESC`,
  likes: () => sql`v.likes_count DESC`,
  longest: () => sql`v.duration_seconds DESC NULLS LAST`,
};

/** Public videos matching a query, best first (or in a list order, with a duration filter), a page at a time (see rankedVideoIds). */
export async function searchVideos(
  query: string,
  request: PageRequest,
  order: SearchOrder = { sort: 'relevance' },
): Promise<VideoListDto & { query: string }> {
  const q = query.trim().slice(0, SEARCH_QUERY_MAX);
  const page = request.page ?? 1;
  const tsquery = prefixTsQuery(q);
  const empty = { query: q, videos: [], pagination: { page, limit: request.limit, hasMore: false, nextCursor: null } };
  if (!tsquery) return empty;
  const ids = await rankedVideoIds({ tsquery, lowered: q.toLowerCase(), sort: order.sort, duration: order.duration });
  const start = (page - 1) * request.limit;
  const pageIds = ids.slice(start, start + request.limit);
  if (pageIds.length === 0) return empty;
  const db = await getDb();
  // A video that stopped being public since the ranking is left out (the PUBLIC condition), never shown.
  const rows = await queryRows<VideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE ${PUBLIC} AND v.id IN (${sql.join(
          pageIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const videos = pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toVideoDto(row)] : [];
  });
  return {
    query: q,
    videos,
    pagination: { page, limit: request.limit, hasMore: ids.length > start + request.limit, nextCursor: null },
  };
}
