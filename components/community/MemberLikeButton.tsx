'use client';

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { LikeStateDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { LikeView, OWN_VIDEO_TEXT, type LikeButtonProps } from './LikeButton';

/** The SWR key of a member's like state for a video; per member, so another login never sees the last one's state. */
const likeKey = (streamVideoId: string, memberId: string) => ['like', streamVideoId, memberId] as const;

const likePath = (streamVideoId: string) => `/api/videos/${streamVideoId}/like`;
const fetchState = ([, streamVideoId]: readonly [string, string, string]) => apiRequest<LikeStateDto>(likePath(streamVideoId));

/**
 * A member's like button (LikeButton loads it once the session has a member): their own state is filled in,
 * and a click shows the new state at once (SWR optimistic data) and rolls back with the server's message if
 * the call fails. A click while the member's state is still being asked for is kept and applied once, when it
 * arrives (issue 37): the button shows busy meanwhile.
 */
export function MemberLikeButton({ streamVideoId, ownerId, likes, likedBy, compact = false }: LikeButtonProps) {
  const { user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState(false);
  const pending = useRef(false);

  const known = user && likedBy ? { liked: likedBy.includes(user._id), likes } : undefined;
  const { data, mutate } = useSWR(user ? likeKey(streamVideoId, user._id) : null, fetchState, {
    fallbackData: known,
    // Cards already know the state from likedBy; the video page asks (its HTML is cached and the same for everyone).
    revalidateOnMount: known === undefined,
    revalidateIfStale: known === undefined,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  const state: LikeStateDto = (user && data) || { liked: false, likes };
  const own = Boolean(user && user._id === ownerId);

  async function toggle() {
    if (pending.current || !user) return;
    // Which way to go needs the member's own state: keep the click until it arrives (the effect below).
    if (!data) {
      setQueued(true);
      return;
    }
    if (own) {
      setError(OWN_VIDEO_TEXT);
      return;
    }
    const next: LikeStateDto = { liked: !state.liked, likes: Math.max(0, state.likes + (state.liked ? -1 : 1)) };
    pending.current = true;
    setBusy(true);
    setError(null);
    try {
      await mutate(apiRequest<LikeStateDto>(likePath(streamVideoId), { method: next.liked ? 'POST' : 'DELETE' }), {
        optimisticData: next,
        rollbackOnError: true,
        populateCache: true,
        revalidate: false,
      });
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message
          ? failure.message
          : next.liked
            ? 'Could not like the video.'
            : 'Could not remove your like.',
      );
    } finally {
      pending.current = false;
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!queued || !data) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the kept click is spent once, as the state arrives
    setQueued(false);
    void toggle();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- toggle reads this render's state, which is what is wanted
  }, [queued, data]);

  return (
    <LikeView
      state={state}
      compact={compact}
      own={own}
      busy={busy || queued}
      error={error}
      phase={data ? 'member' : 'fetching'}
      onClick={() => void toggle()}
    />
  );
}
