'use client';

import { lazy, Suspense, useSyncExternalStore } from 'react';

// The queue's code loads only on a video page opened from a playlist (?list=): the page's first load carries this slot alone.
const PlaylistQueue = lazy(() => import('./PlaylistQueue'));

const listOfUrl = () => new URLSearchParams(location.search).get('list');
const noSubscription = () => () => {};

/**
 * Where the video page shows the playlist it plays (?list={id}). The page's HTML is the same for every URL (it is
 * cached), so the browser reads the list from the address and the queue fetches it, with the member's session for
 * a private one.
 */
export function PlaylistQueueSlot({ streamVideoId }: { streamVideoId: string }) {
  const list = useSyncExternalStore(noSubscription, listOfUrl, () => null);
  if (!list) return null;
  return (
    <Suspense fallback={null}>
      <PlaylistQueue list={list} streamVideoId={streamVideoId} />
    </Suspense>
  );
}
