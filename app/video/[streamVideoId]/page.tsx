import type { Metadata } from 'next';
import { preload } from 'react-dom';

import { Comments } from '@/components/community/Comments';
import { VisitorComments } from '@/components/community/VisitorComments';
import { FollowButton } from '@/components/community/FollowButton';
import { LikeButton } from '@/components/community/LikeButton';
import { ReportDialog } from '@/components/community/ReportDialog';
import { EyeIcon } from '@/components/icons';
import { PlaylistQueueSlot } from '@/components/playlists/PlaylistQueueSlot';
import { VideoStructuredData } from '@/components/seo/StructuredData';
import { MissingPage, missingPageMetadata } from '@/components/shell/MissingPage';
import { RelativeTime } from '@/components/videos/RelativeTime';
import { ShareButton } from '@/components/videos/ShareButton';
import { StaticVideoGrid } from '@/components/videos/StaticVideoGrid';
import { OwnerPreview } from '@/components/videos/OwnerPreview';
import { VideoPageManage } from '@/components/videos/VideoPageManage';
import { VideoPlayer } from '@/components/videos/VideoPlayer';
import { WatchLaterButton } from '@/components/videos/WatchLaterButton';
import { getConfig } from '@/lib/config/server';
import { embedSnippet } from '@/lib/embed';
import { countLabel, isoDuration } from '@/lib/format/numbers';
import { relativeTime } from '@/lib/format/relative-time';
import { storyboardUrl } from '@/lib/media/previews';
import { thumbnailPosterUrl } from '@/lib/media/thumbnails';
import { setPageStatus } from '@/lib/server/page-status';
import { isVideoGone, loadMoreLikeThis, loadVideoPage } from '@/lib/server/videos/video-page';
import { absoluteUrl, pageMetadata } from '@/lib/seo/metadata';
import { DEFAULT_KEYWORDS, tagHref } from '@/lib/site';

type Props = { params: Promise<{ streamVideoId: string }> };

const summary = (text: string, fallback: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return fallback;
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { streamVideoId } = await params;
  const data = await loadVideoPage(streamVideoId);
  if (!data) return missingPageMetadata(await isVideoGone(streamVideoId));
  const { video, playback } = data;
  const { siteName } = getConfig();
  const path = `/video/${video.streamVideoId}`;
  const description = summary(
    video.description,
    `${video.title}: a ${video.category} video by ${video.uploader.username} on ${siteName}.`,
  );
  const image = video.thumbnailUrl
    ? {
        url: absoluteUrl(video.thumbnailUrl),
        width: 640,
        height: Math.round((640 * (video.height ?? 360)) / (video.width ?? 640)),
        alt: video.title,
      }
    : undefined;
  const base = pageMetadata({
    title: video.title,
    description,
    path,
    image,
    keywords: [...video.tags, video.category.toLowerCase(), ...DEFAULT_KEYWORDS],
  });
  const size = { width: video.width ?? 1280, height: video.height ?? 720 };
  const embedUrl = absoluteUrl(`/embed/${video.streamVideoId}`);
  return {
    ...base,
    openGraph: {
      ...base.openGraph,
      type: 'video.other',
      videos: playback.mp4Url
        ? [{ url: absoluteUrl(playback.mp4Url), secureUrl: absoluteUrl(playback.mp4Url), type: 'video/mp4', ...size }]
        : undefined,
    },
    twitter: {
      ...base.twitter,
      card: 'player',
      players: [{ playerUrl: embedUrl, streamUrl: playback.mp4Url ? absoluteUrl(playback.mp4Url) : embedUrl, ...size }],
    },
  };
}

