import 'server-only';

import { sql } from 'drizzle-orm';

import type { VideoListDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';

import { PUBLIC, VIDEO_COLUMNS, type PageRequest } from './catalog';
import { toVideoDto, type VideoRow } from './dto';

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

/**
 * Public videos matching a query, best first. Full-text search over title
 * (weight A), tags (B) and description (C) with prefix matching, plus
 * trigram word similarity on the title so a typo ("sisy") still finds
 * "sissy". Rank: text relevance plus title similarity, newest first on ties.
 */
export async function searchVideos(query: string, request: PageRequest): Promise<VideoListDto & { query: string }> {
  const q = query.trim().slice(0, SEARCH_QUERY_MAX);
  const page = request.page ?? 1;
  const tsquery = prefixTsQuery(q);
  if (!tsquery) return { query: q, videos: [], pagination: { page, limit: request.limit, hasMore: false, nextCursor: null } };
  const lowered = q.toLowerCase();
  const db = await getDb();
  const rows = await queryRows<VideoRow>(
    db,
    sql`WITH q AS (SELECT to_tsquery('english', ${tsquery}) AS ts)
        SELECT ${VIDEO_COLUMNS}
        FROM q, videos v JOIN users u ON u.id = v.owner_id
        WHERE ${PUBLIC} AND (v.search_vector @@ q.ts OR ${lowered} <% lower(v.title))
        ORDER BY ts_rank_cd(v.search_vector, q.ts) + word_similarity(${lowered}, lower(v.title)) DESC,
                 v.published_at DESC NULLS LAST, v.id DESC
        LIMIT ${request.limit + 1} OFFSET ${(page - 1) * request.limit}`,
  );
  const hasMore = rows.length > request.limit;
  return { query: q, videos: rows.slice(0, request.limit).map(toVideoDto), pagination: { page, limit: request.limit, hasMore, nextCursor: null } };
}
