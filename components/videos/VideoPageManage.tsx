'use client';

import { useRouter } from 'next/navigation';
import { lazy, Suspense, useState } from 'react';

import { StatusLine, type Status } from '@/components/account/form-parts';
import { useSession } from '@/components/session/SessionProvider';

import type { ManagedVideo } from './VideoManage';

// The edit form (react-hook-form, zod) loads only for those who may use it: the page's visitors never fetch it.
const VideoManage = lazy(() => import('./VideoManage').then((m) => ({ default: m.VideoManage })));

/**
 * The video page's Edit and Delete (owner and admins): after a save the page
 * of a live video is rendered again from the server (a client navigation,
 * never the public cache); after a delete the owner goes to "Your videos", an admin home.
 */
export function VideoPageManage({ video }: { video: ManagedVideo }) {
  const router = useRouter();
  const { user } = useSession();
  const [status, setStatus] = useState<Status>(null);
  if (!user || (user._id !== video.ownerId && !user.isAdmin)) return null;
  return (
    <>
      <Suspense fallback={null}>
        <VideoManage
          video={video}
          onSaved={({ message, video: saved }) => {
            setStatus({ ok: true, text: message });
            // A live video shows its new details at once; one sent back to review is not public now, so the page stays as it is with the message.
            if (saved.moderationStatus === 'approved') router.refresh();
          }}
          onDeleted={() => router.push(user._id === video.ownerId ? '/upload#your-videos' : '/')}
        />
      </Suspense>
      {/* Who appears in it (decision 015): the owner declares or completes the records there. */}
      {user._id === video.ownerId && (
        <a href={`/upload/performers/${video.streamVideoId}`} className="video-manage-link">
          Performer records
        </a>
      )}
      {status && (
        <div className="video-manage-status">
          <StatusLine status={status} />
          {user._id === video.ownerId && (
            <a href="/upload#your-videos" className="video-manage-link">
              Your videos
            </a>
          )}
        </div>
      )}
    </>
  );
}
