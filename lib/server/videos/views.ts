import 'server-only';

import { createHmac } from 'node:crypto';

import { sql } from 'drizzle-orm';

import { getSessionSecret } from '@/lib/config/server';
import { getDb, queryRows } from '@/lib/db';
import { addressNetwork } from '@/lib/front/resolve-client-address';

import { memberOf, type Actor } from '../auth/actor';
import { ApiError } from '../errors';

import { VIDEO_NOT_FOUND } from './access';
import { findVideoRow, isPublicRow } from './catalog';

/** A viewer counts once per video in this window: a reload, a replay or a second tab add nothing. */
export const VIEW_WINDOW_HOURS = 24;

/** Crawlers, link-preview fetchers and headless tools: their visits are not views. */
const BOT_USER_AGENT =
  /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|whatsapp|telegram|discord|skype|preview|headless|curl|wget|python-requests|httpclient|okhttp|go-http|node-fetch|axios/i;

export function isBot(userAgent: string | null): boolean {
  return !userAgent || BOT_USER_AGENT.test(userAgent);
}

/**
 * Who is viewing: the member, or for visitors a keyed hash of their address
 * (an IPv6 address's /64) alone. Not of the browser too: a client names any
 * User-Agent it likes, so a new one per request would be a new viewer, and
 * Top Videos ranks by views. Visitors sharing an address count once. No raw
 * addresses are stored, and the key makes the hash useless outside this site.
 */
export function viewerKeyOf(memberId: string | null, address: string): string {
  if (memberId) return `m:${memberId}`;
  const digest = createHmac('sha256', getSessionSecret())
    .update(`view\n${addressNetwork(address)}`)
    .digest('base64url');
  return `v:${digest.slice(0, 22)}`;
}

/**
 * Counts a view unless this viewer was counted within the window. One
 * statement: the upsert only touches an old row, and views only grow when
 * it did, so concurrent plays by one viewer count once.
 */
export async function countView(videoId: string, viewerKey: string): Promise<{ counted: boolean; views: number | null }> {
  const db = await getDb();
  const rows = await queryRows<{ views: number }>(
    db,
    sql`WITH counted AS (
          INSERT INTO video_views (video_id, viewer_key) VALUES (${videoId}, ${viewerKey})
          ON CONFLICT (video_id, viewer_key) DO UPDATE SET counted_at = now()
            WHERE video_views.counted_at < now() - make_interval(hours => ${VIEW_WINDOW_HOURS})
          RETURNING 1
        )
        UPDATE videos SET views = views + 1 WHERE id = ${videoId} AND EXISTS (SELECT 1 FROM counted) RETURNING views`,
  );
  return rows.length ? { counted: true, views: Number(rows[0]!.views) } : { counted: false, views: null };
}

/**
 * POST /api/videos/{streamVideoId}/view: the player started a public video.
 * Counted once per viewer (the member, else a hash of address and browser)
 * per window, never for bots; 404 unless the video is public.
 */
export async function recordView(
  actor: Actor,
  streamVideoId: string,
  client: { address: string; userAgent: string | null },
): Promise<{ counted: boolean; views: number }> {
  const row = await findVideoRow(streamVideoId);
  if (!row || !isPublicRow(row)) throw new ApiError(404, VIDEO_NOT_FOUND);
  if (isBot(client.userAgent)) return { counted: false, views: Number(row.views) };
  const result = await countView(row.id, viewerKeyOf(memberOf(actor)?.id ?? null, client.address));
  return { counted: result.counted, views: result.views ?? Number(row.views) };
}
