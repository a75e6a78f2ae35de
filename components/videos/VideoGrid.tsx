'use client';

import { useEffect, useRef, type ReactNode } from 'react';

import type { VideoDto } from '@/lib/api-types';

import { cardLoading, VideoCard } from './VideoCard';

interface VideoGridProps {
  videos: VideoDto[];
  label: string;
  priorityCount?: number;
  loading: boolean;
  error: string | null;
  /** Loads the next page; called when the last card comes near the screen. Null when there is nothing more (or the list is fixed). */
  loadMore: (() => void) | null;
  onRetry: () => void;
  /** More for each card, after it (history's progress bar and remove button). */
  extras?: (video: VideoDto) => ReactNode;
  /** Extra controls under the status line (a "Show more" button). */
  children?: ReactNode;
}

/**
 * The card grid of every video list, with its live status line: the next
 * page is asked for when the last card is within 400 px of the screen and
 * nothing is loading or failed (spec section 4: the home feed's infinite
 * scroll), and a failure offers Try again.
 */
export function VideoGrid({
  videos,
  label,
  priorityCount = 0,
  loading,
  error,
  loadMore,
  onRetry,
  extras,
  children,
}: VideoGridProps) {
  const lastCard = useRef<HTMLLIElement | null>(null);

  useEffect(() => {
    const target = lastCard.current;
    if (!loadMore || !target || loading || error || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          loadMore();
        }
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [loadMore, loading, error, videos.length]);

  return (
    <>
      <ul className="video-grid" aria-label={label} aria-busy={loading}>
        {videos.map((video, index) => (
          <li key={video._id} ref={index === videos.length - 1 ? lastCard : undefined}>
            <VideoCard video={video} loading={cardLoading(index, priorityCount)} />
            {extras?.(video)}
          </li>
        ))}
      </ul>
      <div className="feed-status" aria-live="polite">
        {loading && <span className="feed-loading">Loading more videos…</span>}
        {error && (
          <p className="form-error" role="alert">
            {error}{' '}
            <button type="button" className="btn btn-quiet btn-small" onClick={onRetry}>
              Try again
            </button>
          </p>
        )}
        {children}
      </div>
    </>
  );
}
