'use client';

import { useCallback, type ReactNode } from 'react';
import useSWRInfinite from 'swr/infinite';

import { useSession } from '@/components/session/SessionProvider';
import type { VideoListDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { VideoGrid } from './VideoGrid';

const LOAD_ERROR = 'Error loading videos. Please try again later.';
export const MEMBER_FEED_PAGE_SIZE = 12;

export interface MemberVideoFeedProps {
  /** The member's list endpoint, e.g. /api/users/me/liked-videos (paged by the cursor of each answer). */
  endpoint: string;
  /** This page's path, for the login link. */
  path: string;
  icon: ReactNode;
  /** "Loading your liked videos…" */
  loadingText: string;
  loginText: string;
  emptyText: string;
  emptyHint: string;
  gridLabel: string;
}

/** A member's own list of videos (liked, watch later), newest first; the next page loads when the end of the grid comes into view. */
export function MemberVideoFeed({
  endpoint,
  path,
  icon,
  loadingText,
  loginText,
  emptyText,
  emptyHint,
  gridLabel,
}: MemberVideoFeedProps) {
  const { loading, user } = useSession();
  const memberId = user?._id ?? null;
  // Keys per member and cursor: another login on this browser never sees the last member's list.
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<
    VideoListDto,
    Error,
    (index: number, previous: VideoListDto | null) => readonly [string, string, string | null] | null
  >(
    (index, previous) => {
      if (!memberId) return null;
      if (previous && !previous.pagination.hasMore) return null;
      return [endpoint, memberId, previous?.pagination.nextCursor ?? null];
    },
    ([url, , cursor]) =>
      apiRequest<VideoListDto>(`${url}?limit=${MEMBER_FEED_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
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
        {loadingText}
      </p>
    );
  }
  if (!user) {
    return (
      <div className="empty-state">
        {icon}
        <p>{loginText}</p>
        <a className="btn btn-primary" href={`/login?next=${encodeURIComponent(path)}`}>
          Log in
        </a>
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
        {icon}
        <p>{emptyText}</p>
        <span>{emptyHint}</span>
        <a className="btn btn-primary" href="/">
          Find videos on the home page
        </a>
      </div>
    );
  }
  return (
    <VideoGrid
      videos={videos}
      label={gridLabel}
      priorityCount={4}
      loading={loadingMore}
      error={error ? LOAD_ERROR : null}
      loadMore={hasMore ? more : null}
      onRetry={retry}
    />
  );
}
