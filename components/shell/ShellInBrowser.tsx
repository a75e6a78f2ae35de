'use client';

import { useEffect } from 'react';

import { AGE_CONFIRMED_KEY, WIDE_HEADER_MEDIA } from '@/lib/app-scripts/constants';
import { bootAgeGate, readyAgeGate } from '@/lib/app-scripts/source/age-gate';
import { bootHeader, readyHeader } from '@/lib/app-scripts/source/header';

/**
 * The root layout's inline scripts (lib/app-scripts/source/age-gate.ts, header.ts) for a document React drew in the browser,
 * where they never ran: Next's 404 pages. The same functions the scripts are compiled from, called with the same
 * constants, once each boot script's mark on <html> shows it did not run. Rendered by the not-found page only.
 */
export function ShellInBrowser() {
  useEffect(() => {
    const root = document.documentElement;
    if (!root.dataset.ageGateReady) {
      bootAgeGate(AGE_CONFIRMED_KEY);
      readyAgeGate();
    }
    if (!root.dataset.headerReady) {
      bootHeader(WIDE_HEADER_MEDIA);
      readyHeader();
    }
  }, []);
  return null;
}
