import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { open, type CityResponse } from 'maxmind';

import { isBlocked, locate, parseBlockedRegions, type GeoRules } from '@/lib/front/geo';

/**
 * Regional blocking without a CDN: a real GeoLite2-City database (shipped by
 * the geolite2-city package), opened the way the server opens GEOIP_DB.
 */
describe('regional blocking from a GeoLite2-City database', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-geoip-'));
  let rules: GeoRules;

  beforeAll(async () => {
    const file = path.join(dir, 'GeoLite2-City.mmdb');
    writeFileSync(file, gunzipSync(readFileSync(require.resolve('geolite2-city/GeoLite2-City.mmdb.gz'))));
    rules = {
      trustProxy: 0,
      blocked: parseBlockedRegions('GB,US-NY'),
      countryHeader: 'cf-ipcountry',
      regionHeader: 'cf-region-code',
      reader: await open<CityResponse>(file),
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const from = (address: string, headers: Record<string, string> = {}) =>
    ({ headers, socket: { remoteAddress: address } }) as never;

  it.each([
    ['81.2.69.142', { country: 'GB', region: 'GB-ENG' }, true],
    ['24.24.24.24', { country: 'US', region: 'US-NY' }, true],
    ['99.0.0.1', { country: 'US', region: 'US-CA' }, false],
    ['8.8.8.8', { country: 'US', region: null }, false],
    ['192.0.2.1', { country: null, region: null }, false],
  ])('%s is %p, blocked: %p', (address, place, blocked) => {
    expect(locate(from(address), rules)).toEqual(place);
    expect(isBlocked(locate(from(address), rules), rules)).toBe(blocked);
  });

  it('prefers the CDN header when one is present', () => {
    expect(locate(from('81.2.69.142', { 'cf-ipcountry': 'FR' }), rules)).toEqual({ country: 'FR', region: null });
  });

  it('reads IPv4-mapped socket addresses', () => {
    expect(locate(from('::ffff:24.24.24.24'), rules)).toEqual({ country: 'US', region: 'US-NY' });
  });

  it('believes X-Forwarded-For only for the trusted proxy hops (TRUST_PROXY)', () => {
    // A visitor in New York claiming to be in California: with no trusted proxy, the socket decides.
    const forged = from('24.24.24.24', { 'x-forwarded-for': '99.0.0.1' });
    expect(locate(forged, rules)).toEqual({ country: 'US', region: 'US-NY' });
    // Behind one proxy (the socket is the proxy's), the entry it appended names the visitor, not the forged one before it.
    const proxied = from('10.0.0.2', { 'x-forwarded-for': '99.0.0.1, 81.2.69.142' });
    expect(locate(proxied, { ...rules, trustProxy: 1 })).toEqual({ country: 'GB', region: 'GB-ENG' });
  });
});
