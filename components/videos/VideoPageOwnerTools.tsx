'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

import { StatusLine, type Status } from '@/components/account/form-parts';
import type { SessionUser } from '@/components/session/SessionProvider';

import { VideoManage, type ManagedVideo } from './VideoManage';

/**
 * The video page's Edit and Delete for its owner or an admin (VideoPageManage loads this for them): after a
 * save the page of a live video is rendered again from the server (a client navigation, never the public
 * cache); after a delete the owner goes to "Your videos", an admin home.
 */
export function VideoPageOwnerTools({ video, user }: { video: ManagedVideo; user: SessionUser }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(null);
  const owner = user._id === video.ownerId;
  return (
    <>
      <VideoManage
        video={video}
        onSaved={({ message, video: saved }) => {
          setStatus({ ok: true, text: message });
          // A live video shows its new details at once; one sent back to review is not public now, so the page stays as it is with the message.
          if (saved.moderationStatus === 'approved') router.refresh();
        }}
        onDeleted={() => router.push(owner ? '/upload#your-videos' : '/')}
      />
      {/* Who appears in it (decision 015): the owner declares or completes the records there. */}
      {owner && (
        <a href={`/upload/performers/${video.streamVideoId}`} className="video-manage-link">
          Performer records
        </a>
      )}
      {status && (
        <div className="video-manage-status">
          <StatusLine status={status} />
          {owner && (
            <a href="/upload#your-videos" className="video-manage-link">
              Your videos
            </a>
          )}
        </div>
      )}
    </>
  );
}
