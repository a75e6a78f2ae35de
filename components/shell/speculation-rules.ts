/**
 * Speculation rules (decision 030): links are plain <a href> and navigate as documents, so the browser, not
 * Next's router, fetches the next page early. `moderate` prefetches a same-site page once the pointer rests on its
 * link (or presses it, on a touch screen): no requests for links merely in view, which next/link made for every
 * card on a phone's bandwidth. Prefetch only, never prerender: a prerendered video page would run its scripts
 * (and count a view) for a page nobody opened. API paths and the media files are left out; links marked
 * nofollow (sort and filter controls, member text) too.
 *
 * A constant text: the Content-Security-Policy allows it by hash (lib/http/page-policy.ts).
 */
export const SPECULATION_RULES = JSON.stringify({
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
});
