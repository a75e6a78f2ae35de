import 'server-only';

import type { NextRequest } from 'next/server';

import type { OwnVideoDto, VideoDto } from '@/lib/api-types';

import { findSession, type Authenticated } from '../auth/session';
import { ApiError } from '../errors';

import { findVideoRow, isPublicRow } from './catalog';
import { toOwnVideoDto, toVideoDto, type VideoRow } from './dto';

export const VIDEO_NOT_FOUND = 'Video not found';

type FoundRow = VideoRow & { owner_banned: boolean };

/** Owners and admins see a video in every state (to follow its processing and review); everyone else only when public. */
export function canSee(row: FoundRow, auth: Pick<Authenticated, 'user'> | null): boolean {
  if (isPublicRow(row)) return true;
  if (!auth || auth.user.bannedAt) return false;
  return auth.user.isAdmin || auth.user.id === row.owner_id;
}

/** A video for whoever asks: the public shape for visitors, with status for its owner and admins; 404 when they may not see it. */
export async function getVideoFor(streamVideoId: string, auth: Pick<Authenticated, 'user'> | null): Promise<VideoDto | OwnVideoDto> {
  const row = await findVideoRow(streamVideoId);
  if (!row || !canSee(row, auth)) throw new ApiError(404, VIDEO_NOT_FOUND);
  const privileged = auth && (auth.user.isAdmin || auth.user.id === row.owner_id);
  return privileged ? toOwnVideoDto(row) : toVideoDto(row);
}

/** For routes that serve media: the row if this request may see it. Sessions are optional here. */
export async function findViewableVideo(request: NextRequest, streamVideoId: string): Promise<{ row: FoundRow; isPublic: boolean } | null> {
  const row = await findVideoRow(streamVideoId);
  if (!row) return null;
  if (isPublicRow(row)) return { row, isPublic: true };
  const auth = await findSession(request);
  return canSee(row, auth) ? { row, isPublic: false } : null;
}
