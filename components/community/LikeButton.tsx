'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';
import useSWR from 'swr';

import { HeartIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import type { LikeStateDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/http';
import { compactCount, countLabel } from '@/lib/format/numbers';

export const OWN_VIDEO_TEXT = 'You cannot like your own video.';

/** The SWR key of a member's like state for a video; per member, so another login never sees the last one's state. */
export const likeKey = (streamVideoId: string, memberId: string) => ['like', streamVideoId, memberId] as const;

const likePath = (streamVideoId: string) => `/api/videos/${streamVideoId}/like`;
const fetchState = ([, streamVideoId]: readonly [string, string, string]) => apiRequest<LikeStateDto>(likePath(streamVideoId));

interface LikeButtonProps {
  streamVideoId: string;
  /** The uploader: their own button is shown but cannot like. */
  ownerId: string;
  /** The count the server rendered (also what crawlers and visitors see). */
  likes: number;
  /**
   * Members who like it, when the caller already has them (cards: the video object's likedBy). The
   * state is then read from it instead of asking the API; without it the member's state is fetched.
   */
  likedBy?: string[];
  /** The small version for cards. */
  compact?: boolean;
}

/**
 * Like and unlike, as a client island over cached public pages: the server
 * renders the count for everyone, and once the session is known the
 * member's own state is filled in. A click shows the new state at once (SWR
 * optimistic data) and rolls back with the server's message if the call
 * fails. Visitors are sent to log in and come back.
 */
export function LikeButton({ streamVideoId, ownerId, likes, likedBy, compact = false }: LikeButtonProps) {
  const router = useRouter();
  const pathname = usePathname();
  const { loading, user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef(false);
  const errorId = useId();

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
    // Until the session and the member's own state are known, a click could only guess which way to go.
    if (loading || pending.current || (user && !data)) return;
    if (!user) {
      router.push(`/login?next=${encodeURIComponent(pathname || '/')}`);
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
      setError(failure instanceof Error && failure.message ? failure.message : next.liked ? 'Could not like the video.' : 'Could not remove your like.');
    } finally {
      pending.current = false;
      setBusy(false);
    }
  }

  const count = countLabel(state.likes, 'like');
  const label = own ? `${count} (your video)` : `${state.liked ? 'Unlike' : 'Like'}, ${count}`;
  return (
    <span className={compact ? 'like like-compact' : 'like'}>
      <button
        type="button"
        className="like-button"
        aria-pressed={own ? undefined : state.liked}
        aria-label={label}
        aria-busy={busy || undefined}
        aria-describedby={error ? errorId : undefined}
        title={own ? OWN_VIDEO_TEXT : undefined}
        data-own={own || undefined}
        data-state={loading || (user && !data) ? 'loading' : user ? 'member' : 'visitor'}
        onClick={() => void toggle()}
      >
        <HeartIcon size={compact ? 16 : 18} />
        <span>{compact ? compactCount(state.likes) : count}</span>
      </button>
      {error && (
        <span id={errorId} className="like-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
