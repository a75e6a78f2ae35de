/**
 * The age gate, answered without the app's JavaScript bundles (decision 030): a visitor on a slow phone can answer
 * it as soon as it is painted, not after React has loaded and hydrated, and the gate costs no first-load JavaScript.
 * Two inline scripts are compiled from this file (decision 044):
 *
 * - bootAgeGate, in <head>, before first paint: marks <html data-age-confirmed> when this browser session already
 *   confirmed (CSS then hides the gate and the blur without a flash), and answers the gate's two buttons wherever
 *   they are (one click listener on the document): "Yes" remembers the answer for the browser session and opens the
 *   app; "No" leaves for the exit address the button names.
 * - readyAgeGate, right after the gate's markup: opens the app for a confirmed session (removes `inert`), or puts the
 *   focus on "Yes".
 *
 * Only attributes change, never elements: React hydrates the same tree the server sent.
 *
 * Functions of the document only, with their constants passed in: they run as inline scripts and, on the 404 pages
 * React draws in the browser, from ShellInBrowser, which sees from `data-age-gate-ready` on <html> that the boot
 * script did not run.
 */

/** `storageKey`: where the answer is kept (AGE_CONFIRMED_KEY, constants.ts). */
export function bootAgeGate(storageKey: string): void {
  const root = document.documentElement;
  root.dataset.ageGateReady = 'true';
  try {
    if (sessionStorage.getItem(storageKey) === 'true') root.dataset.ageConfirmed = 'true';
  } catch {
    // Storage refused (a privacy mode): the gate asks again, as for a new session.
  }
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-age-gate]');
    if (!button) return;
    if (button.dataset.ageGate === 'exit') {
      location.assign(button.dataset.exitUrl!);
      return;
    }
    try {
      sessionStorage.setItem(storageKey, 'true');
    } catch {
      // Not remembered: this page opens all the same.
    }
    root.dataset.ageConfirmed = 'true';
    openApp();
  });
}

export function readyAgeGate(): void {
  if (document.documentElement.dataset.ageConfirmed) openApp();
  else document.querySelector<HTMLElement>('[data-age-gate=confirm]')?.focus();
}

function openApp(): void {
  document.querySelector('.app-root')?.removeAttribute('inert');
}
