'use client';

import Link from 'next/link';
import { useCallback } from 'react';
import useSWRInfinite from 'swr/infinite';

import { HeartIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import { VideoGrid } from '@/components/videos/VideoGrid';
import type { VideoListDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/http';

export const LIKED_PAGE_SIZE = 12;
export const LIKED_EMPTY_TEXT = 'You have not liked any videos yet.';
const LOAD_ERROR = 'Error loading videos. Please try again later.';

/** Keys per member and cursor: another login on this browser never sees the last member's list. */
type LikedKey = readonly ['liked-videos', string, string | null];

const fetchPage = ([, , cursor]: LikedKey) =>
  apiRequest<VideoListDto>(`/api/users/me/liked-videos?limit=${LIKED_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);

/** The member's liked videos, newest like first; the next page loads when the end of the grid comes into view. */
export function LikedVideosFeed() {
  const { loading, user } = useSession();
  const memberId = user?._id ?? null;
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<VideoListDto, Error, (index: number, previous: VideoListDto | null) => LikedKey | null>(
    (index, previous) => {
      if (!memberId) return null;
      if (previous && !previous.pagination.hasMore) return null;
      return ['liked-videos', memberId, previous?.pagination.nextCursor ?? null];
    },
    fetchPage,
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  const videos = data?.flatMap((page) => page.videos) ?? [];
  const hasMore = data?.at(-1)?.pagination.hasMore ?? false;
  const loadingMore = size > 0 && data !== undefined && typeof data[size - 1] === 'undefined';

  const more = useCallback(() => void setSize((current) => current + 1), [setSize]);
  const retry = useCallback(() => void mutate(), [mutate]);

  if (loading || (user && isLoading)) {
    return (
      <p className="liked-note" role="status">
        Loading your liked videos…
      </p>
    );
  }
  if (!user) {
    return (
      <div className="empty-state">
        <HeartIcon size={40} />
        <p>Log in to see the videos you liked.</p>
        <Link className="btn btn-primary" href="/login?next=%2Fliked-videos">
          Log in
        </Link>
      </div>
    );
  }
  if (error && !data?.length) {
    return (
      <div className="empty-state" role="alert">
        <p>{error.message || LOAD_ERROR}</p>
        <button type="button" className="btn btn-ghost" onClick={() => void mutate()} disabled={isValidating}>
          Try again
        </button>
      </div>
    );
  }
  if (videos.length === 0) {
    return (
      <div className="empty-state">
        <HeartIcon size={40} />
        <p>{LIKED_EMPTY_TEXT}</p>
        <span>Tap the heart on a video you enjoy and it will be kept here.</span>
        <Link className="btn btn-primary" href="/">
          Find videos on the home page
        </Link>
      </div>
    );
  }
  return (
    <VideoGrid
      videos={videos}
      label="Your liked videos"
      priorityCount={4}
      loading={loadingMore}
      error={error ? LOAD_ERROR : null}
      loadMore={hasMore ? more : null}
      onRetry={retry}
    />
  );
}
