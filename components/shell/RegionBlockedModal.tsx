'use client';

import { useEffect, useState } from 'react';

import { onClientEvent } from '@/lib/client/http';

/**
 * Spec section 8: when an API call is refused for the visitor's region (403
 * with an HTML body), a full-screen 'Access Denied' modal explains why and
 * page scrolling is locked. The failed call's error still reaches its caller.
 */
export function RegionBlockedModal({ siteName }: { siteName: string }) {
  const [blocked, setBlocked] = useState<{ countryCode: string | null } | null>(null);

  useEffect(() => onClientEvent((event) => event.type === 'regionBlocked' && setBlocked({ countryCode: event.countryCode })), []);

  useEffect(() => {
    if (!blocked) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, [blocked]);

  if (!blocked) return null;
  return (
    <div className="region-blocked" role="alertdialog" aria-modal="true" aria-labelledby="region-blocked-title" aria-describedby="region-blocked-text">
      <div className="region-blocked-card">
        <h2 id="region-blocked-title">Access Denied</h2>
        <div id="region-blocked-text">
          <p>Access to {siteName} is restricted in your region.</p>
          {blocked.countryCode && <p>Your IP address appears to originate from {blocked.countryCode}.</p>}
          <p>
            This restriction is due to regulation in your region and the cost of the age verification services it requires, which small sites
            like ours cannot currently afford. We are looking for alternatives so that we can welcome you again.
          </p>
        </div>
      </div>
    </div>
  );
}
