'use client';

import { useEffect, useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import { VideoGrid } from '@/components/videos/VideoGrid';
import { WatchedBar } from '@/components/videos/WatchedBar';
import type { HistoryListDto, HistoryVideoDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

/** As many as home's top row shows. */
export const CONTINUE_WATCHING_COUNT = 4;

const noop = () => {};

/**
 * A member's Continue watching row on home: the videos they stopped in (not those watched to the end), most recent
 * first, each with how far they got. Nothing at all while it loads, when the list is empty or the request fails: home
 * stays as it is for everyone else.
 */
export function ContinueWatching() {
  const { user } = useSession();
  const memberId = user?._id ?? null;
  const [videos, setVideos] = useState<{ memberId: string; list: HistoryVideoDto[] } | null>(null);

  useEffect(() => {
    if (!memberId) return;
    let live = true;
    apiRequest<HistoryListDto>(`/api/users/me/history?unfinished=true&limit=${CONTINUE_WATCHING_COUNT}`)
      .then((answer) => {
        if (live) setVideos({ memberId, list: answer.videos });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [memberId]);

  // Another member logging in on this browser never sees the last one's row.
  const list = videos && videos.memberId === memberId ? videos.list : [];
  if (list.length === 0) return null;
  return (
    <section className="section" aria-labelledby="continue-watching">
      <div className="section-head">
        <h2 id="continue-watching">Continue watching</h2>
        <a href="/history">Your history</a>
      </div>
      <VideoGrid
        videos={list}
        label="Continue watching"
        loading={false}
        error={null}
        loadMore={null}
        onRetry={noop}
        extras={(video) => <WatchedBar video={video as HistoryVideoDto} />}
      />
    </section>
  );
}
