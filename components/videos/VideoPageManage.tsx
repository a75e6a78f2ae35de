'use client';

import { lazy, Suspense } from 'react';

import { useSession } from '@/components/session/SessionProvider';

import type { ManagedVideo } from './VideoManage';

// The owner's tools and their edit form (react-hook-form, zod) load only for those who may use them: the
// page's visitors never fetch them.
const VideoPageOwnerTools = lazy(() => import('./VideoPageOwnerTools').then((m) => ({ default: m.VideoPageOwnerTools })));

/** The video page's Edit and Delete, for its owner and admins only. */
export function VideoPageManage({ video }: { video: ManagedVideo }) {
  const { user } = useSession();
  if (!user || (user._id !== video.ownerId && !user.isAdmin)) return null;
  return (
    <Suspense fallback={null}>
      <VideoPageOwnerTools video={video} user={user} />
    </Suspense>
  );
}
