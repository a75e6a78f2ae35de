import type { VideoDto } from '@/lib/api-types';

import { cardLoading, VideoCard, type CardIslands } from './VideoCard';
import { DeferredLikeButton, DeferredWatchLaterButton } from './deferred-card';

/** The buttons' code loads after the page's first load (decision 031); the cards themselves are plain HTML. */
const DEFERRED_ISLANDS: CardIslands = { LikeButton: DeferredLikeButton, WatchLaterButton: DeferredWatchLaterButton };

/** A server-rendered grid of cards (a category, search results, the video page's "More videos"): no list state in the browser. */
export function StaticVideoGrid({ videos, label, priorityCount = 0 }: { videos: VideoDto[]; label: string; priorityCount?: number }) {
  return (
    <ul className="video-grid" aria-label={label}>
      {videos.map((video, index) => (
        <li key={video._id}>
          <VideoCard video={video} loading={cardLoading(index, priorityCount)} islands={DEFERRED_ISLANDS} />
        </li>
      ))}
    </ul>
  );
}
