'use client';

import { useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import useSWRInfinite, { unstable_serialize } from 'swr/infinite';

import { VideoIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import type { OwnVideoDto, VideoListDto } from '@/lib/api-types';
import { videoStatusView } from '@/lib/client/format';
import { apiRequest } from '@/lib/client/api-client';
import { relativeTime } from '@/lib/format/relative-time';

import { VideoManage } from './VideoManage';

export const OWN_VIDEOS_PAGE_SIZE = 12;
/** While any upload is still being processed, the list checks again this often. */
const PROCESSING_REFRESH_MS = 5_000;

type OwnVideosPage = { videos: OwnVideoDto[]; pagination: VideoListDto['pagination'] };

/** Page keys for GET /api/videos/mine; null after the last page. */
function ownVideosKey(index: number, previous: OwnVideosPage | null): string | null {
  if (previous && !previous.pagination.hasMore) return null;
  return `/api/videos/mine?limit=${OWN_VIDEOS_PAGE_SIZE}&page=${index + 1}`;
}

const fetchPage = (path: string) => apiRequest<OwnVideosPage>(path);

/** Re-fetches "Your videos" (after an upload finishes, for example). */
export function useRefreshOwnVideos(): () => void {
  const { mutate } = useSWRConfig();
  return () => void mutate(unstable_serialize(ownVideosKey));
}

/** The member's uploads in every state, newest first, with processing and review status. */
export function OwnVideos() {
  const { loading, user } = useSession();
  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite(user ? ownVideosKey : () => null, fetchPage, {
    refreshInterval: (pages) =>
      pages?.some((page) => page.videos.some((video) => !videoStatusView(video).settled)) ? PROCESSING_REFRESH_MS : 0,
  });
  const videos = data?.flatMap((page) => page.videos) ?? [];
  const hasMore = data?.at(-1)?.pagination.hasMore ?? false;
  const loadingMore = size > 0 && data !== undefined && typeof data[size - 1] === 'undefined';

  // Notifications link here (/upload#your-videos); the list renders after the session loads, so scroll once it is in.
  const scrolled = useRef(false);
  useEffect(() => {
    if (scrolled.current || !data || window.location.hash !== '#your-videos') return;
    scrolled.current = true;
    document.getElementById('your-videos')?.scrollIntoView({ block: 'start' });
  }, [data]);

  if (loading || (user && isLoading)) {
    return (
      <p className="own-videos-note" role="status">
        Loading your videos…
      </p>
    );
  }
  if (!user) return <p className="own-videos-note">Log in to see your uploads.</p>;
  if (error && !data) {
    return (
      <div className="empty-state" role="alert">
        <p>Error loading videos. Please try again later.</p>
        <button type="button" className="btn btn-ghost" onClick={() => void mutate()}>
          Try again
        </button>
      </div>
    );
  }
  if (videos.length === 0) {
    return (
      <div className="empty-state own-videos-empty">
        <VideoIcon />
        <p>You have not uploaded any videos yet.</p>
        <span>Your uploads appear here with their processing and review status.</span>
      </div>
    );
  }
  return (
    <>
      <ul className="own-videos" aria-label="Your uploads">
        {videos.map((video) => (
          <li key={video._id}>
            <OwnVideoRow video={video} onChanged={() => void mutate()} />
          </li>
        ))}
      </ul>
      {hasMore && (
        <div className="own-videos-more">
          <button type="button" className="btn btn-ghost" disabled={loadingMore} onClick={() => void setSize(size + 1)}>
            {loadingMore ? 'Loading…' : 'Show more'}
          </button>
        </div>
      )}
    </>
  );
}

function OwnVideoRow({ video, onChanged }: { video: OwnVideoDto; onChanged(): void }) {
  const view = videoStatusView(video);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <article className="own-video">
      <a href={`/video/${video.streamVideoId}`} className="own-video-thumb" tabIndex={-1} aria-hidden="true">
        {video.thumbnailUrl ? (
          // Thumbnails are already sized JPEGs from our pipeline.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={video.thumbnailUrl} alt="" width={320} height={180} loading="lazy" decoding="async" />
        ) : (
          <span className="own-video-placeholder" data-testid="thumbnail-placeholder">
            <VideoIcon size={28} />
          </span>
        )}
      </a>
      <div className="own-video-body">
        <h3 className="own-video-title">
          <a href={`/video/${video.streamVideoId}`}>{video.title}</a>
        </h3>
        <p className="own-video-meta">
          <span>{video.category}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={video.createdAt}>{relativeTime(video.createdAt)}</time>
        </p>
        <p className="own-video-status">
          <span className={`own-status own-status-${view.tone}`}>{view.badge}</span>
          {video.pendingEdit && <span className="own-status own-status-waiting">New text waiting for review</span>}
        </p>
        {!video.performerRecordsComplete && video.moderationStatus !== 'approved' && (
          <p className="own-video-reason records-missing">
            <a href={`/upload/performers/${video.streamVideoId}`}>Performer records incomplete — complete them</a>
          </p>
        )}
        {view.reason && (
          <p className="own-video-reason">
            {video.moderationStatus === 'rejected' ? 'Reason: ' : 'Error: '}
            {view.reason}
          </p>
        )}
        <VideoManage
          video={{
            streamVideoId: video.streamVideoId,
            ownerId: video.uploader._id,
            title: video.title,
            description: video.description,
            category: video.category,
            tags: video.tags,
            pendingEdit: video.pendingEdit,
          }}
          onSaved={({ message }) => {
            setSaved(message);
            onChanged();
          }}
          onDeleted={onChanged}
        />
        <p className="own-video-saved" role="status">
          {saved}
        </p>
      </div>
    </article>
  );
}
