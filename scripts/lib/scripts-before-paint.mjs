/**
 * What Lighthouse's simulation counts in a page's LCP besides the page itself: every script whose download had
 * finished before the largest paint of the observed (unthrottled) load is treated as needed for that paint, so
 * the simulated LCP waits for it at the simulated network's speed (decision 038). On loopback the page's start-up
 * scripts (the React and Next runtime, some 140 KB) arrive 30 to 100 ms after the HTML, about when the first paint
 * happens: whether they land just before or just after it flips a page's LCP between about 1.2 and 2.2 s.
 *
 * Plain JavaScript: scripts/lib/lighthouse-audit.mjs runs in plain Node.
 *
 * @param {{audits: Record<string, {details?: any}>}} lhr a Lighthouse result
 * @returns {{count: number, bytes: number, observedLcp: number} | null} the scripts (and their transfer bytes) whose
 *   download ended before the observed largest paint; null when the result lacks what this needs
 */
export function scriptsBeforeLargestPaint(lhr) {
  const metrics = lhr.audits.metrics?.details?.items?.[0];
  const requests = lhr.audits['network-requests']?.details;
  if (!metrics || typeof metrics.observedLargestContentfulPaint !== 'number' || !Array.isArray(requests?.items)) return null;
  // Request times count from the first request; the observed paint from the navigation's start.
  const start = requests.debugData?.networkStartTimeTs;
  const offsetMs = typeof start === 'number' && typeof metrics.observedNavigationStartTs === 'number' ? (start - metrics.observedNavigationStartTs) / 1000 : 0;
  const before = requests.items.filter(
    (request) => request.resourceType === 'Script' && typeof request.networkEndTime === 'number' && request.networkEndTime + offsetMs <= metrics.observedLargestContentfulPaint,
  );
  return { count: before.length, bytes: before.reduce((sum, request) => sum + (request.transferSize ?? 0), 0), observedLcp: metrics.observedLargestContentfulPaint };
}
