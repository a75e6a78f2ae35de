import fc from 'fast-check';

import { safeReturnPath } from '@/lib/return-path';

const SITE = 'https://chrysalis.example';

/** Where a browser on our site would end up after `location.assign(path)`. */
const landsOn = (path: string) => new URL(path, SITE);

describe('safeReturnPath', () => {
  // Known open-redirect payloads (OWASP's unvalidated-redirects cheat sheet, PortSwigger's lists and our own finding).
  const OPEN_REDIRECTS = [
    '//evil.example',
    '///evil.example',
    '////evil.example/x',
    '/\\evil.example',
    '/\\/evil.example',
    '\\/evil.example',
    '\\\\evil.example',
    '/.//evil.example/x',
    '/./\\evil.example',
    '/..//evil.example',
    '/a/../..//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/ /evil.example'.replace(' ', '\u0000'),
    'https://evil.example',
    'http:evil.example',
    'https:/evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    ' //evil.example',
    'evil.example',
  ];

  it.each(OPEN_REDIRECTS)('keeps %j on this site', (payload) => {
    const result = safeReturnPath(payload);
    expect(landsOn(result).origin).toBe(SITE);
    expect(result).not.toMatch(/^\/[/\\]/);
  });

  it.each([
    ['/video/abc', '/video/abc'],
    ['/search?q=sissy#results', '/search?q=sissy#results'],
    ['/admin/members?member=a', '/admin/members?member=a'],
    ['/a/./b/../c', '/a/c'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/@evil.example', '/@evil.example'],
    ['/login?next=/x', '/'],
    ['/register', '/'],
    ['', '/'],
    [null, '/'],
    [undefined, '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it('never leaves the site, whatever it is given', () => {
    const pathish = fc.stringMatching(/^[/\\.%a-z0-9@:?#\t\n\r ]{0,24}$/).map((tail) => `/${tail}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), pathish), (input) => {
        const result = safeReturnPath(input);
        expect(result.startsWith('/')).toBe(true);
        expect(result).not.toMatch(/^\/[/\\]/);
        expect(landsOn(result).origin).toBe(SITE);
      }),
      { numRuns: 5_000 },
    );
  });
});
