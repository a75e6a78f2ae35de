import 'server-only';

import { connection } from 'next/server';
import { cache } from 'react';

import type { CaptionTrackDto, CommentPageDto, VideoDto } from '@/lib/api-types';

import { commentPage } from '../community/comments';

import { captionTracks } from './captions';
import { findVideoRow, isPublicRow, listCategoryVideos } from './catalog';
import { playbackOf, toVideoDto } from './dto';
import { logger } from '@/lib/server/log';

const log = logger('pages');

export interface VideoPageData {
  video: VideoDto;
  playback: { mp4Url: string | null; hlsUrl: string | null };
  /** The player's caption tracks (decision 051). */
  captions: CaptionTrackDto[];
  /** The first page of comments as a visitor sees it (the page is the same for everyone); null if it could not be read. */
  comments: CommentPageDto | null;
}

/**
 * A public video for its page, or null (unknown, unpublished and hidden
 * videos are all 404s to the page, which is cached for everyone; owners
 * preview their own through the API instead). Memoised per request, so
 * metadata and page share one query.
 */
export const loadVideoPage = cache(async (streamVideoId: string): Promise<VideoPageData | null> => {
  await connection();
  const row = await findVideoRow(streamVideoId);
  if (!row || !isPublicRow(row)) return null;
  const [captions, comments] = await Promise.all([captionTracks(row.id, row.stream_video_id), firstComments(row.id)]);
  return { video: toVideoDto(row), playback: playbackOf(row) ?? { mp4Url: null, hlsUrl: null }, captions, comments };
});

/** A failure to read comments must not take the video page down: the client asks the API instead. */
async function firstComments(videoId: string): Promise<CommentPageDto | null> {
  try {
    return await commentPage(videoId);
  } catch (error) {
    log.error({ err: error }, 'could not load comments');
    return null;
  }
}

/** More from the same category, for the side column. */
export async function loadMoreLikeThis(video: VideoDto): Promise<VideoDto[]> {
  try {
    const { videos } = await listCategoryVideos(video.category, { limit: 9, page: 1 });
    return videos.filter((other) => other._id !== video._id).slice(0, 8);
  } catch (error) {
    log.error({ err: error }, 'could not load related videos');
    return [];
  }
}
