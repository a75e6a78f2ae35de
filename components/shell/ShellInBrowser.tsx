'use client';

import { useEffect } from 'react';

import { EXIT_URL, searchHref } from '@/lib/site';
import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * The root layout's inline scripts (age-gate-boot.ts, header-script.ts) for a document React drew in the browser,
 * where they never ran: Next's 404 pages. Each part does nothing when its script's mark on <html> shows the script
 * ran. Rendered by the not-found page only.
 */
export function ShellInBrowser() {
  useEffect(() => {
    const root = document.documentElement;
    if (!root.dataset.ageGateReady) {
      root.dataset.ageGateReady = 'true';
      answerAgeGate(root);
    }
    if (!root.dataset.headerReady) {
      root.dataset.headerReady = 'true';
      answerHeader();
    }
  }, []);
  return null;
}

/** AGE_GATE_BOOT_SCRIPT and AGE_GATE_READY_SCRIPT. */
function answerAgeGate(root: HTMLElement) {
  const open = () => {
    root.dataset.ageConfirmed = 'true';
    document.querySelector('.app-root')?.removeAttribute('inert');
  };
  try {
    if (window.sessionStorage.getItem(STORAGE_KEYS.ageConfirmed) === 'true') open();
  } catch {}
  // The focus on "Yes": the dialog's own (AgeGateDialog), whose code may arrive after this.
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-age-gate]');
    if (!button) return;
    if (button.dataset.ageGate === 'exit') return window.location.assign(EXIT_URL);
    try {
      window.sessionStorage.setItem(STORAGE_KEYS.ageConfirmed, 'true');
    } catch {}
    open();
  });
}

/** HEADER_BOOT_SCRIPT (HEADER_READY_SCRIPT has nothing to do on a 404 page: no nav link is for its path). */
function answerHeader() {
  document.addEventListener(
    'beforetoggle',
    (event) => {
      const popover = event.target as HTMLElement;
      const button = popover.id ? document.querySelector(`[popovertarget="${popover.id}"]`) : null;
      if (!button) return;
      const open = (event as ToggleEvent).newState === 'open';
      button.setAttribute('aria-expanded', String(open));
      if (open && popover.classList.contains('dropdown-menu')) {
        const place = button.getBoundingClientRect();
        popover.style.top = `${place.bottom + 8}px`;
        popover.style.left = `${place.left}px`;
      }
    },
    true,
  );
  document.addEventListener('focusout', (event) => {
    const dropdown = (event.target as Element).closest?.('.dropdown');
    const next = event.relatedTarget as Node | null;
    const open = dropdown?.querySelector<HTMLElement>(':popover-open');
    if (open && next && !dropdown!.contains(next)) open.hidePopover();
  });
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.matches('.nav-search')) return;
    event.preventDefault();
    const href = searchHref((form.elements.namedItem('q') as HTMLInputElement).value);
    if (href) window.location.assign(href);
  });
  const wide = window.matchMedia('(min-width: 1024px)');
  wide.addEventListener('change', () => {
    const menu = document.getElementById('mobile-menu');
    if (wide.matches && menu?.matches(':popover-open')) menu.hidePopover();
  });
}
