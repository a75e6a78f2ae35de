'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';

import { StatusLine, type Status } from '@/components/account/form-parts';
import type { SessionUser } from '@/components/session/SessionProvider';
import type { OwnVideoDto, PendingTextEditDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

import { VideoManage, type ManagedVideo } from './VideoManage';

/**
 * The video page's Edit and Delete for its owner or an admin (VideoPageManage loads this for them): after a
 * save the page of a live video is rendered again from the server (a client navigation, never the public
 * cache); after a delete the owner goes to "Your videos", an admin home. The page is the public one, so the owner's
 * text waiting for review (decision 009) is asked of the API.
 */
export function VideoPageOwnerTools({ video, user }: { video: ManagedVideo; user: SessionUser }) {
  const router = useRouter();
  const [status, setStatus] = useState<Status>(null);
  const owner = user._id === video.ownerId;
  const [pendingEdit, setPendingEdit] = useState<PendingTextEditDto | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    apiRequest<{ video: OwnVideoDto }>(`/api/videos/${encodeURIComponent(video.streamVideoId)}`).then(
      ({ video: own }) => current && setPendingEdit(own.pendingEdit ?? null),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [video.streamVideoId]);
  return (
    <>
      <VideoManage
        video={{ ...video, pendingEdit }}
        onSaved={({ message, video: saved }) => {
          setStatus({ ok: true, text: message });
          setPendingEdit(saved.pendingEdit);
          // What went live (a category, an admin's edit) shows at once; text waiting for review does not change the page.
          router.refresh();
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
