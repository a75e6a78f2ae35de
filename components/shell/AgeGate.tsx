import type { ReactNode } from 'react';

import { EXIT_URL } from '@/lib/site';

import { AGE_GATE_READY_SCRIPT } from './age-gate-boot';

/**
 * Wraps the whole app. Until the visitor confirms they are 18 or older (once
 * per browser session), the app is blurred and `inert` (no focus, no clicks)
 * and a modal asks. The server always renders the gate closed over the app;
 * its buttons are answered by the inline scripts of age-gate-boot.ts, which
 * also open the app at once for visitors who already confirmed this session:
 * no React state, so the gate works before the bundles have loaded.
 */
export function AgeGate({ siteName, logo, children }: { siteName: string; logo: ReactNode; children: ReactNode }) {
  return (
    <>
      {/* The inline script below removes `inert` for a confirmed session before React hydrates. */}
      <div className="app-root" inert suppressHydrationWarning>
        {children}
      </div>
      <div className="age-gate" role="dialog" aria-modal="true" aria-labelledby="age-gate-title" aria-describedby="age-gate-desc">
        <div className="age-gate-card">
          {logo}
          <h2 id="age-gate-title">This site is for adults only</h2>
          <p id="age-gate-desc">
            {siteName} contains sexually explicit material made by and for adults. Please confirm that you are at
            least 18 years old and that viewing adult content is legal where you are.
          </p>
          <div className="age-gate-actions">
            <button type="button" className="btn btn-primary" data-age-gate="confirm">
              Yes, I am 18 or older
            </button>
            <button type="button" className="btn btn-ghost" data-age-gate="exit" data-exit-url={EXIT_URL}>
              No, Exit Site
            </button>
          </div>
          <p className="age-gate-fine">Your answer is remembered until you close this browser session.</p>
          <noscript>
            <p>Please enable JavaScript to confirm your age and enter the site.</p>
          </noscript>
        </div>
      </div>
      <script dangerouslySetInnerHTML={{ __html: AGE_GATE_READY_SCRIPT }} />
    </>
  );
}
