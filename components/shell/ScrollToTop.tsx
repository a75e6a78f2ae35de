'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useRef } from 'react';

/** The spec: every route change scrolls to top, including a new search query (not the first load: the browser owns that). */
export function ScrollToTop() {
  const route = `${usePathname()}?${useSearchParams().toString()}`;
  const previous = useRef(route);
  useEffect(() => {
    if (previous.current === route) return;
    previous.current = route;
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [route]);
  return null;
}
