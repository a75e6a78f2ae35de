import type { HistoryVideoDto } from '@/lib/api-types';
import { watchedShare } from '@/lib/watch-progress';

import './watched-bar.css';

/**
 * How much of a video the member watched: a bar along the bottom of its card's thumbnail (VideoGrid's `extras`, on
 * history and Continue watching). Decorative: the card's text says it in words where it matters.
 */
export function WatchedBar({ video }: { video: HistoryVideoDto }) {
  const share = watchedShare(video.progress.positionSeconds, video.progress.finished, video.durationSeconds);
  if (share === null) return null;
  return (
    <span className="watched-bar" aria-hidden="true">
      <span style={{ width: `${Math.round(share * 100)}%` }} />
    </span>
  );
}
