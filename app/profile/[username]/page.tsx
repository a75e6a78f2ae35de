import type { Metadata } from 'next';
import { notFound } from 'next/navigation';

import { BlockButton } from '@/components/community/BlockButton';
import { InfiniteVideoGrid } from '@/components/community/InfiniteVideoGrid';
import { ProfileHeader } from '@/components/community/ProfileHeader';
import { ReportDialog } from '@/components/community/ReportDialog';
import { VideoIcon } from '@/components/icons';
import { OwnVideos } from '@/components/videos/OwnVideos';
import { memberOf } from '@/lib/server/auth/actor';
import { pageActor } from '@/lib/server/auth/session';
import { decodeSegment, listMemberVideos, loadProfilePage } from '@/lib/server/community/profiles';
import { forPage } from '@/lib/server/page-access';
import { fullTitle, pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

type Props = { params: Promise<{ username: string }> };

const PROFILE_PAGE_SIZE = 12;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const username = decodeSegment((await params).username);
  const actor = await pageActor();
  const viewer = memberOf(actor);
  const profile = viewer && username ? await loadProfilePage(actor, username) : null;
  if (!profile)
    return { title: { absolute: fullTitle(viewer ? 'Page not found' : 'Profile') }, robots: { index: false, follow: false } };
  const summary = profile.bio.replace(/\s+/g, ' ').trim();
  return pageMetadata({
    title: `${profile.username}’s profile`,
    description: summary ? (summary.length > 160 ? `${summary.slice(0, 157)}…` : summary) : `Videos by ${profile.username}.`,
    path: `/profile/${encodeURIComponent(profile.username)}`,
    noindex: true,
  });
}

/**
 * /profile/{username} (login required). The layout has already checked the
 * session, answered unknown members with a real 404 and sent other spellings
 * of the name to the member's one address; this renders per request for the
 * viewer (never cached): header, follow state and the first page of videos
 * in the HTML, then client islands (follow, infinite scroll, own uploads).
 */
export default async function ProfilePage({ params }: Props) {
  const actor = await pageActor();
  const username = decodeSegment((await params).username);
  const profile = memberOf(actor) && username ? await forPage(loadProfilePage(actor, username), `/profile/${username}`) : null;
  if (!profile) notFound();
  const videos = await listMemberVideos(profile._id, { limit: PROFILE_PAGE_SIZE });
  const name = profile.username;

  return (
    <div className="profile-page">
      <WebSiteStructuredData path={`/profile/${encodeURIComponent(name)}`} name={`${name}’s profile`} />
      <ProfileHeader
        profile={profile}
        actions={
          profile.isSelf ? undefined : (
            <>
              <BlockButton username={name} />
              <ReportDialog targetType="profile" target={name} subject={`${name}’s profile`} />
            </>
          )
        }
      />

      <section className="section" aria-labelledby="profile-videos-title">
        <div className="section-head">
          <h2 id="profile-videos-title">{profile.isSelf ? 'Your public videos' : 'Videos'}</h2>
        </div>
        {videos.videos.length > 0 ? (
          <InfiniteVideoGrid
            initial={videos}
            listUrl={`/api/users/${encodeURIComponent(name)}/videos?limit=${PROFILE_PAGE_SIZE}`}
            label={`Videos by ${name}`}
          />
        ) : (
          <div className="empty-state">
            <VideoIcon />
            <p>{profile.isSelf ? 'You have no public videos yet.' : `${name} has not published any videos yet.`}</p>
            {profile.isSelf && (
              <a className="btn btn-primary" href="/upload">
                Upload a video
              </a>
            )}
          </div>
        )}
      </section>

      {profile.isSelf && (
        <section className="section own-videos-section" aria-labelledby="own-uploads-title">
          <div className="section-head">
            <h2 id="own-uploads-title">Your uploads and their status</h2>
          </div>
          <p className="profile-note">
            Only you see this list: videos waiting for review, not approved, or still processing, as well as the live ones.
          </p>
          <OwnVideos />
        </section>
      )}
    </div>
  );
}
