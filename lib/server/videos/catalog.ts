import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import type { OwnVideoDto, VideoDto, VideoListDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { CATEGORIES, type Category } from '@/lib/site';
import type { DurationFilter, VideoSort } from '@/lib/validation/videos';

import { requireMember, type Actor } from '../auth/actor';
import { EXACT_TIME, isRealTime } from '../cursor-time';
import { badRequest } from '../errors';

import { toOwnVideoDto, toVideoDto, type OwnVideoRow, type VideoRow } from './dto';

/** Everything a video DTO needs, with the owner's name and the members who liked it. */
export const VIDEO_COLUMNS = sql`
  v.id, v.stream_video_id, v.title, v.description, v.category, v.tags, v.thumbnail_key, v.thumbnail_version, v.web_mp4_key,
  v.hls_master_key, v.previews_version, v.views, v.duration_seconds, v.width, v.height, v.published_at, v.created_at,
  v.owner_id, u.username AS owner_username, v.processing_state, v.moderation_status, v.processing_error,
  v.rejection_reason, v.performers_declared_at,
  coalesce((SELECT array_agg(l.user_id::text ORDER BY l.created_at) FROM video_likes l WHERE l.video_id = v.id), '{}'::text[]) AS liked_by`;

/**
 * VIDEO_COLUMNS with the owner's text edit waiting for review (decision 009), for what owners and admins read
 * (OwnVideoRow): public lists never select it.
 */
export const OWN_VIDEO_COLUMNS = sql`${VIDEO_COLUMNS},
  (SELECT json_build_object('editId', e.edit_id, 'title', e.title, 'description', e.description, 'tags', e.tags,
     'proposedAt', e.proposed_at) FROM video_text_edits e WHERE e.video_id = v.id) AS pending_edit`;

// The same condition as the schema's PUBLIC_VIDEO, so the partial indexes apply.
export const PUBLIC = sql`v.processing_state = 'ready' AND v.moderation_status = 'approved' AND NOT v.owner_banned`;

export const MAX_PAGE = 10_000;

export interface PageRequest {
  limit: number;
  page?: number;
  cursor?: string | null;
}

/** The order of a list and its duration filter (lib/validation/videos.ts). */
export interface ListFilter {
  category?: Category;
  sort?: VideoSort;
  duration?: DurationFilter;
}

/** The generated duration_bucket column's values (lib/db/schema.ts); 0 is a video whose length is unknown. */
export const DURATION_BUCKETS: Record<DurationFilter, number> = { short: 1, medium: 2, long: 3 };
const ALL_BUCKETS = [0, 1, 2, 3];

/** Each sort's key before the (published_at, id) tie-break, with its SQL type for cursors; newest has none. */
const SORT_KEYS: Record<Exclude<VideoSort, 'newest'>, { column: SQL; type: SQL }> = {
  views: { column: sql`v.views`, type: sql`integer` },
  likes: { column: sql`v.likes_count`, type: sql`integer` },
  longest: { column: sql`v.duration_seconds`, type: sql`double precision` },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVALID_CURSOR = 'The cursor is not valid. Start again from page 1.';

interface Cursor {
  /** The sort key of the last card (null: a video of unknown length, for longest). */
  key: number | null;
  at: string;
  id: string;
}

/**
 * Cursors carry the last card's sort key, published_at (to the microsecond)
 * and id: `at|id` for newest (the format the home feed has always sent) and
 * `sort|key|at|id` for the others, so a cursor of one order is refused by another.
 */
function encodeCursor(sort: VideoSort, cursor: Cursor): string {
  const text = sort === 'newest' ? `${cursor.at}|${cursor.id}` : `${sort}|${cursor.key ?? 'null'}|${cursor.at}|${cursor.id}`;
  return Buffer.from(text).toString('base64url');
}

function decodeCursor(sort: VideoSort, cursor: string): Cursor {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  let key: number | null = null;
  if (sort !== 'newest') {
    const [tag, keyText] = parts.splice(0, 2);
    if (tag !== sort || !keyText) throw badRequest(INVALID_CURSOR);
    if (keyText === 'null' && sort === 'longest') key = null;
    else if (sort === 'longest' ? /^\d{1,9}(\.\d{1,20})?(e-?\d{1,3})?$/i.test(keyText) : /^\d{1,10}$/.test(keyText))
      key = Number(keyText);
    else throw badRequest(INVALID_CURSOR);
    // Counts are PostgreSQL integers: a larger one would be a database error, not a cursor.
    if (key !== null && (!Number.isFinite(key) || (sort !== 'longest' && key > 2_147_483_647))) throw badRequest(INVALID_CURSOR);
  }
  const [at, id, extra] = parts;
  // Newest cursors from before exact timestamps carried milliseconds; any ISO time is still taken for them.
  const atValid =
    at !== undefined && (EXACT_TIME.test(at) || (sort === 'newest' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at))) && isRealTime(at);
  if (!atValid || !id || extra !== undefined || !UUID.test(id)) throw badRequest(INVALID_CURSOR);
  return { key, at, id };
}

/**
 * The pieces of a list's query. A list with no duration filter in newest
 * order is one range of videos_public_recent_idx or videos_public_category_idx.
 * Every other list is the merge of one range per (category, duration bucket)
 * of the sort's own index (category, duration_bucket, key DESC, published_at
 * DESC, id DESC WHERE public): a UNION ALL of branches that PostgreSQL reads
 * as a Merge Append of index-only scans, so page 1,000 skips its offset in
 * the indexes and never touches the table (decision 011).
 */
function listQuery(where: SQL, filter: ListFilter, after: Cursor | null, rows: number) {
  const sort = filter.sort ?? 'newest';
  const key = sort === 'newest' ? null : SORT_KEYS[sort];
  const single = sort === 'newest' && !filter.duration;
  const categories = filter.category ? [filter.category] : CATEGORIES;
  const buckets = filter.duration ? [DURATION_BUCKETS[filter.duration]] : ALL_BUCKETS;
  const scopes: { condition: SQL; bucket: number | null }[] = single
    ? [{ condition: filter.category ? sql`${where} AND v.category = ${filter.category}` : where, bucket: null }]
    : categories.flatMap((category) =>
        buckets.map((bucket) => ({
          condition: sql`${where} AND v.category = ${category} AND v.duration_bucket = ${bucket}`,
          bucket,
        })),
      );
  const tieBreak = (a: Cursor) => sql`(v.published_at, v.id) < (${a.at}::timestamptz, ${a.id}::uuid)`;
  const seek = (bucket: number | null): SQL | null => {
    if (!after) return null;
    if (!key) return tieBreak(after);
    // Longest: unknown lengths (bucket 0, key null) come after every known one.
    if (sort === 'longest' && bucket === 0) return after.key === null ? tieBreak(after) : null;
    if (after.key === null) return sql`false`;
    return sql`(${key.column}, v.published_at, v.id) < (${after.key}::${key.type}, ${after.at}::timestamptz, ${after.id}::uuid)`;
  };
  const order = (k: SQL | null, table: SQL) =>
    sql`${k ? sql`${k} DESC NULLS LAST, ` : sql``}${table}.published_at DESC NULLS LAST, ${table}.id DESC NULLS LAST`;
  // Each branch is ordered and cut itself: a leaf with its own ORDER BY is planned as an ordered index-only
  // scan, which the outer ORDER BY merges (a plain leaf with a WHERE would be read whole and sorted).
  const branches = scopes.map(({ condition, bucket }) => {
    const extra = seek(bucket);
    return sql`(SELECT v.id, v.published_at${key ? sql`, ${key.column} AS k` : sql``} FROM videos v
               WHERE ${condition}${extra ? sql` AND ${extra}` : sql``}
               ORDER BY ${order(key?.column ?? null, sql`v`)} LIMIT ${rows})`;
  });
  const source = sql.join(branches, sql` UNION ALL `);
  return { source, order: (table: SQL) => order(key ? sql`${table}.k` : null, table) };
}

async function pageOf(where: SQL, request: PageRequest, filter: ListFilter = {}): Promise<VideoListDto> {
  const db = await getDb();
  const page = request.page ?? 1;
  const sort = filter.sort ?? 'newest';
  const after = request.cursor ? decodeCursor(sort, request.cursor) : null;
  const offset = after ? 0 : (page - 1) * request.limit;
  const { source, order } = listQuery(where, filter, after, offset + request.limit + 1);
  // One extra row answers hasMore without a count. The page's ids come from
  // the partial indexes alone (index-only scans skip the offset rows without
  // touching the table); only the rows shown are then read and joined.
  const rows = await queryRows<VideoRow & { cursor_at: string; cursor_key: number | string | null }>(
    db,
    sql`WITH page AS (
          SELECT b.* FROM (${source}) b
          ORDER BY ${order(sql`b`)}
          LIMIT ${request.limit + 1} OFFSET ${offset}
        )
        SELECT ${VIDEO_COLUMNS},
               to_char(page.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
               ${sort === 'newest' ? sql`NULL` : sql`page.k`} AS cursor_key
        FROM page JOIN videos v ON v.id = page.id JOIN users u ON u.id = v.owner_id
        ORDER BY ${order(sql`page`)}`,
  );
  const hasMore = rows.length > request.limit;
  const shown = rows.slice(0, request.limit);
  const last = shown[shown.length - 1];
  return {
    videos: shown.map(toVideoDto),
    pagination: {
      page,
      limit: request.limit,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor(sort, {
              key: last.cursor_key === null ? null : Number(last.cursor_key),
              at: last.cursor_at,
              id: last.id,
            })
          : null,
    },
  };
}

/** Recent Uploads: public videos, newest first (or in another order, with a duration filter). */
export function listRecentVideos(request: PageRequest, filter: Omit<ListFilter, 'category'> = {}): Promise<VideoListDto> {
  return pageOf(PUBLIC, request, filter);
}

export function listCategoryVideos(
  category: Category,
  request: PageRequest,
  filter: Omit<ListFilter, 'category'> = {},
): Promise<VideoListDto> {
  return pageOf(PUBLIC, request, { ...filter, category });
}

/** A tag's page: the public videos carrying it (videos_public_tags_idx for rare tags), in any list order. */
export function listTagVideos(
  tag: string,
  request: PageRequest,
  filter: Omit<ListFilter, 'category'> = {},
): Promise<VideoListDto> {
  return pageOf(sql`${PUBLIC} AND v.tags @> ARRAY[${tag}]::text[]`, request, filter);
}

/**
 * The tags of public videos with the most videos first (the sitemap's tag pages), each with its count: read
 * from public_tag_counts' rank index (a trigger keeps it, migration 0030), so it costs `limit` rows whatever
 * the catalogue's size.
 */
export async function listPublicTags(limit: number): Promise<{ tag: string; videos: number }[]> {
  const rows = await queryRows<{ tag: string; videos: number | string }>(
    await getDb(),
    sql`SELECT tag, videos FROM public_tag_counts ORDER BY videos DESC, tag LIMIT ${limit}`,
  );
  return rows.map((row) => ({ tag: row.tag, videos: Number(row.videos) }));
}

/**
 * Top Videos: ranked by views plus ten per like (a like is a stronger
 * signal than a view, and views alone reward clickbait), newest first on
 * ties. The expression matches the videos_public_top_idx index.
 */
export async function listTopVideos(limit: number): Promise<VideoDto[]> {
  const db = await getDb();
  const rows = await queryRows<VideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE ${PUBLIC}
        ORDER BY (v.views + 10 * v.likes_count) DESC, v.published_at DESC NULLS LAST, v.id DESC NULLS LAST
        LIMIT ${limit}`,
  );
  return rows.map(toVideoDto);
}

/** A public video by its public id, or null (unknown, unprocessed, unapproved or hidden are all the same to visitors). */
export async function findPublicVideo(streamVideoId: string): Promise<VideoDto | null> {
  const row = await findVideoRow(streamVideoId);
  return row && isPublicRow(row) ? toVideoDto(row) : null;
}

/** A video by its public id whatever its state, with the fields owners and admins see. */
export async function findVideoRow(streamVideoId: string): Promise<(OwnVideoRow & { owner_banned: boolean }) | null> {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(streamVideoId)) return null;
  const db = await getDb();
  const [row] = await queryRows<OwnVideoRow & { owner_banned: boolean }>(
    db,
    sql`SELECT ${OWN_VIDEO_COLUMNS}, v.owner_banned FROM videos v JOIN users u ON u.id = v.owner_id WHERE v.stream_video_id = ${streamVideoId}`,
  );
  return row ?? null;
}

export function isPublicRow(row: Pick<VideoRow, 'processing_state' | 'moderation_status'> & { owner_banned: boolean }): boolean {
  return row.processing_state === 'ready' && row.moderation_status === 'approved' && !row.owner_banned;
}

/** The caller's own uploads in every state, newest upload first (members only). */
export async function listOwnVideos(
  actor: Actor,
  request: PageRequest,
): Promise<{ videos: OwnVideoDto[]; pagination: VideoListDto['pagination'] }> {
  const ownerId = requireMember(actor).user.id;
  const db = await getDb();
  const page = request.page ?? 1;
  const rows = await queryRows<OwnVideoRow>(
    db,
    sql`SELECT ${OWN_VIDEO_COLUMNS}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE v.owner_id = ${ownerId}
        ORDER BY v.created_at DESC, v.id DESC
        LIMIT ${request.limit + 1} OFFSET ${(page - 1) * request.limit}`,
  );
  const hasMore = rows.length > request.limit;
  return {
    videos: rows.slice(0, request.limit).map(toOwnVideoDto),
    pagination: { page, limit: request.limit, hasMore, nextCursor: null },
  };
}

/** Public video ids and dates for the sitemap and feeds, newest first. */
export async function listPublicVideoRows(limit: number): Promise<VideoRow[]> {
  const db = await getDb();
  return queryRows<VideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE ${PUBLIC}
        ORDER BY v.published_at DESC NULLS LAST, v.id DESC NULLS LAST
        LIMIT ${limit}`,
  );
}

