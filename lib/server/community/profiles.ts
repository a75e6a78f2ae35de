import 'server-only';

import { eq, sql, type SQL } from 'drizzle-orm';
import { cache } from 'react';

import type { CreatorSuggestionDto, ProfileDto, VideoListDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { currentStreak } from '@/lib/format/daily-task';
import { users, type User } from '@/lib/db/schema';
import { PROFILE_MESSAGES, PROFILE_USERNAME_PATTERN, type ProfileSettingsInput } from '@/lib/validation/community';

import { requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest } from '../errors';
import { consume, tooOften } from '../rate-limit';
import { PUBLIC, VIDEO_COLUMNS } from '../videos/catalog';
import { toVideoDto, type VideoRow } from '../videos/dto';
import { isExactCursorTime } from '../cursor-time';

export type Member = Pick<User, 'id'>;

export interface NamedMember {
  id: string;
  username: string;
  profile_photo_key: string | null;
}

/**
 * A member by username, case-insensitively (the unique index is on
 * lower(username)); null for a name that cannot exist, an unknown one, or a
 * banned account (banned members leave every public place, their profile too).
 */
export async function findMemberByUsername(db: Database, username: string): Promise<NamedMember | null> {
  if (!PROFILE_USERNAME_PATTERN.test(username)) return null;
  const [row] = await queryRows<NamedMember>(
    db,
    sql`SELECT id, username, profile_photo_key FROM users WHERE lower(username) = ${username.toLowerCase()} AND banned_at IS NULL LIMIT 1`,
  );
  return row ?? null;
}

export async function requireMemberByUsername(db: Database, username: string): Promise<NamedMember> {
  const member = await findMemberByUsername(db, username);
  if (!member) throw new ApiError(404, PROFILE_MESSAGES.notFound);
  return member;
}

export const avatarUrl = (key: string | null, size: 256 | 64 = 256) => (key ? `/media/avatars/${key}-${size}.webp` : null);

interface ProfileRow {
  id: string;
  username: string;
  bio: string;
  profile_photo_key: string | null;
  created_at: Date | string;
  tasks: number | string;
  task_streak: number | string;
  last_task_completed: Date | string | null;
  videos: number | string;
  likes_received: number | string;
  followers: number | string;
  following: number | string;
  is_following: boolean;
}

/**
 * A member's profile as the caller sees it (members only: 401 / 403 for
 * anyone else), or null (unknown or banned). One statement: the public-video count and likes come from the partial index
 * videos_public_owner_idx, the follow counts from the follows primary key
 * and follows_followee_idx.
 */
export async function getProfile(actor: Actor, username: string): Promise<ProfileDto | null> {
  const viewer: Member = requireMember(actor).user;
  if (!PROFILE_USERNAME_PATTERN.test(username)) return null;
  const db = await getDb();
  const [row] = await queryRows<ProfileRow>(
    db,
    sql`SELECT u.id, u.username, u.bio, u.profile_photo_key, u.created_at, u.tasks, u.task_streak, u.last_task_completed,
               pv.videos, pv.likes_received,
               (SELECT count(*) FROM follows f WHERE f.followee_id = u.id) AS followers,
               (SELECT count(*) FROM follows f WHERE f.follower_id = u.id) AS following,
               EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer.id} AND f.followee_id = u.id) AS is_following
        FROM users u
        CROSS JOIN LATERAL (
          SELECT count(*) AS videos, coalesce(sum(v.likes_count), 0) AS likes_received
          FROM videos v WHERE v.owner_id = u.id AND ${PUBLIC}
        ) pv
        WHERE lower(u.username) = ${username.toLowerCase()} AND u.banned_at IS NULL
        LIMIT 1`,
  );
  if (!row) return null;
  return {
    _id: row.id,
    username: row.username,
    bio: row.bio,
    profilePhotoUrl: avatarUrl(row.profile_photo_key),
    createdAt: new Date(row.created_at).toISOString(),
    counts: {
      videos: Number(row.videos),
      followers: Number(row.followers),
      following: Number(row.following),
      likesReceived: Number(row.likes_received),
    },
    rewards: { tasks: Number(row.tasks), streak: currentStreak(Number(row.task_streak), row.last_task_completed) },
    isFollowing: Boolean(row.is_following),
    isSelf: row.id === viewer.id,
  };
}

/** GET /api/users/{username}: the profile for a member, or 404. */
export async function requireProfile(actor: Actor, username: string): Promise<{ user: ProfileDto }> {
  const profile = await getProfile(actor, username);
  if (!profile) throw new ApiError(404, PROFILE_MESSAGES.notFound);
  return { user: profile };
}

// ---------- Lists of public videos, newest first, by cursor ----------

export interface ListRequest {
  limit: number;
  page?: number;
  cursor?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURSOR_INVALID = 'The cursor is not valid. Start again from page 1.';

/** published_at as exact UTC text (microseconds), so a cursor compares equal to the stored value. */
export const PUBLISHED_KEY = sql`to_char(v.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_key`;

export type KeyedVideoRow = VideoRow & { published_key: string };

function encodeCursor(row: KeyedVideoRow): string {
  return Buffer.from(`${row.published_key}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || extra !== undefined || !isExactCursorTime(at) || !UUID.test(id)) throw badRequest(CURSOR_INVALID);
  return { at, id };
}

/** The condition "after the cursor's card" (for any alias of videos, default v), and the offset to use. */
export function pagePosition(request: ListRequest): { after: SQL; offset: number; page: number } {
  const page = request.page ?? 1;
  if (!request.cursor) return { after: sql``, offset: (page - 1) * request.limit, page };
  const { at, id } = decodeCursor(request.cursor);
  return { after: sql` AND (v.published_at, v.id) < (${at}::timestamptz, ${id}::uuid)`, offset: 0, page };
}

/** Rows fetched one past the limit become a page with hasMore and the next cursor. */
export function toPage(rows: KeyedVideoRow[], request: ListRequest, page: number): VideoListDto {
  const hasMore = rows.length > request.limit;
  const shown = rows.slice(0, request.limit);
  const last = shown[shown.length - 1];
  return {
    videos: shown.map(toVideoDto),
    pagination: { page, limit: request.limit, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null },
  };
}

/** A creator's public videos, newest first: a range of videos_public_owner_idx. */
export async function listMemberVideos(ownerId: string, request: ListRequest): Promise<VideoListDto> {
  const db = await getDb();
  const { after, offset, page } = pagePosition(request);
  const rows = await queryRows<KeyedVideoRow>(
    db,
    sql`SELECT ${VIDEO_COLUMNS}, ${PUBLISHED_KEY}
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE v.owner_id = ${ownerId} AND ${PUBLIC}${after}
        ORDER BY v.published_at DESC NULLS LAST, v.id DESC NULLS LAST
        LIMIT ${request.limit + 1} OFFSET ${offset}`,
  );
  return toPage(rows, request, page);
}

/** GET /api/users/{username}/videos: profiles, and so their video lists, are for members only. */
export async function listProfileVideos(actor: Actor, username: string, request: ListRequest): Promise<VideoListDto> {
  requireMember(actor);
  const member = await requireMemberByUsername(await getDb(), username);
  return listMemberVideos(member.id, request);
}

// ---------- Bio ----------

/** PUT /api/users/settings/profile: the caller's own bio, stored as the plain text it is. */
export async function updateProfile(actor: Actor, input: ProfileSettingsInput): Promise<{ success: true; bio: string }> {
  const { user } = requireMember(actor);
  await consume('profileEditsPerMember', user.id, tooOften('edited your profile'));
  const db = await getDb();
  await db
    .update(users)
    .set({ bio: input.bio, updatedAt: sql`now()` })
    .where(eq(users.id, user.id));
  return { success: true, bio: input.bio };
}

// ---------- Creators to follow ----------

/**
 * A few creators for someone who follows nobody yet: the uploaders of the
 * current top videos (the same ranking and index as Top Videos), without
 * the caller and whoever they already follow.
 */
export async function suggestCreators(actor: Actor, limit = 6): Promise<CreatorSuggestionDto[]> {
  const viewer: Member = requireMember(actor).user;
  const db = await getDb();
  const rows = await queryRows<{
    id: string;
    username: string;
    profile_photo_key: string | null;
    videos: number | string;
    followers: number | string;
  }>(
    db,
    sql`WITH top AS (
          SELECT t.owner_id, row_number() OVER (ORDER BY t.score DESC, t.published_at DESC NULLS LAST, t.id DESC NULLS LAST) AS rank
          FROM (SELECT v.owner_id, v.id, v.published_at, (v.views + 10 * v.likes_count) AS score FROM videos v WHERE ${PUBLIC}
                ORDER BY (v.views + 10 * v.likes_count) DESC, v.published_at DESC NULLS LAST, v.id DESC NULLS LAST
                LIMIT 60) t
        ), picked AS (
          SELECT owner_id, min(rank) AS best FROM top
          WHERE owner_id <> ${viewer.id}
            AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewer.id} AND f.followee_id = top.owner_id)
          GROUP BY owner_id
          ORDER BY best
          LIMIT ${limit}
        )
        SELECT u.id, u.username, u.profile_photo_key,
               (SELECT count(*) FROM videos v WHERE v.owner_id = u.id AND ${PUBLIC}) AS videos,
               (SELECT count(*) FROM follows f WHERE f.followee_id = u.id) AS followers
        FROM picked p JOIN users u ON u.id = p.owner_id
        WHERE u.banned_at IS NULL
        ORDER BY p.best`,
  );
  return rows.map((row) => ({
    _id: row.id,
    username: row.username,
    profilePhotoUrl: avatarUrl(row.profile_photo_key),
    videos: Number(row.videos),
    followers: Number(row.followers),
  }));
}

// ---------- Member pages ----------

/** A URL segment decoded, or null when its escapes are malformed. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The profile for its page, memoised per request (layout, metadata and page
 * pass the same pageActor()). Members only, like getProfile.
 */
export const loadProfilePage = cache(async (actor: Actor, username: string) => getProfile(actor, username));
