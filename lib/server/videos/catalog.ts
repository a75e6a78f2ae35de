import 'server-only';

import { sql, type SQL } from 'drizzle-orm';

import type { OwnVideoDto, VideoDto, VideoListDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import type { Category } from '@/lib/site';

import { requireMember, type Actor } from '../auth/actor';
import { badRequest } from '../errors';

import { toOwnVideoDto, toVideoDto, type VideoRow } from './dto';

/** Everything a video DTO needs, with the owner's name and the members who liked it. */
export const VIDEO_COLUMNS = sql`
  v.id, v.stream_video_id, v.title, v.description, v.category, v.tags, v.thumbnail_key, v.web_mp4_key,
  v.hls_master_key, v.views, v.duration_seconds, v.width, v.height, v.published_at, v.created_at,
  v.owner_id, u.username AS owner_username, v.processing_state, v.moderation_status, v.processing_error,
  v.rejection_reason,
  coalesce((SELECT array_agg(l.user_id::text ORDER BY l.created_at) FROM video_likes l WHERE l.video_id = v.id), '{}'::text[]) AS liked_by`;

// The same condition as the schema's PUBLIC_VIDEO, so the partial indexes apply.
export const PUBLIC = sql`v.processing_state = 'ready' AND v.moderation_status = 'approved' AND NOT v.owner_banned`;

export const MAX_PAGE = 10_000;

export interface PageRequest {
  limit: number;
  page?: number;
  cursor?: string | null;
}

/** Recent cursors carry the last card's (published_at, id); they survive new uploads shifting the pages. */
function encodeCursor(row: VideoRow): string {
  const at = row.published_at instanceof Date ? row.published_at.toISOString() : String(row.published_at);
  return Buffer.from(`${at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/i.test(id)) throw badRequest('The cursor is not valid. Start again from page 1.');
  return { at, id };
}

async function pageOf(where: SQL, request: PageRequest): Promise<VideoListDto> {
  const db = await getDb();
  const page = request.page ?? 1;
  let condition = where;
  let offset = (page - 1) * request.limit;
  if (request.cursor) {
    const { at, id } = decodeCursor(request.cursor);
    condition = sql`${where} AND (v.published_at, v.id) < (${at}::timestamptz, ${id}::uuid)`;
    offset = 0;
  }
  // One extra row answers hasMore without a count. The page's ids come from
  // the partial index alone (an index-only scan skips the offset rows without
  // touching the table); only the rows shown are then read and joined.
  const rows = await queryRows<VideoRow>(
    db,
    sql`WITH page AS (
          SELECT v.id FROM videos v
          WHERE ${condition}
          ORDER BY v.published_at DESC NULLS LAST, v.id DESC NULLS LAST
          LIMIT ${request.limit + 1} OFFSET ${offset}
        )
        SELECT ${VIDEO_COLUMNS}
        FROM page JOIN videos v ON v.id = page.id JOIN users u ON u.id = v.owner_id
        ORDER BY v.published_at DESC NULLS LAST, v.id DESC NULLS LAST`,
  );
  const hasMore = rows.length > request.limit;
  const shown = rows.slice(0, request.limit);
  return {
    videos: shown.map(toVideoDto),
    pagination: { page, limit: request.limit, hasMore, nextCursor: hasMore ? encodeCursor(shown[shown.length - 1]!) : null },
  };
}

/** Recent Uploads: public videos, newest first. */
export function listRecentVideos(request: PageRequest): Promise<VideoListDto> {
  return pageOf(PUBLIC, request);
}

export function listCategoryVideos(category: Category, request: PageRequest): Promise<VideoListDto> {
  return pageOf(sql`${PUBLIC} AND v.category = ${category}`, request);
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
export async function findVideoRow(streamVideoId: string): Promise<(VideoRow & { owner_banned: boolean }) | null> {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(streamVideoId)) return null;
  const db = await getDb();
  const [row] = await queryRows<VideoRow & { owner_banned: boolean }>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}, v.owner_banned FROM videos v JOIN users u ON u.id = v.owner_id WHERE v.stream_video_id = ${streamVideoId}`,
  );
  return row ?? null;
}

export function isPublicRow(row: Pick<VideoRow, 'processing_state' | 'moderation_status'> & { owner_banned: boolean }): boolean {
  return row.processing_state === 'ready' && row.moderation_status === 'approved' && !row.owner_banned;
}

/** The caller's own uploads in every state, newest upload first (members only). */
export async function listOwnVideos(actor: Actor, request: PageRequest): Promise<{ videos: OwnVideoDto[]; pagination: VideoListDto['pagination'] }> {
  const ownerId = requireMember(actor).user.id;
  const db = await getDb();
  const page = request.page ?? 1;
  const rows = await queryRows<VideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE v.owner_id = ${ownerId}
        ORDER BY v.created_at DESC, v.id DESC
        LIMIT ${request.limit + 1} OFFSET ${(page - 1) * request.limit}`,
  );
  const hasMore = rows.length > request.limit;
  return { videos: rows.slice(0, request.limit).map(toOwnVideoDto), pagination: { page, limit: request.limit, hasMore, nextCursor: null } };
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
