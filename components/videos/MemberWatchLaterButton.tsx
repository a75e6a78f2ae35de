'use client';

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';

import { SaveToPlaylistButton } from '@/components/playlists/SaveToPlaylistButton';
import { useSession } from '@/components/session/SessionProvider';
import type { WatchLaterStateDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { WatchLaterView, type WatchLaterButtonProps } from './WatchLaterButton';

/** The SWR key of the member's saved ids: one request per page however many cards it shows; per member, so another login never sees the last one's list. */
const idsKey = (memberId: string) => ['watch-later-ids', memberId] as const;
// An array, not a Set: SWR compares data with dequal/lite, which sees every two Sets as equal (no re-render after a change).
const fetchIds = async () => (await apiRequest<{ streamVideoIds: string[] }>('/api/users/me/watch-later/ids')).streamVideoIds;

/**
 * A member's Watch later button (WatchLaterButton loads it once the session has a member). Their saved ids
 * come from one shared request; a click shows the new state at once and rolls back with the server's message
 * if the call fails. A click before the list has arrived is kept and applied once, when it does (issue 37).
 */
export function MemberWatchLaterButton({ streamVideoId, title, compact = false }: WatchLaterButtonProps) {
  const { user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [queued, setQueued] = useState(false);
  const pending = useRef(false);
  const { data: ids, mutate } = useSWR(user ? idsKey(user._id) : null, fetchIds, {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const saved = Boolean(user && ids?.includes(streamVideoId));

  async function toggle() {
    if (pending.current) return;
    // Which way to go needs the saved list: keep the click until it arrives (the effect below).
    if (!ids) {
      setQueued(true);
      return;
    }
    const next = saved ? ids.filter((id) => id !== streamVideoId) : [streamVideoId, ...ids];
    pending.current = true;
    setError(null);
    try {
      await mutate(
        apiRequest<WatchLaterStateDto>(`/api/videos/${streamVideoId}/watch-later`, { method: saved ? 'DELETE' : 'PUT' }).then(
          () => next,
        ),
        { optimisticData: next, rollbackOnError: true, populateCache: true, revalidate: false },
      );
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message
          ? failure.message
          : saved
            ? 'Could not remove the video from Watch later.'
            : 'Could not save the video to Watch later.',
      );
    } finally {
      pending.current = false;
    }
  }

  useEffect(() => {
    if (!queued || !ids) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the kept click is spent once, as the list arrives
    setQueued(false);
    void toggle();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggle reads this render's state, which is what is wanted
  }, [queued, ids]);

  // Save to playlist rides along: members only, in this chunk, so neither page's first load carries it.
  return (
    <>
      <WatchLaterView
        streamVideoId={streamVideoId}
        title={title}
        compact={compact}
        saved={saved}
        error={error}
        phase={ids ? 'member' : 'fetching'}
        busy={queued}
        onClick={() => void toggle()}
      />
      <SaveToPlaylistButton streamVideoId={streamVideoId} title={title} compact={compact} />
    </>
  );
}
