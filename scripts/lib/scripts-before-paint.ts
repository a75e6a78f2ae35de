/**
 * What Lighthouse's simulation counts in a page's LCP besides the page itself: every script whose download had
 * finished before the largest paint of the observed (unthrottled) load is treated as needed for that paint, so
 * the simulated LCP waits for it at the simulated network's speed (decision 038). On loopback the page's start-up
 * scripts (the React and Next runtime, some 140 KB) arrive 30 to 100 ms after the HTML, about when the first paint
 * happens: whether they land just before or just after it flips a page's LCP between about 1.2 and 2.2 s.
 *
 * scripts/lib/lighthouse-audit.mjs hands over the two audits this reads (`paintAudits`).
 */

export interface ScriptsBeforePaint {
  /** Transfer bytes of the scripts whose download ended before the observed largest paint. */
  bytes: number;
  /** The observed (unthrottled) largest paint, ms from the navigation's start. */
  observedLcp: number;
}

interface NetworkRequest {
  resourceType?: string;
  networkEndTime?: number;
  transferSize?: number;
}

/** The parts of Lighthouse 12's `metrics` and `network-requests` audits read here. */
export interface PaintAudits {
  metrics?: { details?: { items?: { observedLargestContentfulPaint?: number; observedNavigationStartTs?: number }[] } };
  'network-requests'?: { details?: { items?: NetworkRequest[]; debugData?: { networkStartTimeTs?: number } } };
}

/** The start-up scripts loaded before the observed largest paint; null when the audits lack what this needs. */
export function scriptsBeforeLargestPaint(audits: PaintAudits): ScriptsBeforePaint | null {
  const metrics = audits.metrics?.details?.items?.[0];
  const requests = audits['network-requests']?.details;
  const observedLcp = metrics?.observedLargestContentfulPaint;
  if (observedLcp === undefined || !Array.isArray(requests?.items)) return null;
  // Request times count from the first request; the observed paint from the navigation's start.
  const start = requests.debugData?.networkStartTimeTs;
  const navigationStart = metrics?.observedNavigationStartTs;
  const offsetMs = start !== undefined && navigationStart !== undefined ? (start - navigationStart) / 1000 : 0;
  const before = requests.items.filter(
    (request) =>
      request.resourceType === 'Script' &&
      request.networkEndTime !== undefined &&
      request.networkEndTime + offsetMs <= observedLcp,
  );
  return { bytes: before.reduce((sum, request) => sum + (request.transferSize ?? 0), 0), observedLcp };
}
