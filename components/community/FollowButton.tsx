'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { FollowStateDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/http';

/** The SWR key of whether a member follows someone; per member, so another login never sees the last one's state. */
export const followKey = (username: string, memberId: string) => ['follow', username.toLowerCase(), memberId] as const;

const followPath = (username: string) => `/api/users/${encodeURIComponent(username)}/follow`;
const fetchState = ([, username]: readonly [string, string, string]) => apiRequest<FollowStateDto>(followPath(username));

const isSelf = (username: string, member: { username: string } | null) => Boolean(member && member.username.toLowerCase() === username.toLowerCase());

/**
 * Whether the member follows `username`, and their follower count, shared
 * (through SWR) by every button and count on the page. `initial` is what
 * the server rendered (profile pages); without it the state is fetched once
 * the session is known (the video page, whose HTML is the same for all).
 */
export function useFollowState(username: string, initial?: FollowStateDto | null) {
  const { loading, user } = useSession();
  const self = isSelf(username, user);
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

interface FollowButtonProps {
  username: string;
  /** The state the server rendered, when it knows it. */
  initial?: FollowStateDto | null;
  /** The smaller button (the video page, suggestion lists). */
  small?: boolean;
  className?: string;
}

/**
 * Follow / Following, a toggle button (aria-pressed). A click shows the new
 * state and count at once and rolls back, with the server's reason, if the
 * call fails. Visitors are sent to log in and come back here; on your own
 * profile or video there is no button.
 */
export function FollowButton({ username, initial, small = false, className }: FollowButtonProps) {
  const router = useRouter();
  const pathname = usePathname();
  const { state, mutate, loading, user, self, failed } = useFollowState(username, initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef(false);
  const errorId = useId();

  if (self) return null;
  // Until the member's state is known there is nothing true to show; keep the space so nothing jumps.
  // (If asking failed, the button still works: following is idempotent.)
  if ((loading && !state) || (user && !state && !failed)) {
    return <span className={`follow follow-placeholder${small ? ' follow-small' : ''}`} aria-hidden="true" />;
  }
  const following = Boolean(user && state?.following);

  async function toggle() {
    if (loading || pending.current) return;
    if (!user) {
      router.push(`/login?next=${encodeURIComponent(pathname || '/')}`);
      return;
    }
    const before = state ?? { following: false, followers: 0 };
    const next: FollowStateDto = { following: !before.following, followers: Math.max(0, before.followers + (before.following ? -1 : 1)) };
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
    <span className={`follow${small ? ' follow-small' : ''}${className ? ` ${className}` : ''}`}>
      <button
        type="button"
        className={`btn follow-button ${following ? 'btn-ghost' : 'btn-primary'}${small ? ' btn-small' : ''}`}
        aria-pressed={user ? following : undefined}
        aria-busy={busy || undefined}
        aria-describedby={error ? errorId : undefined}
        title={following ? `Unfollow ${username}` : `Follow ${username}`}
        data-testid="follow-button"
        onClick={() => void toggle()}
      >
        {following ? (
          <>
            <span aria-hidden="true" className="follow-check">
              ✓
            </span>
            Following
          </>
        ) : (
          'Follow'
        )}
      </button>
      {error && (
        <span id={errorId} className="follow-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
