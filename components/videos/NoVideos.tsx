'use client';

import Link from 'next/link';

import { VideoIcon } from '@/components/icons';
import { useHasStoredToken } from '@/lib/client/stored-session';

/** The spec's empty state: upload link for members, log-in link for visitors. */
export function NoVideos({ message = 'No videos available yet.' }: { message?: string }) {
  const loggedIn = useHasStoredToken();
  return (
    <div className="empty-state">
      <VideoIcon />
      <p>{message}</p>
      {loggedIn ? (
        <Link className="btn btn-primary" href="/upload">
          Upload a video
        </Link>
      ) : (
        <Link className="btn btn-primary" href="/login">
          Log in to upload
        </Link>
      )}
    </div>
  );
}
