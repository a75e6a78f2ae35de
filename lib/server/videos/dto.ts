import 'server-only';

import type { OwnVideoDto, VideoDto, VideoPlayback } from '@/lib/api-types';

import { uploaderProcessingError } from '../media/messages';

/** The columns every video read selects (see catalog.ts); snake_case as raw SQL returns them. */
export interface VideoRow {
  id: string;
  stream_video_id: string;
  title: string;
  description: string;
  category: VideoDto['category'];
  tags: string[];
  thumbnail_key: string | null;
  thumbnail_version: string | null;
  web_mp4_key: string | null;
  hls_master_key: string | null;
  previews_version: string | null;
  views: number;
  liked_by: string[];
  duration_seconds: number | null;
  width: number | null;
  height: number | null;
  published_at: Date | string | null;
  created_at: Date | string;
  owner_id: string;
  owner_username: string;
  processing_state: OwnVideoDto['status'];
  moderation_status: OwnVideoDto['moderationStatus'];
  processing_error: string | null;
  rejection_reason: string | null;
  performers_declared_at: Date | string | null;
}

/** What OWN_VIDEO_COLUMNS adds: the owner's text edit waiting for review, as json_build_object writes it. */
export interface OwnVideoRow extends VideoRow {
  pending_edit: { editId: string; title: string; description: string; tags: string[]; proposedAt: string } | null;
}

export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** Media URLs are by public id; the media route maps them to storage keys and checks who may see them. */
export const mediaUrl = (streamVideoId: string, file: string) => `/media/videos/${streamVideoId}/${file}`;

export function playbackOf(row: Pick<VideoRow, 'stream_video_id' | 'web_mp4_key' | 'hls_master_key'>): VideoPlayback | null {
  if (!row.web_mp4_key && !row.hls_master_key) return null;
  return {
    mp4Url: row.web_mp4_key ? mediaUrl(row.stream_video_id, 'web.mp4') : null,
    hlsUrl: row.hls_master_key ? mediaUrl(row.stream_video_id, 'hls/master.m3u8') : null,
  };
}

export function toVideoDto(row: VideoRow): VideoDto {
  return {
    _id: row.id,
    streamVideoId: row.stream_video_id,
    title: row.title,
    description: row.description,
    category: row.category,
    tags: row.tags ?? [],
    thumbnailUrl: row.thumbnail_key ? mediaUrl(row.stream_video_id, 'thumbnail.jpg') : null,
    thumbnailVersion: row.thumbnail_key ? row.thumbnail_version : null,
    previewsVersion: row.previews_version,
    views: Number(row.views),
    likedBy: row.liked_by ?? [],
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    width: row.width,
    height: row.height,
    createdAt: iso(row.published_at ?? row.created_at),
    uploader: { _id: row.owner_id, username: row.owner_username },
  };
}

export function toOwnVideoDto(row: OwnVideoRow): OwnVideoDto {
  return {
    ...toVideoDto(row),
    status: row.processing_state,
    moderationStatus: row.moderation_status,
    // Fixed texts only, never a stored raw ffmpeg message (older rows): the detail is in the job's last_error.
    processingError: uploaderProcessingError(row.processing_error),
    rejectionReason: row.rejection_reason,
    playback: playbackOf(row),
    performerRecordsComplete: row.performers_declared_at !== null && row.performers_declared_at !== undefined,
    pendingEdit: row.pending_edit && {
      ...row.pending_edit,
      tags: row.pending_edit.tags ?? [],
      proposedAt: iso(row.pending_edit.proposedAt),
    },
  };
}
