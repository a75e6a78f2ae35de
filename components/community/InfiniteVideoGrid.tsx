'use client';

import { useCallback, useRef, useState } from 'react';

import { VideoGrid } from '@/components/videos/VideoGrid';
import type { VideoDto, VideoListDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { isVideoList, VIDEO_ERRORS } from '@/lib/client/video-cache';

interface InfiniteVideoGridProps {
  /** The first page, rendered by the server. */
  initial: VideoListDto;
  /** The list endpoint with its fixed query, e.g. `/api/feed/following?limit=12`; page and cursor are added. */
  listUrl: string;
  label: string;
  priorityCount?: number;
}

function mergeUnique(first: VideoDto[], second: VideoDto[]): VideoDto[] {
  const seen = new Set(first.map((video) => video._id));
  return [...first, ...second.filter((video) => !seen.has(video._id))];
}

/**
 * A member's list of videos (a profile, the following feed): the server's
 * first page, then the next one whenever the last card comes near the
 * screen and hasMore is true, by cursor so new uploads never shift it. No
 * local-storage cache: these lists are per member. A "Show more" button
 * does the same for keyboards and when the observer cannot.
 */
export function InfiniteVideoGrid({ initial, listUrl, label, priorityCount = 4 }: InfiniteVideoGridProps) {
  const [videos, setVideos] = useState<VideoDto[]>(initial.videos);
  const [hasMore, setHasMore] = useState(initial.pagination.hasMore);
  const [cursor, setCursor] = useState<string | null>(initial.pagination.nextCursor);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const loadMore = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    setError(null);
    try {
      const separator = listUrl.includes('?') ? '&' : '?';
      const answer = await apiRequest<unknown>(
        `${listUrl}${separator}page=${page + 1}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (!isVideoList(answer)) {
        setError(VIDEO_ERRORS.format);
        return;
      }
      const list = answer as VideoListDto;
      setVideos((current) => mergeUnique(current, list.videos));
      setHasMore(Boolean(list.pagination?.hasMore));
      setCursor(list.pagination?.nextCursor ?? null);
      setPage((current) => current + 1);
    } catch {
      setError(VIDEO_ERRORS.loading);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, [listUrl, page, cursor]);

  const more = useCallback(() => void loadMore(), [loadMore]);
  return (
    <VideoGrid
      videos={videos}
      label={label}
      priorityCount={priorityCount}
      loading={loading}
      error={error}
      loadMore={hasMore ? more : null}
      onRetry={more}
    >
      {!loading && !error && hasMore && (
        <button type="button" className="btn btn-ghost" onClick={more}>
          Show more videos
        </button>
      )}
    </VideoGrid>
  );
}
