import 'server-only';

import { sql } from 'drizzle-orm';
import { cache } from 'react';

import type { PlaylistDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { PLAYLIST_ID_PATTERN } from '@/lib/playlists';

import { VISITOR } from '../auth/actor';
import { ApiError } from '../errors';
import { PUBLIC } from '../videos/catalog';

import { getPlaylist } from './index';

/**
 * What the playlist page, the sitemap and the data export read. The page is
 * rendered as a visitor sees it (it is in the public page cache, the same
 * HTML for everyone): private playlists are a 404 there, and their owner's
 * browser fetches them from the API instead.
 */

/** A public or unlisted playlist as a visitor sees it, or null (no such id, private, owner banned). Once per request. */
export const loadVisitorPlaylist = cache(async (publicId: string): Promise<PlaylistDto | null> => {
  if (!PLAYLIST_ID_PATTERN.test(publicId)) return null;
  try {
    return await getPlaylist(VISITOR, publicId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
});

/** Public playlists worth a sitemap entry (at least one public video, owner not banned), last changed first. */
export async function listPublicPlaylists(limit: number): Promise<{ publicId: string; updatedAt: string }[]> {
  const db = await getDb();
  const rows = await queryRows<{ public_id: string; updated_at: Date | string }>(
    db,
    sql`SELECT p.public_id, p.updated_at FROM playlists p JOIN users u ON u.id = p.owner_id
        WHERE p.visibility = 'public' AND u.banned_at IS NULL
          AND EXISTS (SELECT 1 FROM playlist_items i JOIN videos v ON v.id = i.video_id WHERE i.playlist_id = p.id AND ${PUBLIC})
        ORDER BY p.updated_at DESC, p.id DESC
        LIMIT ${limit}`,
  );
  return rows.map((row) => ({ publicId: row.public_id, updatedAt: new Date(row.updated_at).toISOString() }));
}

/** A member's playlists for their data export: every one, with every video it holds (public now or not) by public id. */
export async function playlistsForExport(db: Database, userId: string, videoUrl: (streamVideoId: string) => string) {
  const rows = await queryRows<{
    public_id: string;
    title: string;
    description: string;
    visibility: string;
    created_at: Date | string;
    updated_at: Date | string;
    videos: { streamVideoId: string; addedAt: string }[] | null;
  }>(
    db,
    sql`SELECT p.public_id, p.title, p.description, p.visibility, p.created_at, p.updated_at,
          (SELECT json_agg(json_build_object('streamVideoId', v.stream_video_id, 'addedAt', i.added_at)
                           ORDER BY i.position, i.added_at, i.video_id)
           FROM playlist_items i JOIN videos v ON v.id = i.video_id WHERE i.playlist_id = p.id) AS videos
        FROM playlists p WHERE p.owner_id = ${userId}
        ORDER BY p.created_at, p.id`,
  );
  const iso = (value: Date | string) => new Date(value).toISOString();
  return rows.map((row) => ({
    id: row.public_id,
    title: row.title,
    description: row.description,
    visibility: row.visibility,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    videos: (row.videos ?? []).map((video) => ({
      streamVideoId: video.streamVideoId,
      url: videoUrl(video.streamVideoId),
      addedAt: iso(video.addedAt),
    })),
  }));
}
