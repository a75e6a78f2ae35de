import type { Metadata } from 'next';

import { FOLLOWING_PAGE_SIZE, FollowingFeed } from '@/components/community/FollowingFeed';
import { listFollowingFeed, myFollowCounts } from '@/lib/server/community/follows';
import { suggestCreators } from '@/lib/server/community/profiles';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Following',
    description: 'New videos from the creators you follow.',
    path: '/following',
    noindex: true,
  });
}

/**
 * /following (login required): public videos of the creators the member
 * follows, newest first, with infinite scroll. Rendered per request for the
 * viewer (never cached); proxy.ts sends visitors to log in first and this
 * page checks the session again. With nothing to show, it helps find
 * creators: home, the categories, and the uploaders of the top videos.
 */
export default async function FollowingPage() {
  const actor = await pageActor();
  const feed = await forPage(listFollowingFeed(actor, { limit: FOLLOWING_PAGE_SIZE }), '/following');
  const counts = await myFollowCounts(actor);
  const suggestions = feed.videos.length === 0 ? await suggestCreators(actor) : [];
  return (
    <div className="following-page">
      <WebSiteStructuredData path="/following" name="Following" />
      <header className="page-header">
        <span className="eyebrow">Following</span>
        <h1>From creators you follow</h1>
        <p>
          {counts.following > 0
            ? `New videos from the ${counts.following === 1 ? 'creator' : `${counts.following.toLocaleString('en-US')} creators`} you follow, newest first.`
            : 'New videos from the creators you follow, newest first.'}
        </p>
      </header>
      <FollowingFeed initial={feed} following={counts.following} suggestions={suggestions} />
    </div>
  );
}
