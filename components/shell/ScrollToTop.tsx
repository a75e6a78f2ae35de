'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';

/** The spec: every route change scrolls to top, including a new search query. */
export function ScrollToTop() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [pathname, search]);
  return null;
}
