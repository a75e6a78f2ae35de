'use client';

import { useEffect } from 'react';

/** The 'Access Denied' modal of RegionBlockedModal, loaded only once a call was refused for the region. */
export function RegionBlockedDialog({ siteName, countryCode }: { siteName: string; countryCode: string | null }) {
  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  return (
    <div
      className="region-blocked"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="region-blocked-title"
      aria-describedby="region-blocked-text"
    >
      <div className="region-blocked-card">
        <h2 id="region-blocked-title">Access Denied</h2>
        <div id="region-blocked-text">
          <p>Access to {siteName} is restricted in your region.</p>
          {countryCode && <p>Your IP address appears to originate from {countryCode}.</p>}
          <p>
            This restriction is due to regulation in your region and the cost of the age verification services it requires, which
            small sites like ours cannot currently afford. We are looking for alternatives so that we can welcome you again.
          </p>
        </div>
      </div>
    </div>
  );
}
