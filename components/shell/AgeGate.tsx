'use client';

import { useEffect, useRef, type ReactNode } from 'react';

import { useStoredValue, writeStorage } from '@/lib/client/browser-store';
import { EXIT_URL } from '@/lib/site';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * Wraps the whole app. Until the visitor confirms they are 18 or older (once
 * per browser session), the app is blurred and `inert` (no focus, no clicks)
 * and a modal asks. The server always renders the gate closed over the app;
 * an inline script in <head> hides it before first paint for visitors who
 * already confirmed this session (see age-gate-boot.ts).
 */
export function AgeGate({ siteName, logo, children }: { siteName: string; logo: ReactNode; children: ReactNode }) {
  const confirmed = useStoredValue('sessionStorage', STORAGE_KEYS.ageConfirmed) === 'true';
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirmed) document.documentElement.dataset.ageConfirmed = 'true';
    else {
      delete document.documentElement.dataset.ageConfirmed;
      confirmButton.current?.focus();
    }
  }, [confirmed]);

  return (
    <>
      <div className="app-root" inert={!confirmed}>
        {children}
      </div>
      {!confirmed && (
        <div className="age-gate" role="dialog" aria-modal="true" aria-labelledby="age-gate-title" aria-describedby="age-gate-desc">
          <div className="age-gate-card">
            {logo}
            <h2 id="age-gate-title">This site is for adults only</h2>
            <p id="age-gate-desc">
              {siteName} contains sexually explicit material made by and for adults. Please confirm that you are at
              least 18 years old and that viewing adult content is legal where you are.
            </p>
            <div className="age-gate-actions">
              <button
                ref={confirmButton}
                type="button"
                className="btn btn-primary"
                onClick={() => writeStorage('sessionStorage', STORAGE_KEYS.ageConfirmed, 'true')}
              >
                Yes, I am 18 or older
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => window.location.assign(EXIT_URL)}>
                No, Exit Site
              </button>
            </div>
            <p className="age-gate-fine">
              Your answer is remembered until you close this browser session.
            </p>
            <noscript>
              <p>Please enable JavaScript to confirm your age and enter the site.</p>
            </noscript>
          </div>
        </div>
      )}
    </>
  );
}
