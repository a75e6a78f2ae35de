'use client';

import { useCallback, type ReactNode } from 'react';
import useSWRInfinite from 'swr/infinite';

import { useSession } from '@/components/session/SessionProvider';
import type { VideoListDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { VideoGrid } from './VideoGrid';

const LOAD_ERROR = 'Error loading videos. Please try again later.';
export const MEMBER_FEED_PAGE_SIZE = 12;

/** What a list's own controls (history's pause and clear, a card's remove) get: the pages so far and a reload. */
export interface MemberListControls<T extends VideoListDto> {
  pages: T[] | undefined;
  reload: () => Promise<unknown>;
}

export interface MemberVideoFeedProps<T extends VideoListDto = VideoListDto> {
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
  /** Controls above the list, shown once the member's first page has loaded (empty or not). */
  toolbar?: (controls: MemberListControls<T>) => ReactNode;
  /** More for each card (history's progress bar and remove button). */
  extras?: (video: T['videos'][number], controls: MemberListControls<T>) => ReactNode;
}

/** A member's own list of videos (liked, watch later), newest first; the next page loads when the end of the grid comes into view. */
export function MemberVideoFeed<T extends VideoListDto = VideoListDto>({
  endpoint,
  path,
  icon,
  loadingText,
  loginText,
  emptyText,
  emptyHint,
  gridLabel,
  toolbar,
  extras,
}: MemberVideoFeedProps<T>) {
  const { loading, user } = useSession();
  const memberId = user?._id ?? null;
  // Keys per member and cursor: another login on this browser never sees the last member's list.
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<
    T,
    Error,
    (index: number, previous: T | null) => readonly [string, string, string | null] | null
  >(
    (index, previous) => {
      if (!memberId) return null;
      if (previous && !previous.pagination.hasMore) return null;
      return [endpoint, memberId, previous?.pagination.nextCursor ?? null];
    },
    ([url, , cursor]) =>
      apiRequest<T>(`${url}?limit=${MEMBER_FEED_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  const videos = data?.flatMap((page) => page.videos) ?? [];
  const hasMore = data?.at(-1)?.pagination.hasMore ?? false;
  const loadingMore = size > 0 && data !== undefined && typeof data[size - 1] === 'undefined';

  const more = useCallback(() => void setSize((current) => current + 1), [setSize]);
  const retry = useCallback(() => void mutate(), [mutate]);
  const controls: MemberListControls<T> = { pages: data, reload: mutate };

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
  const bar = toolbar?.(controls);
  if (videos.length === 0) {
    return (
      <>
        {bar}
        <div className="empty-state">
          {icon}
          <p>{emptyText}</p>
          <span>{emptyHint}</span>
          <a className="btn btn-primary" href="/">
            Find videos on the home page
          </a>
        </div>
      </>
    );
  }
  return (
    <>
      {bar}
      <VideoGrid
        videos={videos}
        label={gridLabel}
        priorityCount={4}
        loading={loadingMore}
        error={error ? LOAD_ERROR : null}
        loadMore={hasMore ? more : null}
        onRetry={retry}
        extras={extras && ((video) => extras(video as T['videos'][number], controls))}
      />
    </>
  );
}