/** What a video's sitemap entry needs (lib/server/sitemap.ts): no likes, no moderation fields. */
export interface SitemapVideoRow {
  stream_video_id: string;
  title: string;
  description: string;
  thumbnail_key: string | null;
  web_mp4_key: string | null;
  duration_seconds: number | null;
  views: number;
  published_at: Date | string | null;
  created_at: Date | string;
  owner_username: string;
}

/**
 * The sitemap's video files (decision 056): file n holds the public videos whose seq is in
 * [n × perFile, (n + 1) × perFile), so a file never holds more than perFile. These are the numbers of the
 * files holding at least one public video, found by one probe of videos_public_seq_idx per file (a loose
 * index scan) instead of reading every video.
 */
export async function listSitemapVideoFiles(perFile: number): Promise<number[]> {
  const rows = await queryRows<{ n: number | string }>(
    await getDb(),
    sql`WITH RECURSIVE files(n) AS (
          SELECT (SELECT v.seq FROM videos v WHERE ${PUBLIC} ORDER BY v.seq LIMIT 1) / ${perFile}
          UNION ALL
          SELECT (SELECT v.seq FROM videos v WHERE ${PUBLIC} AND v.seq >= (files.n + 1) * ${perFile}
                  ORDER BY v.seq LIMIT 1) / ${perFile}
          FROM files WHERE files.n IS NOT NULL
        )
        SELECT n FROM files WHERE n IS NOT NULL`,
  );
  return rows.map((row) => Number(row.n));
}

/** The public videos of sitemap file n (listSitemapVideoFiles): one range of videos_public_seq_idx, at most perFile rows. */
export async function listSitemapVideos(file: number, perFile: number): Promise<SitemapVideoRow[]> {
  return queryRows<SitemapVideoRow>(
    await getDb(),
    sql`SELECT v.stream_video_id, v.title, v.description, v.thumbnail_key, v.web_mp4_key, v.duration_seconds, v.views,
               v.published_at, v.created_at, u.username AS owner_username
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE ${PUBLIC} AND v.seq >= ${file * perFile} AND v.seq < ${(file + 1) * perFile}
        ORDER BY v.seq`,
  );
}
