'use client';

import { useEffect } from 'react';

/**
 * Puts the focus on the age gate's "Yes" where its inline script (AGE_GATE_READY_SCRIPT) never ran: a document React
 * drew in the browser (Next's 404 pages), whose inline scripts are inert. On a server-rendered page the script has
 * already done it, and a focus the visitor has since moved is left where it is.
 */
export function AgeGateFocus() {
  useEffect(() => {
    if (document.documentElement.dataset.ageConfirmed) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    document.querySelector<HTMLElement>('[data-age-gate="confirm"]')?.focus();
  }, []);
  return null;
}
