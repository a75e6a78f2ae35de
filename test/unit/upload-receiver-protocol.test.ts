/**
 * Which connections the app server hands to the upload receiver
 * (lib/front/upload-receiver/protocol.ts): only those whose first bytes hold
 * exactly a PATCH of one upload in HTTP/1.1. Anything else, crafted or cut
 * short, stays with the app server, which answers every request itself.
 */
import fc from 'fast-check';

import { isReceiverRequest, opensReceiverRequest } from '@/lib/front/upload-receiver/protocol';

const ID = '0123456789abcdef0123456789abcdef';
const opens = (text: string) => opensReceiverRequest(Buffer.from(text, 'latin1'));

describe('opensReceiverRequest', () => {
  it('takes a PATCH of one upload, with its headers and first body bytes behind it', () => {
    expect(opens(`PATCH /api/videos/uploads/${ID} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc`)).toBe(true);
    expect(opens(`PATCH /api/videos/uploads/${ID} HTTP/1.1\r\n`)).toBe(true);
  });

  it.each([
    ['another method', `POST /api/videos/uploads/${ID} HTTP/1.1\r\n`],
    ['a lower-case method', `patch /api/videos/uploads/${ID} HTTP/1.1\r\n`],
    ['the creation endpoint', 'PATCH /api/videos/uploads HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['the plain upload', 'PATCH /api/videos/upload HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an upper-case id', `PATCH /api/videos/uploads/${ID.toUpperCase()} HTTP/1.1\r\n`],
    ['an id one digit short', `PATCH /api/videos/uploads/${ID.slice(1)} HTTP/1.1\r\n\r\n`],
    ['an id one digit long', `PATCH /api/videos/uploads/${ID}0 HTTP/1.1\r\n`],
    ['a query', `PATCH /api/videos/uploads/${ID}?a=1 HTTP/1.1\r\n`],
    ['a path that climbs', `PATCH /api/videos/uploads/../${ID.slice(3)} HTTP/1.1\r\n`],
    ['an absolute URL', `PATCH http://x/api/videos/uploads/${ID} HTTP/1.1\r\n`],
    ['HTTP/1.0', `PATCH /api/videos/uploads/${ID} HTTP/1.0\r\n`],
    ['a bare line feed', `PATCH /api/videos/uploads/${ID} HTTP/1.1\nHost: x\r\n`],
    ['two spaces', `PATCH  /api/videos/uploads/${ID} HTTP/1.1\r\n`],
    ['a first packet cut short', `PATCH /api/videos/uploads/${ID} HTTP/1.`],
    ['nothing', ''],
    ['a TLS handshake', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03'],
  ])('leaves %s with the app server', (_what, text) => {
    expect(opens(text)).toBe(false);
  });

  it('takes nothing but that exact line (any bytes, and any bytes after "PATCH /api/videos/uploads/")', () => {
    const grammar = /^PATCH \/api\/videos\/uploads\/[0-9a-f]{32} HTTP\/1\.1\r\n/;
    const prefixes = fc.constantFrom('', 'PATCH ', 'PATCH /api/videos/uploads/', `PATCH /api/videos/uploads/${ID}`);
    fc.assert(
      fc.property(prefixes, fc.uint8Array({ maxLength: 80 }), (prefix, bytes) => {
        const buffer = Buffer.concat([Buffer.from(prefix), Buffer.from(bytes)]);
        expect(opensReceiverRequest(buffer)).toBe(grammar.test(buffer.toString('latin1')));
      }),
    );
  });

  it('takes any id of 32 lower-case hex digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), fc.uint8Array({ maxLength: 64 }), (id, rest) => {
        expect(
          opensReceiverRequest(Buffer.concat([Buffer.from(`PATCH /api/videos/uploads/${id} HTTP/1.1\r\n`), Buffer.from(rest)])),
        ).toBe(true);
      }),
    );
  });
});

describe('isReceiverRequest (the receiver checks the request it parsed for itself)', () => {
  it('is a PATCH of one upload, nothing else', () => {
    expect(isReceiverRequest('PATCH', `/api/videos/uploads/${ID}`)).toBe(true);
    expect(isReceiverRequest('GET', `/api/videos/uploads/${ID}`)).toBe(false);
    expect(isReceiverRequest('PATCH', '/')).toBe(false);
    expect(isReceiverRequest('PATCH', `/api/videos/uploads/${ID}?x`)).toBe(false);
    expect(isReceiverRequest(undefined, undefined)).toBe(false);
  });
});
