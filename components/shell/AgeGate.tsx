import type { ReactNode } from 'react';

import { AGE_GATE_READY_SCRIPT } from '@/lib/app-scripts/generated';

import { AgeGateDialog } from './AgeGateDialog';

/**
 * Wraps the whole app. Until the visitor confirms they are 18 or older (once
 * per browser session), the app is blurred and `inert` (no focus, no clicks)
 * and a modal asks. The server always renders the gate closed over the app;
 * its buttons are answered by the inline scripts of lib/app-scripts/source/age-gate.ts, which
 * also open the app at once for visitors who already confirmed this session:
 * no React state, so the gate works before the bundles have loaded.
 */
export function AgeGate({ siteName, children }: { siteName: string; children: ReactNode }) {
  return (
    <>
      {/* The inline script below removes `inert` for a confirmed session before React hydrates. */}
      <div className="app-root" inert suppressHydrationWarning>
        {children}
      </div>
      <AgeGateDialog siteName={siteName} />
      <script dangerouslySetInnerHTML={{ __html: AGE_GATE_READY_SCRIPT.text }} />
    </>
  );
}
