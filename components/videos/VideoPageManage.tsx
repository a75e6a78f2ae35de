'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

import { StatusLine, type Status } from '@/components/account/form-parts';
import { useSession } from '@/components/session/SessionProvider';

import { VideoManage, type ManagedVideo } from './VideoManage';

/**
 * The video page's Edit and Delete (owner and admins): after a save the page
 * is rendered again from the server (a client navigation, never the public
 * cache); after a delete the owner goes to "Your videos", an admin home.
 */
export function VideoPageManage({ video }: { video: ManagedVideo }) {
  const router = useRouter();
  const { user } = useSession();
  const [status, setStatus] = useState<Status>(null);
  return (
    <>
      <VideoManage
        video={video}
        onSaved={(message) => {
          setStatus({ ok: true, text: message });
          router.refresh();
        }}
        onDeleted={() => router.push(user?._id === video.ownerId ? '/upload#your-videos' : '/')}
      />
      {status && (
        <div className="video-manage-status">
          <StatusLine status={status} />
        </div>
      )}
    </>
  );
}
