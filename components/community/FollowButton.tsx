'use client';

import { usePathname, useRouter } from 'next/navigation';
import { lazy, Suspense, useId } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { FollowStateDto } from '@/lib/api-types';
import { useHydrated } from '@/lib/client/use-hydrated';

// A member's state and toggling (with SWR) load once the session has a member: visitors never fetch them.
const MemberFollowButton = lazy(() => import('./MemberFollowButton').then((m) => ({ default: m.MemberFollowButton })));

export interface FollowButtonProps {
  username: string;
  /** The state the server rendered, when it knows it. */
  initial?: FollowStateDto | null;
  /** The smaller button (the video page, suggestion lists). */
  small?: boolean;
  className?: string;
}

/** The space the button takes while nothing true can be shown yet, so nothing jumps. */
export function FollowPlaceholder({ small }: { small: boolean }) {
  return <span className={`follow follow-placeholder${small ? ' follow-small' : ''}`} aria-hidden="true" />;
}

interface FollowViewProps {
  username: string;
  following: boolean;
  /** Members get a toggle (aria-pressed); visitors a button that sends them to log in. */
  member: boolean;
  busy?: boolean;
  /** Nothing can answer a click yet (the page is hydrating, the session or the member's code is on its way): disabled and busy. */
  waiting?: boolean;
  error?: string | null;
  small: boolean;
  className?: string;
  onClick?: () => void;
}

/** Follow / Following as everyone sees it. */
export function FollowView({
  username,
  following,
  member,
  busy = false,
  waiting = false,
  error = null,
  small,
  className,
  onClick,
}: FollowViewProps) {
  const errorId = useId();
  return (
    <span className={`follow${small ? ' follow-small' : ''}${className ? ` ${className}` : ''}`}>
      <button
        type="button"
        className={`btn follow-button ${following ? 'btn-ghost' : 'btn-primary'}${small ? ' btn-small' : ''}`}
        aria-pressed={member ? following : undefined}
        aria-busy={busy || waiting || undefined}
        aria-describedby={error ? errorId : undefined}
        disabled={waiting}
        title={following ? `Unfollow ${username}` : `Follow ${username}`}
        data-testid="follow-button"
        onClick={onClick}
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

/**
 * Follow / Following, a toggle button (aria-pressed) for members (MemberFollowButton, loaded once the
 * session has one). Visitors are sent to log in and come back here; on your own profile or video there is
 * no button.
 */
export function FollowButton(props: FollowButtonProps) {
  const router = useRouter();
  const pathname = usePathname();
  const { loading, user } = useSession();
  const hydrated = useHydrated();
  const small = props.small ?? false;
  if (user) {
    if (user.username.toLowerCase() === props.username.toLowerCase()) return null;
    // Not a button yet: a click before the member's code is here would do nothing.
    return (
      <Suspense fallback={<FollowPlaceholder small={small} />}>
        <MemberFollowButton {...props} />
      </Suspense>
    );
  }
  // Until the session is known, a click could only guess whether to log in.
  const waiting = loading || !hydrated;
  if (waiting && !props.initial) return <FollowPlaceholder small={small} />;
  return (
    <FollowView
      username={props.username}
      following={false}
      member={false}
      waiting={waiting}
      small={small}
      className={props.className}
      onClick={() => router.push(`/login?next=${encodeURIComponent(pathname || '/')}`)}
    />
  );
}
