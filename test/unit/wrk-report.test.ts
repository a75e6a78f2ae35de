import { parseWrkReport } from '@/scripts/lib/wrk';

/** wrk 4.1.0's report with --latency, as Debian's package prints it. */
const report = (latency99: string, extra = '') => `Running 1s test @ http://127.0.0.1:38999/
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.69ms  510.01us   4.28ms   68.94%
    Req/Sec     1.15k    70.59     1.26k    72.73%
  Latency Distribution
     50%    1.67ms
     75%    2.00ms
     90%    2.33ms
     99%  ${latency99}
  1258 requests in 1.10s, 1.83MB read
${extra}Requests/sec:   1143.40
Transfer/sec:      1.66MB
`;

describe('wrk reports (bench:pages)', () => {
  it.each([
    ['3.11ms', 3.11],
    ['812.50us', 0.8125],
    ['1.20s', 1200],
  ])('reads requests/s and a p99 of %s', (p99, ms) => {
    expect(parseWrkReport(report(p99))).toEqual({ rps: 1143.4, p99Ms: ms });
  });

  it('refuses a run with answers that were not 2xx, or socket errors', () => {
    expect(() => parseWrkReport(report('3.11ms', '  Non-2xx or 3xx responses: 1590\n'))).toThrow('1590 answers were not 2xx');
    expect(() => parseWrkReport(report('3.11ms', '  Socket errors: connect 0, read 2, write 0, timeout 0\n'))).toThrow(
      'Socket errors',
    );
    expect(parseWrkReport(report('3.11ms', '  Socket errors: connect 0, read 0, write 0, timeout 0\n')).rps).toBe(1143.4);
  });

  it('refuses output that is not a report', () => {
    expect(() => parseWrkReport('unable to connect to 127.0.0.1:1 Connection refused')).toThrow('unexpected wrk output');
  });
});
