import {
  addressNetwork,
  CLIENT_ADDRESS_HEADER,
  normaliseAddress,
  resolveClientAddress,
  stampClientAddress,
  UNKNOWN_ADDRESS,
} from '@/lib/front/resolve-client-address';
import { clientAddress } from '@/lib/server/client-address';
import { declareClientAddressStamping } from '@/lib/events';

// The default: no proxy in front.
delete process.env.TRUST_PROXY;

describe('resolveClientAddress: the socket, then X-Forwarded-For for TRUST_PROXY hops from the right', () => {
  const proxy = '10.0.0.2';
  it.each([
    // hops, socket, X-Forwarded-For, client
    ['0 hops: the socket, whatever the header says', 0, '198.51.100.7', '203.0.113.1', '198.51.100.7'],
    ['0 hops, no header', 0, '198.51.100.7', undefined, '198.51.100.7'],
    ['0 hops, IPv4-mapped socket', 0, '::ffff:198.51.100.7', '203.0.113.1', '198.51.100.7'],
    ['0 hops, IPv6 socket', 0, '2001:db8::7', undefined, '2001:db8::7'],
    ['0 hops and no socket (next dev, tests): nobody, not the header', 0, undefined, '203.0.113.1', UNKNOWN_ADDRESS],
    ['1 hop: the entry our proxy appended', 1, proxy, '203.0.113.9', '203.0.113.9'],
    ['1 hop: a forged entry on the left is ignored', 1, proxy, '6.6.6.6, 203.0.113.9', '203.0.113.9'],
    ['1 hop: many forged entries', 1, proxy, '1.1.1.1, 2.2.2.2, 3.3.3.3, 203.0.113.9', '203.0.113.9'],
    ['2 hops: the address the outer proxy saw', 2, proxy, '6.6.6.6, 203.0.113.9, 10.0.0.1', '203.0.113.9'],
    ['2 hops: repeated headers joined by Node', 2, proxy, '6.6.6.6, 203.0.113.9,10.0.0.1', '203.0.113.9'],
    ['3 hops, spaces and no spaces', 3, proxy, '203.0.113.9,10.0.0.3 ,  10.0.0.1', '203.0.113.9'],
    ['2 hops, short list (came through one proxy): its leftmost entry', 2, proxy, '203.0.113.9', '203.0.113.9'],
    ['1 hop, no header (reached us directly): the socket', 1, proxy, undefined, proxy],
    ['1 hop, empty header', 1, proxy, '', proxy],
    ['1 hop, trailing comma: an empty entry is not an address', 1, proxy, '203.0.113.9,', proxy],
    ['1 hop, garbage from the proxy: stop at the socket', 1, proxy, 'unknown', proxy],
    ['1 hop, script text', 1, proxy, '<script>alert(1)</script>', proxy],
    ['2 hops, garbage beyond a good entry: the good entry', 2, proxy, '6.6.6.6, not-an-ip, 203.0.113.9', '203.0.113.9'],
    ['1 hop, out-of-range octets', 1, proxy, '203.0.113.999', proxy],
    ['1 hop, IPv6 in any case', 1, proxy, '2001:DB8::A', '2001:db8::a'],
    ['1 hop, bracketed IPv6 with port', 1, proxy, '[2001:db8::1]:4711', '2001:db8::1'],
    ['1 hop, IPv4 with port', 1, proxy, '203.0.113.9:4711', '203.0.113.9'],
    ['1 hop, IPv4-mapped IPv6', 1, proxy, '::ffff:203.0.113.9', '203.0.113.9'],
    ['1 hop, no socket (next dev behind one proxy)', 1, undefined, '6.6.6.6, 203.0.113.9', '203.0.113.9'],
    ['1 hop, no socket, no header', 1, undefined, undefined, UNKNOWN_ADDRESS],
  ])('%s', (_label, hops, socket, forwardedFor, client) => {
    expect(resolveClientAddress(socket, forwardedFor, hops)).toBe(client);
  });

  it('cannot be steered by rotating X-Forwarded-For with 0 hops', () => {
    const seen = new Set(Array.from({ length: 50 }, (_, i) => resolveClientAddress('198.51.100.7', `203.0.113.${i}`, 0)));
    expect([...seen]).toEqual(['198.51.100.7']);
  });

  it('reads a header of thousands of entries without trouble', () => {
    const huge = `${Array.from({ length: 5000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.1`).join(', ')}, 203.0.113.9`;
    expect(resolveClientAddress(proxy, huge, 1)).toBe('203.0.113.9');
  });
});

describe('normaliseAddress', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['[::1]', '::1'],
    ['localhost', null],
    ['1.2.3.4.5', null],
    ['', null],
    [null, null],
    ['203.0.113.9\u0000', null],
  ])('%p → %p', (raw, normalised) => {
    expect(normaliseAddress(raw)).toBe(normalised);
  });
});

describe('addressNetwork: what per-address budgets key on', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::7', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::203.0.113.9', '64:ff9b:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    [UNKNOWN_ADDRESS, UNKNOWN_ADDRESS],
  ])('%p → %p', (address, network) => {
    expect(addressNetwork(address)).toBe(network);
  });

  it('puts every address of one /64 in one budget, and other /64s in others', () => {
    const within = new Set(Array.from({ length: 20 }, (_, i) => addressNetwork(`2001:db8:aa:bb:${i.toString(16)}::${i + 1}`)));
    expect(within.size).toBe(1);
    expect(addressNetwork('2001:db8:aa:bc::1')).not.toBe([...within][0]);
  });
});

describe('stampClientAddress (scripts/serve.ts, the raw upload handler)', () => {
  it('overwrites a client-sent copy of the internal header with the computed address', () => {
    const req = {
      headers: { [CLIENT_ADDRESS_HEADER]: '1.2.3.4', 'x-forwarded-for': '5.6.7.8' },
      socket: { remoteAddress: '::ffff:198.51.100.7' },
    };
    expect(stampClientAddress(req, 0)).toBe('198.51.100.7');
    expect(req.headers[CLIENT_ADDRESS_HEADER]).toBe('198.51.100.7');
  });

  it('replaces repeated copies too, and uses the trusted hop', () => {
    const req = {
      headers: { [CLIENT_ADDRESS_HEADER]: ['1.2.3.4', '4.3.2.1'], 'x-forwarded-for': ['6.6.6.6', '203.0.113.9'] },
      socket: { remoteAddress: '10.0.0.2' },
    };
    expect(stampClientAddress(req, 1)).toBe('203.0.113.9');
    expect(req.headers[CLIENT_ADDRESS_HEADER]).toBe('203.0.113.9');
  });

  it('stamps "unknown" rather than nothing when there is no socket address', () => {
    const req = { headers: { [CLIENT_ADDRESS_HEADER]: '1.2.3.4' }, socket: null };
    expect(stampClientAddress(req, 0)).toBe(UNKNOWN_ADDRESS);
    expect(req.headers[CLIENT_ADDRESS_HEADER]).toBe(UNKNOWN_ADDRESS);
  });
});

describe('clientAddress(request): what route code sees', () => {
  const request = (headers: Record<string, string>) => new Request('http://localhost/api/auth/login', { headers });

  // First, as under `next dev`: nothing in this process stamps requests.
  it('ignores a client-sent internal header unless scripts/serve.ts stamps requests in this process', () => {
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '203.0.113.9' }))).toBe(UNKNOWN_ADDRESS);
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '203.0.113.10' }))).toBe(
      UNKNOWN_ADDRESS,
    );
  });

  it('believes the stamp once the production server has turned stamping on', () => {
    declareClientAddressStamping();
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '198.51.100.7', 'x-forwarded-for': '203.0.113.10' }))).toBe(
      '198.51.100.7',
    );
    // A request that somehow went round the server falls back to the computation, which believes no header with 0 hops.
    expect(clientAddress(request({ 'x-forwarded-for': '203.0.113.10' }))).toBe(UNKNOWN_ADDRESS);
  });
});
