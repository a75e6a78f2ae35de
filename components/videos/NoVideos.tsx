'use client';

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
        <a className="btn btn-primary" href="/upload">
          Upload a video
        </a>
      ) : (
        <a className="btn btn-primary" href="/login">
          Log in to upload
        </a>
      )}
    </div>
  );
}
