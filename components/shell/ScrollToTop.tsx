'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useRef } from 'react';

/**
 * The spec: every route change scrolls to top, including a new search query (not the first load: the browser owns
 * that). Links load documents; this serves the router's pushes (log in, upload, logout, a notification), after which
 * the header's menus (popovers the layout keeps across a push) close too, as they would on a new document.
 */
export function ScrollToTop() {
  const route = `${usePathname()}?${useSearchParams().toString()}`;
  const previous = useRef(route);
  useEffect(() => {
    if (previous.current === route) return;
    previous.current = route;
    document.querySelectorAll<HTMLElement>('.site-header :popover-open').forEach((popover) => popover.hidePopover());
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [route]);
  return null;
}
