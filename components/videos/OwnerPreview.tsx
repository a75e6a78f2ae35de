'use client';

import { lazy, Suspense, type ReactNode } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// Asking the API (with SWR) is for members only: a visitor's 404 never loads it.
const MemberOwnerPreview = lazy(() => import('./MemberOwnerPreview').then((m) => ({ default: m.MemberOwnerPreview })));

/**
 * The video page's 404 is cached and the same for everyone; a video that is
 * not public yet is a 404 to the page. Its owner (and admins) get a preview
 * here instead (MemberOwnerPreview).
 */
export function OwnerPreview({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (!user) return <>{children}</>;
  return (
    <Suspense fallback={children}>
      <MemberOwnerPreview>{children}</MemberOwnerPreview>
    </Suspense>
  );
}
