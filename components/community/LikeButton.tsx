'use client';

import { usePathname, useRouter } from 'next/navigation';
import { lazy, Suspense, useId } from 'react';

import { HeartIcon } from '@/components/icons';
import { useSession } from '@/components/session/SessionProvider';
import type { LikeStateDto } from '@/lib/api-types';
import { useHydrated } from '@/lib/client/use-hydrated';
import { compactCount, countLabel } from '@/lib/format/numbers';

export const OWN_VIDEO_TEXT = 'You cannot like your own video.';

// A member's state and toggling (with SWR) load once the session has a member: visitors never fetch them.
const MemberLikeButton = lazy(() => import('./MemberLikeButton').then((m) => ({ default: m.MemberLikeButton })));

export interface LikeButtonProps {
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

interface LikeViewProps {
  state: LikeStateDto;
  compact: boolean;
  own: boolean;
  busy?: boolean;
  error?: string | null;
  /**
   * `loading` until the page has hydrated, the session is known and a member's code has arrived: the button is
   * disabled and shown busy, since nothing could answer a click yet (issue 37). `fetching`: a member's button
   * whose own state is on its way; it takes a click and applies it when the state arrives.
   */
  phase: 'loading' | 'visitor' | 'fetching' | 'member';
  onClick?: () => void;
}

/** The button as everyone sees it: the count, and for members their state. */
export function LikeView({ state, compact, own, busy = false, error = null, phase, onClick }: LikeViewProps) {
  const errorId = useId();
  const count = countLabel(state.likes, 'like');
  const label = own ? `${count} (your video)` : `${state.liked ? 'Unlike' : 'Like'}, ${count}`;
  const waiting = phase === 'loading';
  return (
    <span className={compact ? 'like like-compact' : 'like'}>
      <button
        type="button"
        className="like-button"
        aria-pressed={own ? undefined : state.liked}
        aria-label={label}
        aria-busy={busy || waiting || phase === 'fetching' || undefined}
        aria-describedby={error ? errorId : undefined}
        disabled={waiting}
        title={own ? OWN_VIDEO_TEXT : undefined}
        data-own={own || undefined}
        data-state={phase}
        onClick={onClick}
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

/**
 * Like and unlike, as a client island over cached public pages: the server
 * renders the count for everyone, and once the session is known the
 * member's own state is filled in (MemberLikeButton). Visitors are sent to
 * log in and come back.
 */
export function LikeButton(props: LikeButtonProps) {
  const router = useRouter();
  const pathname = usePathname();
  const { loading, user } = useSession();
  const hydrated = useHydrated();
  const compact = props.compact ?? false;
  const own = Boolean(user && user._id === props.ownerId);
  if (user) {
    const waiting = (
      <LikeView
        state={{ liked: Boolean(props.likedBy?.includes(user._id)), likes: props.likes }}
        compact={compact}
        own={own}
        phase="loading"
      />
    );
    return (
      <Suspense fallback={waiting}>
        <MemberLikeButton {...props} />
      </Suspense>
    );
  }
  return (
    <LikeView
      state={{ liked: false, likes: props.likes }}
      compact={compact}
      own={false}
      phase={loading || !hydrated ? 'loading' : 'visitor'}
      onClick={() => router.push(`/login?next=${encodeURIComponent(pathname || '/')}`)}
    />
  );
}
