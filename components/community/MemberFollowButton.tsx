'use client';

import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { FollowStateDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';

import { FollowPlaceholder, FollowView, type FollowButtonProps } from './FollowButton';

/** The SWR key of whether a member follows someone; per member, so another login never sees the last one's state. */
const followKey = (username: string, memberId: string) => ['follow', username.toLowerCase(), memberId] as const;

const followPath = (username: string) => `/api/users/${encodeURIComponent(username)}/follow`;
const fetchState = ([, username]: readonly [string, string, string]) => apiRequest<FollowStateDto>(followPath(username));

/**
 * Whether the member follows `username`, and their follower count, shared
 * (through SWR) by every button and count on the page. `initial` is what
 * the server rendered (profile pages); without it the state is fetched once
 * the session is known (the video page, whose HTML is the same for all).
 */
export function useFollowState(username: string, initial?: FollowStateDto | null) {
  const { loading, user } = useSession();
  const self = Boolean(user && user.username.toLowerCase() === username.toLowerCase());
  const key = user && !self ? followKey(username, user._id) : null;
  const { data, error, mutate } = useSWR(key, fetchState, {
    fallbackData: initial ?? undefined,
    revalidateOnMount: !initial,
    revalidateIfStale: !initial,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
  // A fresh server render wins over what an earlier page left in the cache.
  const seeded = useRef(false);
  useEffect(() => {
    if (!key || !initial || seeded.current) return;
    seeded.current = true;
    void mutate(initial, { revalidate: false });
  }, [key, initial, mutate]);
  const state: FollowStateDto | null = (user ? data : undefined) ?? initial ?? null;
  return { state, mutate, loading, user, self, failed: Boolean(error) && !state };
}

/**
 * A member's follow button (FollowButton loads it once the session has a member): a click shows the new
 * state and count at once and rolls back, with the server's reason, if the call fails.
 */
export function MemberFollowButton({ username, initial, small = false, className }: FollowButtonProps) {
  const { state, mutate, user, failed } = useFollowState(username, initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef(false);

  // Until the member's state is known there is nothing true to show; keep the space so nothing jumps.
  // (If asking failed, the button still works: following is idempotent.)
  if (!user || (!state && !failed)) return <FollowPlaceholder small={small} />;

  async function toggle() {
    if (pending.current) return;
    const before = state ?? { following: false, followers: 0 };
    const next: FollowStateDto = {
      following: !before.following,
      followers: Math.max(0, before.followers + (before.following ? -1 : 1)),
    };
    pending.current = true;
    setBusy(true);
    setError(null);
    try {
      await mutate(apiRequest<FollowStateDto>(followPath(username), { method: next.following ? 'POST' : 'DELETE' }), {
        optimisticData: next,
        rollbackOnError: true,
        populateCache: true,
        revalidate: false,
      });
    } catch (failure) {
      setError(
        failure instanceof ApiClientError && failure.status && failure.message
          ? failure.message
          : next.following
            ? `Could not follow ${username}. Please try again.`
            : `Could not unfollow ${username}. Please try again.`,
      );
    } finally {
      pending.current = false;
      setBusy(false);
    }
  }

  return (
    <FollowView
      username={username}
      following={Boolean(state?.following)}
      member
      busy={busy}
      error={error}
      small={small}
      className={className}
      onClick={() => void toggle()}
    />
  );
}
