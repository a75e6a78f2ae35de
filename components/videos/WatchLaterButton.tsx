'use client';

import { usePathname, useRouter } from 'next/navigation';
import { lazy, Suspense, useId } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import { useHydrated } from '@/lib/client/use-hydrated';

import { ClockIcon } from './ClockIcon';

// A member's saved list and toggling (with SWR) load once the session has a member: visitors never fetch them.
const MemberWatchLaterButton = lazy(() =>
  import('./MemberWatchLaterButton').then((m) => ({ default: m.MemberWatchLaterButton })),
);

export interface WatchLaterButtonProps {
  streamVideoId: string;
  title: string;
  /** Cards show it over the thumbnail, icon only; the video page as a labelled button. */
  compact?: boolean;
}

interface WatchLaterViewProps extends WatchLaterButtonProps {
  saved: boolean;
  error?: string | null;
  /**
   * `loading` until the page has hydrated, the session is known and a member's code has arrived: disabled and shown
   * busy, since nothing could answer a click yet (issue 37). `fetching`: a member's button whose saved list is on its
   * way; it takes a click and applies it when the list arrives.
   */
  phase: 'loading' | 'visitor' | 'fetching' | 'member';
  busy?: boolean;
  onClick?: () => void;
}

/** The button as everyone sees it. */
export function WatchLaterView({
  title,
  compact = false,
  saved,
  error = null,
  phase,
  busy = false,
  onClick,
}: WatchLaterViewProps) {
  const errorId = useId();
  const label = saved ? `Remove “${title}” from Watch later` : `Save “${title}” to Watch later`;
  return (
    <span className={compact ? 'watch-later watch-later-compact' : 'watch-later'}>
      <button
        type="button"
        className="watch-later-button"
        aria-pressed={saved}
        aria-label={compact ? label : undefined}
        aria-describedby={error ? errorId : undefined}
        aria-busy={busy || phase === 'loading' || phase === 'fetching' || undefined}
        disabled={phase === 'loading'}
        title={compact ? (saved ? 'Saved to Watch later' : 'Watch later') : undefined}
        data-state={phase}
        onClick={onClick}
      >
        <ClockIcon filled={saved} />
        {!compact && <span>{saved ? 'Saved to Watch later' : 'Watch later'}</span>}
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
 * Save to / remove from Watch later, as a client island over cached public
 * pages: cards show it over the thumbnail (compact), the video page as a
 * labelled button. A member's state comes with MemberWatchLaterButton;
 * visitors are sent to log in and come back.
 */
export function WatchLaterButton(props: WatchLaterButtonProps) {
  const router = useRouter();
  const pathname = usePathname();
  const { loading, user } = useSession();
  const hydrated = useHydrated();
  if (user) {
    return (
      <Suspense fallback={<WatchLaterView {...props} saved={false} phase="loading" />}>
        <MemberWatchLaterButton {...props} />
      </Suspense>
    );
  }
  return (
    <WatchLaterView
      {...props}
      saved={false}
      phase={loading || !hydrated ? 'loading' : 'visitor'}
      onClick={() => router.push(`/login?next=${encodeURIComponent(pathname || '/')}`)}
    />
  );
}
