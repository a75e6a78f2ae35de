import type { Metadata } from 'next';
import { redirect } from 'next/navigation';

import { FOLLOWING_PAGE_SIZE, FollowingFeed } from '@/components/community/FollowingFeed';
import { getDb } from '@/lib/db';
import { followCounts, listFollowingFeed } from '@/lib/server/community/follows';
import { pageViewer, suggestCreators } from '@/lib/server/community/profiles';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({ title: 'Following', description: 'New videos from the creators you follow.', path: '/following', noindex: true });
}

/**
 * /following (login required): public videos of the creators the member
 * follows, newest first, with infinite scroll. Rendered per request for the
 * viewer (never cached); proxy.ts sends visitors to log in first and this
 * page checks the session again. With nothing to show, it helps find
 * creators: home, the categories, and the uploaders of the top videos.
 */
export default async function FollowingPage() {
  const viewer = await pageViewer();
  if (!viewer) redirect(`/login?next=${encodeURIComponent('/following')}`);
  const [feed, counts] = await Promise.all([listFollowingFeed(viewer, { limit: FOLLOWING_PAGE_SIZE }), getDb().then((db) => followCounts(db, viewer.id))]);
  const suggestions = feed.videos.length === 0 ? await suggestCreators(viewer) : [];
  return (
    <div className="following-page">
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
