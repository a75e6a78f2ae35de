/**
 * Speculation rules (decision 030): links are plain <a href> and navigate as documents, so the browser, not Next's
 * router, fetches the next page early. `moderate` prefetches a same-site page once the pointer rests on its link (or
 * presses it, on a touch screen): no requests for links merely in view, which next/link made for every card on a
 * phone's bandwidth. Prefetch only, never prerender: a prerendered video page would run its scripts (and count a view)
 * for a page nobody opened. API paths and the media files are left out; links marked nofollow (sort and filter
 * controls, member text) too.
 *
 * Written into the page as JSON (generated.ts, decision 044); the Content-Security-Policy governs it like a script.
 */
export const SPECULATION_RULES = {
  prefetch: [
    {
      where: {
        and: [
          { href_matches: '/*' },
          { not: { href_matches: '/api/*' } },
          { not: { href_matches: '/media/*' } },
          { not: { selector_matches: '[rel~="nofollow"], [download], [target="_blank"]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
};
