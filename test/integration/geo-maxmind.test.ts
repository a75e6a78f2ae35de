import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { open, type CityResponse } from 'maxmind';

import { isBlocked, locate, parseBlockedRegions, type GeoRules } from '@/lib/http/geo';

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
    rules = { blocked: parseBlockedRegions('GB,US-NY'), countryHeader: 'cf-ipcountry', regionHeader: 'cf-region-code', reader: await open<CityResponse>(file) };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const from = (address: string, headers: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': address, ...headers }, socket: {} }) as never;

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

  it('uses the socket address when no proxy header is present', () => {
    expect(locate({ headers: {}, socket: { remoteAddress: '::ffff:24.24.24.24' } } as never, rules)).toEqual({ country: 'US', region: 'US-NY' });
  });
});
