import 'server-only';

import { randomBytes } from 'node:crypto';

import { sql, type SQL } from 'drizzle-orm';

import type { PlaylistDto, PlaylistListDto, PlaylistMembershipDto, PlaylistSummaryDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages } from '@/lib/events';
import { PLAYLIST_MESSAGES, PLAYLIST_VIDEOS_MAX, PLAYLISTS_MAX, playlistHref } from '@/lib/playlists';
import type { NewPlaylistInput, PlaylistPatchInput } from '@/lib/validation/playlists';

import { requireMember, type Actor } from '../auth/actor';
import { ApiError, conflict } from '../errors';
import { VIDEO_NOT_FOUND } from '../videos/access';
import { PUBLIC } from '../videos/catalog';
import { videoByStreamId } from '../videos/watch-later';

import { ownPlaylist, playlistDto, SUMMARY_COLUMNS, toSummaryDto, visiblePlaylist, type SummaryRow } from './access';

/**
 * Members' playlists (issue 35, part 6). The services take the caller and
 * decide (access.ts): only the owner changes a playlist; a private one is a
 * 404 to everyone else. Limits hold under concurrency because each write is
 * one statement that checks them as it writes. Every change purges the
 * playlist's cached page (a public or unlisted one is in the page cache).
 */

/** A fresh public id: 72 random bits, URL-safe, the same shape as a video's. */
const newPublicId = () => randomBytes(9).toString('base64url');

const purgePlaylistPage = (publicId: string) => purgePublicPages(playlistHref(publicId));

async function summaryOf(db: Database, playlistId: string): Promise<PlaylistSummaryDto> {
  const [row] = await queryRows<SummaryRow>(db, sql`SELECT ${SUMMARY_COLUMNS} FROM playlists p WHERE p.id = ${playlistId}`);
  if (!row) throw new ApiError(404, PLAYLIST_MESSAGES.notFound);
  return toSummaryDto(row);
}

/**
 * The caller's playlists, last changed first. With `streamVideoId` (the Save
 * dialog), each says whether it holds that video.
 */
export async function listMyPlaylists(actor: Actor, streamVideoId?: string): Promise<PlaylistListDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const video = streamVideoId ? await videoByStreamId(db, streamVideoId) : null;
  const rows = await queryRows<SummaryRow>(
    db,
    sql`SELECT ${SUMMARY_COLUMNS}${
      video
        ? sql`, EXISTS (SELECT 1 FROM playlist_items i WHERE i.playlist_id = p.id AND i.video_id = ${video.id}) AS has_video`
        : sql``
    }
        FROM playlists p WHERE p.owner_id = ${member.id}
        ORDER BY p.updated_at DESC, p.id DESC
        LIMIT ${PLAYLISTS_MAX}`,
  );
  return { playlists: rows.map(toSummaryDto) };
}

/** A new, empty playlist of the caller's; one statement refuses it once they have PLAYLISTS_MAX. */
export async function createPlaylist(actor: Actor, input: NewPlaylistInput): Promise<PlaylistSummaryDto> {
  const member = requireMember(actor).user;
  const db = await getDb();
  const [row] = await queryRows<{ id: string; public_id: string }>(
    db,
    sql`INSERT INTO playlists (public_id, owner_id, title, description, visibility)
        SELECT ${newPublicId()}, ${member.id}, ${input.title}, ${input.description}, ${input.visibility}
        WHERE (SELECT count(*) FROM playlists WHERE owner_id = ${member.id}) < ${PLAYLISTS_MAX}
        RETURNING id, public_id`,
  );
  if (!row) throw conflict(PLAYLIST_MESSAGES.tooMany);
  return summaryOf(db, row.id);
}

/** One playlist with its public videos in order, for whoever may see it (404 otherwise). */
export async function getPlaylist(actor: Actor, publicId: string): Promise<PlaylistDto> {
  const db = await getDb();
  return playlistDto(db, await visiblePlaylist(db, actor, publicId));
}

/** Renames, describes or changes the visibility of one of the caller's playlists. */
export async function updatePlaylist(actor: Actor, publicId: string, patch: PlaylistPatchInput): Promise<PlaylistSummaryDto> {
  const db = await getDb();
  const playlist = await ownPlaylist(db, actor, publicId);
  const changes: SQL[] = [sql`updated_at = now()`];
  if (patch.title !== undefined) changes.push(sql`title = ${patch.title}`);
  if (patch.description !== undefined) changes.push(sql`description = ${patch.description}`);
  if (patch.visibility !== undefined) changes.push(sql`visibility = ${patch.visibility}`);
  await queryRows(db, sql`UPDATE playlists SET ${sql.join(changes, sql`, `)} WHERE id = ${playlist.id}`);
  purgePlaylistPage(publicId);
  return summaryOf(db, playlist.id);
}

export async function deletePlaylist(actor: Actor, publicId: string): Promise<{ deleted: true }> {
  const db = await getDb();
  const playlist = await ownPlaylist(db, actor, publicId);
  await queryRows(db, sql`DELETE FROM playlists WHERE id = ${playlist.id}`);
  purgePlaylistPage(publicId);
  return { deleted: true };
}