export default async function VideoPage({ params }: Props) {
  const { streamVideoId } = await params;
  const data = await loadVideoPage(streamVideoId);
  if (!data) {
    const gone = await isVideoGone(streamVideoId);
    setPageStatus(gone ? 410 : 404);
    // Its owner and admins see their video that is not public (yet) in place of the 404.
    return (
      <>
        <OwnerPreview />
        <MissingPage gone={gone} />
      </>
    );
  }
  const { video, playback } = data;
  const more = await loadMoreLikeThis(video);
  const likes = video.likedBy.length;
  // The poster is the page's largest picture (its LCP): the WebP when there is one, asked for before the player's script runs.
  const poster = thumbnailPosterUrl(video.streamVideoId, video.thumbnailVersion) ?? video.thumbnailUrl;
  if (poster) preload(poster, { as: 'image', fetchPriority: 'high' });
  return (
    <>
      <VideoStructuredData
        streamVideoId={video.streamVideoId}
        name={video.title}
        description={summary(video.description, video.title)}
        thumbnailUrl={video.thumbnailUrl}
        uploadDate={video.createdAt}
        duration={isoDuration(video.durationSeconds)}
        contentUrl={playback.mp4Url}
        views={video.views}
        likes={likes}
        uploader={video.uploader.username}
      />
      <div className="watch">
        <article aria-labelledby="video-title">
          <VideoPlayer
            streamVideoId={video.streamVideoId}
            title={video.title}
            poster={poster}
            durationSeconds={video.durationSeconds}
            mp4Url={playback.mp4Url}
            hlsUrl={playback.hlsUrl}
            storyboardUrl={storyboardUrl(video.streamVideoId, video.previewsVersion)}
            captions={data.captions}
          />
          {/* Opened from a playlist (?list=): its queue and the move to the next video; nothing otherwise. */}
          <PlaylistQueueSlot streamVideoId={video.streamVideoId} />
          <h1 id="video-title" className="watch-title">
            {video.title}
          </h1>
          <div className="watch-meta">
            <span className="watch-uploader">
              <a href={`/profile/${encodeURIComponent(video.uploader.username)}`} rel="author">
                {video.uploader.username}
              </a>
              {/* A client island: the member's follow state is fetched; the cached HTML is the same for everyone. */}
              <FollowButton username={video.uploader.username} small />
            </span>
            <a href={`/category/${video.category}`}>{video.category}</a>
            <RelativeTime date={video.createdAt} serverText={relativeTime(video.createdAt)} />
            <span className="watch-stats">
              <span>
                <EyeIcon /> {countLabel(video.views, 'view')}
              </span>
              {/* The count is in the server HTML for crawlers; the member's own state fills in on the client. */}
              <LikeButton streamVideoId={video.streamVideoId} ownerId={video.uploader._id} likes={likes} />
            </span>
            <span className="watch-actions">
              <WatchLaterButton streamVideoId={video.streamVideoId} title={video.title} />
              <ShareButton
                url={absoluteUrl(`/video/${video.streamVideoId}`)}
                embedCode={embedSnippet(getConfig().siteUrl, video.streamVideoId, { title: video.title })}
                title={video.title}
              />
              {/* For everyone, visitors included; the page stays the same for all (a client island). */}
              <ReportDialog targetType="video" target={video.streamVideoId} />
              {/* The public notice form (DSA Art. 16, TAKE IT DOWN Act) with this video filled in: for the person shown, a rights holder, anyone. */}
              <a className="watch-notice-link" href={`/report-content?video=${encodeURIComponent(video.streamVideoId)}`}>
                Legal notice
              </a>
            </span>
            {/* Edit and Delete for the owner and admins only: the session decides in the browser, the API again. */}
            <VideoPageManage
              video={{
                streamVideoId: video.streamVideoId,
                ownerId: video.uploader._id,
                title: video.title,
                description: video.description,
                category: video.category,
                tags: video.tags,
              }}
            />
          </div>
          {video.tags.length > 0 && (
            <ul className="tag-list" aria-label="Tags">
              {video.tags.map((tag) => (
                <li key={tag}>
                  <a className="tag" href={tagHref(tag)} rel="tag">
                    #{tag}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {video.description && <p className="watch-description">{video.description}</p>}
          <p className="watch-withdraw">
            You appear in this video and no longer consent to it?{' '}
            <a href={`/withdraw-consent?video=${video.streamVideoId}`}>Withdraw your consent</a>
          </p>
          <Comments
            streamVideoId={video.streamVideoId}
            videoOwnerId={video.uploader._id}
            initial={data.comments}
            visitorView={<VisitorComments streamVideoId={video.streamVideoId} page={data.comments} />}
          />
        </article>
        {more.length > 0 && (
          <aside className="watch-aside" aria-labelledby="more-videos">
            <h2 id="more-videos">More {video.category} videos</h2>
            <StaticVideoGrid videos={more} label={`More ${video.category} videos`} />
          </aside>
        )}
      </div>
    </>
  );
}
