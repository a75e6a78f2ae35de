'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';
import useSWR from 'swr';

import { useSession } from '@/components/session/SessionProvider';
import type { WatchLaterStateDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/http';

import { ClockIcon } from './ClockIcon';

/** The SWR key of the member's saved ids: one request per page however many cards it shows; per member, so another login never sees the last one's list. */
const idsKey = (memberId: string) => ['watch-later-ids', memberId] as const;
// An array, not a Set: SWR compares data with dequal/lite, which sees every two Sets as equal (no re-render after a change).
const fetchIds = async () => (await apiRequest<{ streamVideoIds: string[] }>('/api/users/me/watch-later/ids')).streamVideoIds;

/**
 * Save to / remove from Watch later, as a client island over cached public
 * pages: cards show it over the thumbnail (compact), the video page as a
 * labelled button. The member's saved ids come from one shared request; a
 * click shows the new state at once and rolls back with the server's
 * message if the call fails. Visitors are sent to log in and come back.
 */
export function WatchLaterButton({ streamVideoId, title, compact = false }: { streamVideoId: string; title: string; compact?: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const { loading, user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const pending = useRef(false);
  const errorId = useId();
  const { data: ids, mutate } = useSWR(user ? idsKey(user._id) : null, fetchIds, { revalidateOnFocus: false, shouldRetryOnError: false });
  const saved = Boolean(user && ids?.includes(streamVideoId));

  async function toggle() {
    if (loading || pending.current || (user && !ids)) return;
    if (!user) {
      router.push(`/login?next=${encodeURIComponent(pathname || '/')}`);
      return;
    }
    const next = saved ? (ids ?? []).filter((id) => id !== streamVideoId) : [streamVideoId, ...(ids ?? [])];
    pending.current = true;
    setError(null);
    try {
      await mutate(
        apiRequest<WatchLaterStateDto>(`/api/videos/${streamVideoId}/watch-later`, { method: saved ? 'DELETE' : 'PUT' }).then(() => next),
        { optimisticData: next, rollbackOnError: true, populateCache: true, revalidate: false },
      );
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : saved ? 'Could not remove the video from Watch later.' : 'Could not save the video to Watch later.');
    } finally {
      pending.current = false;
    }
  }

  const label = saved ? `Remove “${title}” from Watch later` : `Save “${title}” to Watch later`;
  return (
    <span className={compact ? 'watch-later watch-later-compact' : 'watch-later'}>
      <button
        type="button"
        className="watch-later-button"
        aria-pressed={saved}
        aria-label={compact ? label : undefined}
        aria-describedby={error ? errorId : undefined}
        title={compact ? (saved ? 'Saved to Watch later' : 'Watch later') : undefined}
        data-state={loading || (user && !ids) ? 'loading' : user ? 'member' : 'visitor'}
        onClick={() => void toggle()}
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
