'use client';

import { lazy, Suspense } from 'react';

import { useSession } from '@/components/session/SessionProvider';

// Asking the API (with SWR) is for members only: a visitor's 404 never loads it.
const MemberOwnerPreview = lazy(() => import('./MemberOwnerPreview').then((m) => ({ default: m.MemberOwnerPreview })));

/**
 * The video page's 404 is cached and the same for everyone; a video that is not public yet is a 404 to the page.
 * Its owner (and admins) get a preview instead (MemberOwnerPreview), which hides the 404's own section (a CSS rule
 * beside `.not-found`). A deferred island (DeferredOwnerPreview): nothing in the server's markup, the session decides.
 */
export function OwnerPreview() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <MemberOwnerPreview />
    </Suspense>
  );
}
