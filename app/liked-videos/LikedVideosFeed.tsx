'use client';

import { HeartIcon } from '@/components/icons';
import { MEMBER_FEED_PAGE_SIZE, MemberVideoFeed } from '@/components/videos/MemberVideoFeed';

export const LIKED_PAGE_SIZE = MEMBER_FEED_PAGE_SIZE;
export const LIKED_EMPTY_TEXT = 'You have not liked any videos yet.';

/** The member's liked videos, newest like first; the next page loads when the end of the grid comes into view. */
export function LikedVideosFeed() {
  return (
    <MemberVideoFeed
      endpoint="/api/users/me/liked-videos"
      path="/liked-videos"
      icon={<HeartIcon size={40} />}
      loadingText="Loading your liked videos…"
      loginText="Log in to see the videos you liked."
      emptyText={LIKED_EMPTY_TEXT}
      emptyHint="Tap the heart on a video you enjoy and it will be kept here."
      gridLabel="Your liked videos"
    />
  );
}
