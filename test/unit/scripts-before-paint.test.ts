import { scriptsBeforeLargestPaint } from '../../scripts/lib/scripts-before-paint';

/** The two audits of a Lighthouse result this reads, shaped as Lighthouse 12 writes them. */
function lhr(
  observedLcp: number,
  requests: { resourceType: string; networkEndTime: number; transferSize: number }[],
  networkStartMs = 1,
) {
  const navigationStartTs = 5_000_000;
  return {
    metrics: {
      details: { items: [{ observedLargestContentfulPaint: observedLcp, observedNavigationStartTs: navigationStartTs }] },
    },
    'network-requests': {
      details: { items: requests, debugData: { networkStartTimeTs: navigationStartTs + networkStartMs * 1000 } },
    },
  };
}

describe('scriptsBeforeLargestPaint (what bench:lighthouse prints beside each LCP)', () => {
  it('adds up the bytes of the scripts whose download ended before the observed largest paint', () => {
    const result = scriptsBeforeLargestPaint(
      lhr(200, [
        { resourceType: 'Document', networkEndTime: 60, transferSize: 13_000 },
        { resourceType: 'Script', networkEndTime: 150, transferSize: 66_000 },
        { resourceType: 'Script', networkEndTime: 199, transferSize: 8_000 },
        { resourceType: 'Script', networkEndTime: 260, transferSize: 46_000 },
        { resourceType: 'Image', networkEndTime: 120, transferSize: 17_000 },
      ]),
    );
    expect(result).toEqual({ bytes: 74_000, observedLcp: 200 });
  });

  it('puts request times on the navigation clock first: requests count from the first request', () => {
    // Ended at 195 ms on the request clock, which started 10 ms after the navigation: 205 ms, after the paint.
    const result = scriptsBeforeLargestPaint(
      lhr(200, [{ resourceType: 'Script', networkEndTime: 195, transferSize: 66_000 }], 10),
    );
    expect(result).toEqual({ bytes: 0, observedLcp: 200 });
  });

  it('answers null for a result without the observed paint or the requests', () => {
    expect(scriptsBeforeLargestPaint({})).toBeNull();
    expect(scriptsBeforeLargestPaint({ metrics: { details: { items: [{}] } } })).toBeNull();
  });
});
