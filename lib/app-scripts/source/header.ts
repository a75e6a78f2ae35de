/**
 * The header works without the app's JavaScript bundles (decision 030: links load documents, so nothing in it needs
 * React state). Its two menus are popovers (`popover` + `popovertarget`): the browser opens and closes them, closes
 * them on Escape and on an outside click, and shows them in the top layer; CSS shows "Menu" or "Close" on the toggle
 * from the menu's state. Two inline scripts are compiled from this file (decision 044) and do the rest:
 *
 * - bootHeader, in <head>: listeners on the document, which need no element of the header yet: the categories list
 *   opens under its button and closes when the focus leaves it (the browser tells assistive technology whether a
 *   popover is open: `popovertarget` exposes the state `aria-expanded` would, and excludes it); widening past the breakpoint closes the mobile menu, whose toggle is then hidden; a search goes to
 *   /search?q=<trimmed, percent-encoded text> (a plain GET would send spaces as `+`) and a blank one goes nowhere.
 *   Without JavaScript the form is a plain GET to /search.
 * - readyHeader, right after the header's markup, before first paint: `aria-current="page"` on the nav links of this
 *   path (the page cache serves one HTML to every visitor; the root layout cannot know the path), and the URL's `?q=`
 *   in both search boxes.
 *
 * Only attributes, properties and inline styles change, never elements: React hydrates the tree the server sent (in
 * production it does not patch attribute differences).
 *
 * Functions of the document only, with their constants passed in: they run as inline scripts and, on the 404 pages
 * React draws in the browser, from ShellInBrowser, which sees from `data-header-ready` on <html> that the boot script
 * did not run.
 */
import { searchHref } from '../../site';

/** `wideMedia`: the media query past which the mobile menu's toggle is hidden (WIDE_HEADER_MEDIA, constants.ts). */
export function bootHeader(wideMedia: string): void {
  document.documentElement.dataset.headerReady = 'true';
  document.addEventListener(
    'beforetoggle',
    (event) => {
      const popover = event.target as HTMLElement;
      if ((event as ToggleEvent).newState !== 'open' || !popover.classList.contains('dropdown-menu')) return;
      const button = popover.id ? document.querySelector(`[popovertarget="${popover.id}"]`) : null;
      if (button) {
        const place = button.getBoundingClientRect();
        popover.style.top = `${place.bottom + 8}px`;
        popover.style.left = `${place.left}px`;
      }
    },
    // Capture: `beforetoggle` does not bubble.
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
    if (href) location.assign(href);
  });
  const wide = matchMedia(wideMedia);
  wide.addEventListener('change', () => {
    const menu = document.getElementById('mobile-menu');
    if (wide.matches && menu?.matches(':popover-open')) menu.hidePopover();
  });
}

export function readyHeader(): void {
  const path = location.pathname;
  for (const link of document.querySelectorAll('.nav-links a')) {
    if (link.getAttribute('href') === path) link.setAttribute('aria-current', 'page');
  }
  const query = new URLSearchParams(location.search).get('q');
  if (query === null) return;
  for (const input of document.querySelectorAll<HTMLInputElement>('.nav-search input')) input.value = query;
}
