import { STORAGE_KEYS } from '@/lib/storage-keys';

/**
 * The age gate runs without the app's JavaScript bundles (decision 030): a visitor on a slow phone can
 * answer it as soon as it is painted, not after React has loaded and hydrated, and the gate costs no
 * first-load JavaScript. Two constant inline scripts, allowed by hash (lib/http/page-policy.ts):
 *
 * - AGE_GATE_BOOT_SCRIPT, in <head>, before first paint: marks <html data-age-confirmed> when this browser
 *   session already confirmed (CSS then hides the gate and the blur without a flash), and answers the
 *   gate's two buttons wherever they are (one click listener on the document): "Yes" remembers the answer
 *   for the browser session and opens the app; "No" leaves for the exit address the button names.
 * - AGE_GATE_READY_SCRIPT, right after the gate's markup: opens the app for a confirmed session (removes
 *   `inert`), or puts the focus on "Yes".
 *
 * Only attributes change, never elements: React hydrates the same tree the server sent.
 *
 * Next sends its 404 pages without server HTML (React draws them in the browser from the payload), and
 * inline scripts React inserts never run: there ShellInBrowser installs the same behaviour, once the boot
 * script's mark (`data-age-gate-ready` on <html>) shows it did not run.
 */
const KEY = JSON.stringify(STORAGE_KEYS.ageConfirmed);

export const AGE_GATE_BOOT_SCRIPT =
  `(function(){var d=document,h=d.documentElement;h.dataset.ageGateReady='true';` +
  `try{if(sessionStorage.getItem(${KEY})==='true')h.dataset.ageConfirmed='true'}catch(e){}` +
  `d.addEventListener('click',function(e){var b=e.target&&e.target.closest&&e.target.closest('[data-age-gate]');if(!b)return;` +
  `if(b.dataset.ageGate==='exit'){location.assign(b.dataset.exitUrl);return}` +
  `try{sessionStorage.setItem(${KEY},'true')}catch(x){}` +
  `h.dataset.ageConfirmed='true';var a=d.querySelector('.app-root');if(a)a.removeAttribute('inert')})})()`;

export const AGE_GATE_READY_SCRIPT =
  `(function(){var d=document;if(d.documentElement.dataset.ageConfirmed){var a=d.querySelector('.app-root');if(a)a.removeAttribute('inert')}` +
  `else{var y=d.querySelector('[data-age-gate=confirm]');if(y)y.focus()}})()`;
