'use client';

import { VideoIcon } from '@/components/icons';
import { MemberVideoFeed } from '@/components/videos/MemberVideoFeed';

export const WATCH_LATER_EMPTY_TEXT = 'Your Watch later list is empty.';

/** The member's saved videos, newest save first; a card's clock button removes one. */
export function WatchLaterFeed() {
  return (
    <MemberVideoFeed
      endpoint="/api/users/me/watch-later"
      path="/watch-later"
      icon={<VideoIcon size={40} />}
      loadingText="Loading your Watch later list…"
      loginText="Log in to see the videos you saved for later."
      emptyText={WATCH_LATER_EMPTY_TEXT}
      emptyHint="Tap the clock on a video and it will be kept here until you remove it."
      gridLabel="Your Watch later list"
    />
  );
}
