'use client';

import { useCallback, useEffect, useState } from 'react';

import type { VideoDto, VideoListDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { isVideoList, readVideoCache, VIDEO_ERRORS, writeVideoCache } from '@/lib/client/video-cache';

import { NoVideos } from './NoVideos';
import { VideoGrid } from './VideoGrid';

interface FeedProps {
  /** What the server rendered; null when the server could not load it (then the cache and the API take over). */
  initial: { videos: VideoDto[]; hasMore: boolean } | null;
  /** The local-storage cache key (after the fixed prefix). */
  cacheKey: string;
  /** The list endpoint with its fixed query, e.g. `/api/videos?limit=12`; page (and cursor) are added. */
  listUrl: string;
  pageSize: number;
  label: string;
  /** Load the next page when the last card becomes visible (Recent Uploads); off for fixed lists (Top Videos). */
  infinite?: boolean;
  emptyMessage?: string;
  priorityCount?: number;
}

/** Page numbers as the spec's API takes them, plus the cursor when we have one (deep pages stay fast). */
function withPage(listUrl: string, page: number, cursor: string | null): string {
  const separator = listUrl.includes('?') ? '&' : '?';
  return `${listUrl}${separator}page=${page}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
}

function mergeUnique(first: VideoDto[], second: VideoDto[]): VideoDto[] {
  const seen = new Set(first.map((video) => video._id));
  return [...first, ...second.filter((video) => !seen.has(video._id))];
}

/**
 * A server-rendered list of videos that keeps itself in the spec's
 * local-storage cache. When a visitor comes back (back button, a new tab
 * within 5 minutes), the cached list, with every page they had scrolled
 * through, is shown first, led by the fresh first page from the server; if
 * the server could not load the list, the cache is shown and the API asked.
 * With `infinite`, the next page loads when the last card becomes visible
 * and hasMore is true.
 */
export function VideoFeed({
  initial,
  cacheKey,
  listUrl,
  pageSize,
  label,
  infinite = false,
  emptyMessage,
  priorityCount = 0,
}: FeedProps) {
  const [videos, setVideos] = useState<VideoDto[]>(initial?.videos ?? []);
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? true);
  const [page, setPage] = useState(1);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [settled, setSettled] = useState(initial !== null);

  const loadPage = useCallback(
    async (next: number, after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        const answer = await apiRequest<unknown>(withPage(listUrl, next, after));
        if (!isVideoList(answer)) {
          setError(VIDEO_ERRORS.format);
          return;
        }
        const list = answer as VideoListDto;
        setVideos((current) => (next === 1 ? mergeUnique(list.videos, current) : mergeUnique(current, list.videos)));
        setHasMore(infinite ? Boolean(list.pagination?.hasMore) : false);
        setCursor(list.pagination?.nextCursor ?? null);
        setPage(next);
      } catch {
        setError(VIDEO_ERRORS.loading);
      } finally {
        setLoading(false);
        setSettled(true);
      }
    },
    [listUrl, infinite],
  );

  // Once, after hydration: bring back what the cache holds (the server's fresh page leads). Local storage
  // cannot be read during render without the first client render differing from the server HTML.
  /* eslint-disable react-hooks/set-state-in-effect -- a one-time sync from an external store (local storage) */
  useEffect(() => {
    const cached = readVideoCache(cacheKey);
    const restore = (list: VideoDto[], pages: number) => {
      setVideos(list);
      setPage(pages);
      setHasMore(true);
    };
    if (initial === null) {
      if (cached) restore(cached.videos, 0);
      void loadPage(1, null);
    } else if (infinite && cached && cached.videos.length > initial.videos.length) {
      const merged = mergeUnique(initial.videos, cached.videos);
      restore(merged, Math.ceil(merged.length / pageSize));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per mount by design
  }, []);
  /* eslint-enable react-hooks/set-state-in-effect */

  useEffect(() => {
    if (settled && videos.length) writeVideoCache(cacheKey, videos);
  }, [cacheKey, settled, videos]);

  const next = useCallback(() => void loadPage(page + 1, cursor), [loadPage, page, cursor]);
  const retry = useCallback(() => void loadPage(videos.length ? page + 1 : 1, cursor), [loadPage, videos.length, page, cursor]);

  if (settled && !loading && !error && videos.length === 0) return <NoVideos message={emptyMessage} />;

  return (
    <VideoGrid
      videos={videos}
      label={label}
      priorityCount={priorityCount}
      loading={loading}
      error={error}
      loadMore={infinite && hasMore ? next : null}
      onRetry={retry}
    />
  );
}
