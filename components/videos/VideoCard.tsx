import { LikeButton } from '@/components/community/LikeButton';
import { EyeIcon, VideoIcon } from '@/components/icons';
import type { VideoDto } from '@/lib/api-types';
import { compactCount, formatDuration } from '@/lib/format/numbers';
import { previewClipUrl } from '@/lib/media/previews';
import { CARD_IMAGE_SIZES, thumbnailSrcSet } from '@/lib/media/thumbnails';

import { WatchLaterButton } from './WatchLaterButton';

/**
 * How soon a card's picture loads. The first of a grid at the top of its page (priorityCount > 0) is
 * the likely LCP: eager, at high priority. All others are lazy, also in the first row: fetched eagerly,
 * they shared a phone's bandwidth with the LCP picture while not in view (bench:lighthouse, decision 027);
 * lazy ones in view still load as soon as the page is laid out.
 */
export type CardLoading = 'lcp' | 'lazy';

export const cardLoading = (index: number, priorityCount: number): CardLoading =>
  index === 0 && priorityCount > 0 ? 'lcp' : 'lazy';

/**
 * A video in a grid: thumbnail (a placeholder when there is none), title,
 * views and likes, linking to its page. A server component in server grids
 * (StaticVideoGrid) and rendered by the client feeds too, so it holds no
 * state; its two buttons are client components.
 */
export function VideoCard({ video, loading = 'lazy' }: { video: VideoDto; loading?: CardLoading }) {
  const duration = formatDuration(video.durationSeconds);
  const likes = video.likedBy.length;
  return (
    <article className="video-card">
      <a href={`/video/${video.streamVideoId}`} className="video-card-link">
        {/* data-preview: the clip CardPreviews plays on hover or a held touch (card-preview.ts). */}
        <span className="video-thumb" data-preview={previewClipUrl(video.streamVideoId, video.previewsVersion) ?? undefined}>
          {video.thumbnailUrl ? (
            // Our pipeline already made the sizes (WebP widths, the JPEG for videos processed before them); the image optimiser would only add work.
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={video.thumbnailUrl}
              srcSet={thumbnailSrcSet(video.streamVideoId, video.thumbnailVersion) ?? undefined}
              sizes={CARD_IMAGE_SIZES}
              alt=""
              width={640}
              height={360}
              loading={loading === 'lcp' ? 'eager' : 'lazy'}
              fetchPriority={loading === 'lcp' ? 'high' : undefined}
              // The likely LCP is decoded with the frame that lays it out; async decoding painted it a frame or more
              // after the first paint, late enough for Lighthouse to count the lazy pictures fetched meanwhile.
              decoding={loading === 'lcp' ? undefined : 'async'}
            />
          ) : (
            <span className="video-thumb-placeholder" data-testid="thumbnail-placeholder">
              <VideoIcon size={36} />
            </span>
          )}
          {duration && <span className="video-duration">{duration}</span>}
        </span>
        <span className="video-card-title">{video.title}</span>
      </a>
      <WatchLaterButton compact streamVideoId={video.streamVideoId} title={video.title} />
      <p className="video-card-meta">
        <span className="video-card-uploader">{video.uploader.username}</span>
        <span className="video-card-stats">
          {/* The short count shown, the word for screen readers (aria-label is not allowed on a plain span). */}
          <span>
            <EyeIcon /> {compactCount(video.views)}
            <span className="visually-hidden"> {video.views === 1 ? 'view' : 'views'}</span>
          </span>
          {/* A small island: the count for everyone, the heart for members (state from likedBy, no request per card). */}
          <LikeButton
            compact
            streamVideoId={video.streamVideoId}
            ownerId={video.uploader._id}
            likes={likes}
            likedBy={video.likedBy}
          />
        </span>
      </p>
    </article>
  );
}
