import 'server-only';

import { sql } from 'drizzle-orm';

import type { PlaylistDto, PlaylistSummaryDto } from '@/lib/api-types';
import { queryRows, type Database } from '@/lib/db';
import { PLAYLIST_ID_PATTERN, PLAYLIST_MESSAGES, PLAYLIST_VIDEOS_MAX, type PlaylistVisibility } from '@/lib/playlists';

import { memberOf, type Actor } from '../auth/actor';
import { ApiError, badRequest, forbidden } from '../errors';
import { PUBLIC, VIDEO_COLUMNS } from '../videos/catalog';
import { iso, mediaUrl, toVideoDto, type VideoRow } from '../videos/dto';

/**
 * Who may see a playlist, and how one reads. Private: the owner only, a 404
 * to everyone else (as if it did not exist); unlisted and public: anyone,
 * unless the owner is banned. Only the owner changes one. Counts, pictures
 * and video lists take the videos that are public now (the PUBLIC condition,
 * as Watch later does): a hidden video's row stays and it comes back if it is
 * published again; a deleted video's row goes with it (ON DELETE CASCADE).
 */

export interface PlaylistRow {
  id: string;
  public_id: string;
  owner_id: string;
  owner_username: string;
  owner_banned: boolean;
  title: string;
  description: string;
  visibility: PlaylistVisibility;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The summary's columns for `p`, a playlists row: counts and the picture from its public videos. */
export const SUMMARY_COLUMNS = sql`p.id, p.public_id, p.owner_id, p.title, p.description, p.visibility, p.created_at, p.updated_at,
  (SELECT count(*) FROM playlist_items i JOIN videos v ON v.id = i.video_id WHERE i.playlist_id = p.id AND ${PUBLIC})::int AS video_count,
  (SELECT v.stream_video_id FROM playlist_items i JOIN videos v ON v.id = i.video_id
    WHERE i.playlist_id = p.id AND ${PUBLIC} AND v.thumbnail_key IS NOT NULL
    ORDER BY i.position, i.added_at, i.video_id LIMIT 1) AS picture_video_id`;

export interface SummaryRow extends Omit<PlaylistRow, 'owner_username' | 'owner_banned'> {
  video_count: number;
  picture_video_id: string | null;
  has_video?: boolean;
}

export function toSummaryDto(row: SummaryRow): PlaylistSummaryDto {
  return {
    id: row.public_id,
    title: row.title,
    description: row.description,
    visibility: row.visibility,
    videoCount: Number(row.video_count),
    thumbnailUrl: row.picture_video_id ? mediaUrl(row.picture_video_id, 'thumbnail.jpg') : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.has_video === undefined ? {} : { hasVideo: Boolean(row.has_video) }),
  };
}

/** The playlist behind a public id, whoever owns it: 400 for an id that cannot be one, null for none. */
async function playlistByPublicId(db: Database, publicId: string): Promise<PlaylistRow | null> {
  if (!PLAYLIST_ID_PATTERN.test(publicId)) throw badRequest(PLAYLIST_MESSAGES.badId);
  const [row] = await queryRows<PlaylistRow>(
    db,
    sql`SELECT p.id, p.public_id, p.owner_id, u.username AS owner_username, (u.banned_at IS NOT NULL) AS owner_banned,
          p.title, p.description, p.visibility, p.created_at, p.updated_at
        FROM playlists p JOIN users u ON u.id = p.owner_id
        WHERE p.public_id = ${publicId}`,
  );
  return row ?? null;
}

const isOwner = (row: PlaylistRow, actor: Actor) => memberOf(actor)?.id === row.owner_id;

/** Whether the caller may see it: its owner always; others when it is not private and its owner is not banned. */
export const visibleTo = (row: PlaylistRow, actor: Actor) =>
  isOwner(row, actor) || (row.visibility !== 'private' && !row.owner_banned);

/** A playlist the caller may see, else 404 (a private one is not there for anyone but its owner). */
export async function visiblePlaylist(db: Database, actor: Actor, publicId: string): Promise<PlaylistRow> {
  const row = await playlistByPublicId(db, publicId);
  if (!row || !visibleTo(row, actor)) throw new ApiError(404, PLAYLIST_MESSAGES.notFound);
  return row;
}

/** A playlist the caller owns: 404 when they may not see it, 403 when they may but it is someone else's. */
export async function ownPlaylist(db: Database, actor: Actor, publicId: string): Promise<PlaylistRow> {
  const row = await visiblePlaylist(db, actor, publicId);
  if (!isOwner(row, actor)) throw forbidden(PLAYLIST_MESSAGES.notOwner);
  return row;
}

/** The public videos of a playlist, in its order. */
export async function playlistVideos(db: Database, playlistId: string) {
  const rows = await queryRows<VideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}
        FROM playlist_items i
        JOIN videos v ON v.id = i.video_id
        JOIN users u ON u.id = v.owner_id
        WHERE i.playlist_id = ${playlistId} AND ${PUBLIC}
        ORDER BY i.position, i.added_at, i.video_id
        LIMIT ${PLAYLIST_VIDEOS_MAX}`,
  );
  return rows.map(toVideoDto);
}

/** The whole playlist as its page and the API show it. */
export async function playlistDto(db: Database, row: PlaylistRow): Promise<PlaylistDto> {
  const videos = await playlistVideos(db, row.id);
  const thumbnail = videos.find((video) => video.thumbnailUrl)?.thumbnailUrl ?? null;
  return {
    id: row.public_id,
    title: row.title,
    description: row.description,
    visibility: row.visibility,
    videoCount: videos.length,
    thumbnailUrl: thumbnail,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    owner: { _id: row.owner_id, username: row.owner_username },
    videos,
  };
}
