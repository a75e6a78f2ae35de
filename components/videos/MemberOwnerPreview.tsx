'use client';

import { usePathname } from 'next/navigation';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { CaptionTrackDto, OwnVideoDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { storyboardUrl } from '@/lib/media/previews';

import { VideoPlayer } from './VideoPlayer';

function statusText(video: Pick<OwnVideoDto, 'status' | 'moderationStatus' | 'processingError' | 'rejectionReason'>): string {
  if (video.status === 'failed') return `Processing failed: ${video.processingError ?? 'unknown reason'}`;
  if (video.status !== 'ready') return 'Processing… it will be playable in a moment.';
  if (video.moderationStatus === 'pending') return 'Ready — waiting for review. Only you and the moderators can see it.';
  if (video.moderationStatus === 'rejected') return `Not approved: ${video.rejectionReason ?? 'no reason given'}`;
  return 'Approved — live.';
}

/**
 * The preview OwnerPreview loads once the session has a member: the API answers the video's owner (and
 * admins) with its status and playback, shown in place of the 404; anyone else keeps the 404 alone.
 */
export function MemberOwnerPreview() {
  const pathname = usePathname();
  const { user } = useSession();
  const streamVideoId = /^\/video\/([A-Za-z0-9_-]{1,32})$/.exec(pathname)?.[1];
  const { data } = useSWR(
    user && streamVideoId ? `/api/videos/${streamVideoId}` : null,
    (url: string) => apiRequest<{ video: OwnVideoDto }>(url),
    {
      shouldRetryOnError: false,
      refreshInterval: (latest) => (latest && latest.video.status !== 'ready' && latest.video.status !== 'failed' ? 3000 : 0),
    },
  );
  const video = data?.video;
  const owned = Boolean(video && 'status' in video);
  // The owner checks their captions before the video is public, as viewers will see them.
  const { data: captions } = useSWR(
    owned && streamVideoId ? `/api/videos/${streamVideoId}/captions` : null,
    (url: string) => apiRequest<{ captions: CaptionTrackDto[] }>(url),
    { shouldRetryOnError: false },
  );
  if (!video || !owned) return null;
  return (
    <article className="owner-preview" aria-labelledby="video-title">
      <p className="status-banner" role="status">
        <strong>Preview.</strong> {statusText(video)}
      </p>
      {video.playback?.mp4Url || video.playback?.hlsUrl ? (
        <VideoPlayer
          streamVideoId={video.streamVideoId}
          title={video.title}
          poster={video.thumbnailUrl}
          mp4Url={video.playback.mp4Url}
          hlsUrl={video.playback.hlsUrl}
          storyboardUrl={storyboardUrl(video.streamVideoId, video.previewsVersion)}
          captions={captions?.captions}
          countView={false}
          allowAutoplay={false}
          startButton={false}
        />
      ) : null}
      <h1 id="video-title" className="watch-title">
        {video.title}
      </h1>
      {video.description && <p className="watch-description">{video.description}</p>}
    </article>
  );
}
