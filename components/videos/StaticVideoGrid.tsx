import type { VideoDto } from '@/lib/api-types';

import { cardLoading, VideoCard } from './VideoCard';

/** A server-rendered grid of cards (a category, search results, the video page's "More videos"): no list state in the browser. */
export function StaticVideoGrid({
  videos,
  label,
  priorityCount = 0,
}: {
  videos: VideoDto[];
  label: string;
  priorityCount?: number;
}) {
  return (
    <ul className="video-grid" aria-label={label}>
      {videos.map((video, index) => (
        <li key={video._id}>
          <VideoCard video={video} loading={cardLoading(index, priorityCount)} />
        </li>
      ))}
    </ul>
  );
}
