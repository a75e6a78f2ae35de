'use client';

import { useEffect } from 'react';

import { EXIT_URL } from '@/lib/site';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * The age gate's inline scripts (age-gate-boot.ts) for a document React drew in the browser, where they never
 * ran: Next's 404 pages. Rendered by the not-found page only, so other pages do not carry it.
 */
export function AgeGateInBrowser() {
  useEffect(() => {
    const root = document.documentElement;
    if (root.dataset.ageGateReady) return; // the boot script ran: it already answers the gate
    root.dataset.ageGateReady = 'true';
    const open = () => {
      root.dataset.ageConfirmed = 'true';
      document.querySelector('.app-root')?.removeAttribute('inert');
    };
    try {
      if (window.sessionStorage.getItem(STORAGE_KEYS.ageConfirmed) === 'true') open();
    } catch {}
    if (!root.dataset.ageConfirmed) document.querySelector<HTMLButtonElement>('[data-age-gate=confirm]')?.focus();
    document.addEventListener('click', (event) => {
      const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-age-gate]');
      if (!button) return;
      if (button.dataset.ageGate === 'exit') return window.location.assign(EXIT_URL);
      try {
        window.sessionStorage.setItem(STORAGE_KEYS.ageConfirmed, 'true');
      } catch {}
      open();
    });
  }, []);
  return null;
}