/** The playlist's count of public videos, for the Save dialog's answer. */
async function publicVideoCount(db: Database, playlistId: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM playlist_items i JOIN videos v ON v.id = i.video_id
        WHERE i.playlist_id = ${playlistId} AND ${PUBLIC}`,
  );
  return Number(row?.count ?? 0);
}

/**
 * Adds a public video at the end of one of the caller's playlists (adding it
 * again is harmless and answers the same). One statement inserts only while
 * the playlist has room and still exists, and touches its updated_at.
 */
export async function addToPlaylist(actor: Actor, publicId: string, streamVideoId: string): Promise<PlaylistMembershipDto> {
  const db = await getDb();
  const playlist = await ownPlaylist(db, actor, publicId);
  const video = await videoByStreamId(db, streamVideoId);
  if (!video.public) throw new ApiError(404, VIDEO_NOT_FOUND);
  const [row] = await queryRows<{ in_playlist: boolean; exists: boolean }>(
    db,
    sql`WITH added AS (
          INSERT INTO playlist_items (playlist_id, video_id, position)
          SELECT p.id, ${video.id}, coalesce((SELECT max(i.position) FROM playlist_items i WHERE i.playlist_id = p.id), 0) + 1
          FROM playlists p
          WHERE p.id = ${playlist.id}
            AND (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = p.id) < ${PLAYLIST_VIDEOS_MAX}
          ON CONFLICT (playlist_id, video_id) DO NOTHING
          RETURNING playlist_id
        ), touched AS (
          -- Runs whether or not the SELECT reads it (a data-modifying WITH always does).
          UPDATE playlists SET updated_at = now() WHERE id IN (SELECT playlist_id FROM added) RETURNING id
        )
        SELECT EXISTS (SELECT 1 FROM added)
            OR EXISTS (SELECT 1 FROM playlist_items WHERE playlist_id = ${playlist.id} AND video_id = ${video.id}) AS in_playlist,
          EXISTS (SELECT 1 FROM playlists WHERE id = ${playlist.id}) AS exists`,
  );
  if (!row?.exists) throw new ApiError(404, PLAYLIST_MESSAGES.notFound);
  if (!row.in_playlist) throw conflict(PLAYLIST_MESSAGES.full);
  purgePlaylistPage(publicId);
  return { inPlaylist: true, videoCount: await publicVideoCount(db, playlist.id) };
}

/**
 * Removes a video from one of the caller's playlists (removing what is not
 * there is harmless). A video that is not public is a 404 unless it is in the
 * playlist, so its owner can still clear a hidden one.
 */
export async function removeFromPlaylist(actor: Actor, publicId: string, streamVideoId: string): Promise<PlaylistMembershipDto> {
  const db = await getDb();
  const playlist = await ownPlaylist(db, actor, publicId);
  const video = await videoByStreamId(db, streamVideoId);
  const removed = await queryRows<{ video_id: string }>(
    db,
    sql`WITH removed AS (
          DELETE FROM playlist_items WHERE playlist_id = ${playlist.id} AND video_id = ${video.id} RETURNING video_id
        ), touched AS (
          UPDATE playlists SET updated_at = now() WHERE id = ${playlist.id} AND EXISTS (SELECT 1 FROM removed) RETURNING id
        )
        SELECT video_id FROM removed`,
  );
  if (!video.public && removed.length === 0) throw new ApiError(404, VIDEO_NOT_FOUND);
  if (removed.length > 0) purgePlaylistPage(publicId);
  return { inPlaylist: false, videoCount: await publicVideoCount(db, playlist.id) };
}

/**
 * Puts one of the caller's playlists in a new order: the ids it lists first,
 * in that order; any video it does not list (one hidden meanwhile, or added
 * by another tab since the list was read) after them, in its old order. One
 * statement renumbers every row 1…n, so concurrent reorders and adds never
 * leave two orders mixed; ids the playlist does not hold are ignored.
 */
export async function reorderPlaylist(actor: Actor, publicId: string, streamVideoIds: string[]): Promise<PlaylistDto> {
  const db = await getDb();
  const playlist = await ownPlaylist(db, actor, publicId);
  const wanted = streamVideoIds.length
    ? sql`ARRAY[${sql.join(
        streamVideoIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]`
    : sql`ARRAY[]::text[]`;
  await queryRows(
    db,
    sql`WITH wanted AS (
          SELECT v.id AS video_id, o.rank FROM unnest(${wanted}) WITH ORDINALITY AS o(stream_video_id, rank)
          JOIN videos v ON v.stream_video_id = o.stream_video_id
        ), ranked AS (
          SELECT i.video_id, row_number() OVER (ORDER BY w.rank NULLS LAST, i.position, i.added_at, i.video_id) AS position
          FROM playlist_items i LEFT JOIN wanted w ON w.video_id = i.video_id
          WHERE i.playlist_id = ${playlist.id}
        ), renumbered AS (
          UPDATE playlist_items i SET position = ranked.position
          FROM ranked WHERE i.playlist_id = ${playlist.id} AND i.video_id = ranked.video_id
          RETURNING 1
        )
        UPDATE playlists SET updated_at = now() WHERE id = ${playlist.id}`,
  );
  purgePlaylistPage(publicId);
  return getPlaylist(actor, publicId);
}
