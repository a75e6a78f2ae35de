import 'server-only';

import type { OwnVideoDto, VideoDto } from '@/lib/api-types';

import { isAdmin, memberOf, type Actor } from '../auth/actor';
import { ApiError } from '../errors';

import { findVideoRow, isPublicRow } from './catalog';
import { toOwnVideoDto, toVideoDto, type VideoRow } from './dto';

export const VIDEO_NOT_FOUND = 'Video not found';

type FoundRow = VideoRow & { owner_banned: boolean };

/** Whether the caller is the video's owner or an admin (never a visitor or a banned member). */
function isPrivileged(row: FoundRow, actor: Actor): boolean {
  const member = memberOf(actor);
  return member !== null && (isAdmin(actor) || member.id === row.owner_id);
}

/** Owners and admins see a video in every state (to follow its processing and review); everyone else only when public. */
export function canSee(row: FoundRow, actor: Actor): boolean {
  return isPublicRow(row) || isPrivileged(row, actor);
}

/** A video for whoever asks: the public shape for visitors, with status for its owner and admins; 404 when they may not see it. */
export async function getVideoFor(actor: Actor, streamVideoId: string): Promise<VideoDto | OwnVideoDto> {
  const row = await findVideoRow(streamVideoId);
  if (!row || !canSee(row, actor)) throw new ApiError(404, VIDEO_NOT_FOUND);
  return isPrivileged(row, actor) ? toOwnVideoDto(row) : toVideoDto(row);
}

/**
 * For routes that serve media: the row if the caller may see it. The caller
 * is resolved only for a video that is not public, so public media (every
 * HLS segment) costs no session lookup.
 */
export async function findViewableVideo(
  caller: () => Promise<Actor>,
  streamVideoId: string,
): Promise<{ row: FoundRow; isPublic: boolean } | null> {
  const row = await findVideoRow(streamVideoId);
  if (!row) return null;
  if (isPublicRow(row)) return { row, isPublic: true };
  return canSee(row, await caller()) ? { row, isPublic: false } : null;
}
