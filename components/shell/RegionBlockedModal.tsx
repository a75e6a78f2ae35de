'use client';

import { lazy, Suspense, useEffect, useState } from 'react';

import { onClientEvent } from '@/lib/client/client-events';

// Almost nobody sees it: the dialog's markup loads with the first refusal, not with every page.
const RegionBlockedDialog = lazy(() => import('./RegionBlockedDialog').then((m) => ({ default: m.RegionBlockedDialog })));

/**
 * Spec section 8: when an API call is refused for the visitor's region (403
 * with an HTML body), a full-screen 'Access Denied' modal explains why and
 * page scrolling is locked. The failed call's error still reaches its caller.
 */
export function RegionBlockedModal({ siteName }: { siteName: string }) {
  const [blocked, setBlocked] = useState<{ countryCode: string | null } | null>(null);

  useEffect(() => onClientEvent((event) => event.type === 'regionBlocked' && setBlocked({ countryCode: event.countryCode })), []);

  if (!blocked) return null;
  return (
    <Suspense fallback={null}>
      <RegionBlockedDialog siteName={siteName} countryCode={blocked.countryCode} />
    </Suspense>
  );
}
