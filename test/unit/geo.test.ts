import { accessDeniedHtml, isBlocked, isMachinePath, locate, parseBlockedRegions, type GeoRules } from '@/lib/front/geo';

const rules: GeoRules = {
  trustProxy: 0,
  blocked: parseBlockedRegions(' gb, US-TX ,de-by'),
  countryHeader: 'cf-ipcountry',
  regionHeader: 'cf-region-code',
};
const request = (headers: Record<string, string>) => ({ headers, socket: { remoteAddress: '203.0.113.9' } }) as never;

describe('regional blocking', () => {
  it('never blocks the payment processor’s postbacks or health checks, only what visitors open', () => {
    expect(isMachinePath('/api/payments/verotel/postback?event=initial')).toBe(true);
    expect(isMachinePath('/api/health')).toBe(true);
    expect(isMachinePath('/api/healthy')).toBe(false);
    expect(isMachinePath('/api/paymentsX')).toBe(false);
    expect(isMachinePath('/subscribe')).toBe(false);
    expect(isMachinePath('/api/vip/checkout')).toBe(false);
  });

  it('parses the list in any case and spacing', () => {
    expect([...rules.blocked]).toEqual(['GB', 'US-TX', 'DE-BY']);
  });

  it.each([
    [{ 'cf-ipcountry': 'GB' }, true],
    [{ 'cf-ipcountry': 'gb' }, true],
    [{ 'cf-ipcountry': 'US', 'cf-region-code': 'TX' }, true],
    [{ 'cf-ipcountry': 'US', 'cf-region-code': 'US-TX' }, true],
    [{ 'cf-ipcountry': 'US', 'cf-region-code': 'CA' }, false],
    [{ 'cf-ipcountry': 'US' }, false],
    [{ 'cf-ipcountry': 'DE', 'cf-region-code': 'BY' }, true],
    [{ 'cf-ipcountry': 'FR' }, false],
    [{ 'cf-ipcountry': 'XX' }, false], // Cloudflare: unknown
    [{}, false],
  ])('%p blocked: %p', (headers, blocked) => {
    expect(isBlocked(locate(request(headers), rules), rules)).toBe(blocked);
  });

  it('renders the spec’s explanation, naming the country only when known, and escapes it', () => {
    const withCountry = accessDeniedHtml('Chrysalis', { country: 'GB', region: null });
    expect(withCountry).toContain('data-country="GB"');
    expect(withCountry).toContain('Your IP address appears to originate from GB.');
    expect(withCountry).toMatch(/regulation/);
    expect(withCountry).toMatch(/cost of the age verification services/);
    expect(withCountry).toMatch(/looking for alternatives/);
    const unknown = accessDeniedHtml('<b>Site</b>', { country: null, region: null });
    expect(unknown).not.toContain('appears to originate');
    expect(unknown).toContain('&lt;b&gt;Site&lt;/b&gt;');
  });
});
