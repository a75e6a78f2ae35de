import { linkify, LINK_DISPLAY_MAX, shortenForDisplay, type TextPart } from '@/lib/format/linkify';

const links = (text: string) => linkify(text).filter((part): part is Extract<TextPart, { type: 'link' }> => part.type === 'link');
const joined = (parts: TextPart[]) => parts.map((part) => part.text).join('');

describe('linkify', () => {
  it('leaves plain text as one text part, and empty text as nothing', () => {
    expect(linkify('no links here, just words')).toEqual([{ type: 'text', text: 'no links here, just words' }]);
    expect(linkify('')).toEqual([]);
  });

  it('turns http and https URLs into links between text parts', () => {
    expect(linkify('see https://example.com/a?b=1&c=2#d and http://example.org')).toEqual([
      { type: 'text', text: 'see ' },
      {
        type: 'link',
        text: 'https://example.com/a?b=1&c=2#d',
        href: 'https://example.com/a?b=1&c=2#d',
        display: 'https://example.com/a?b=1&c=2#d',
      },
      { type: 'text', text: ' and ' },
      { type: 'link', text: 'http://example.org', href: 'http://example.org/', display: 'http://example.org' },
    ]);
    expect(links('HTTPS://EXAMPLE.COM/Path')[0]!.href).toBe('https://example.com/Path');
  });

  it('never links other schemes: javascript:, data:, vbscript:, file:, protocol-relative, bare domains', () => {
    for (const text of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '//evil.example/x',
      'example.com',
      'www.example.com',
      'ftp://example.com/file',
    ]) {
      expect(links(text)).toEqual([]);
      expect(joined(linkify(text))).toBe(text);
    }
  });

  it('links only the http URL inside something that is not one', () => {
    expect(links('javascript:http://example.com').map((link) => link.href)).toEqual(['http://example.com/']);
    expect(links('xhttp://example.com')).toEqual([]);
    expect(links('http://javascript:alert(1)')).toEqual([]);
    expect(links('http:// spaced')).toEqual([]);
    expect(links('https://')).toEqual([]);
  });

  it('refuses URLs with a user name or password (the look-alike trick)', () => {
    expect(links('https://bank.example@evil.example/login')).toEqual([]);
    expect(links('https://user:pass@example.com')).toEqual([]);
  });

  it('ends a URL at spaces, quotes and angle brackets, so markup stays text', () => {
    const parts = linkify('<a href="https://example.com/x">click</a><script>alert(1)</script>');
    expect(links('<a href="https://example.com/x">click</a>').map((link) => link.text)).toEqual(['https://example.com/x']);
    expect(joined(parts)).toBe('<a href="https://example.com/x">click</a><script>alert(1)</script>');
    expect(links('https://example.com/<script>')[0]!.text).toBe('https://example.com/');
  });

  it('leaves trailing sentence punctuation out of the link', () => {
    for (const [text, url, rest] of [
      ['Look: https://example.com.', 'https://example.com', '.'],
      ['https://example.com/a, then', 'https://example.com/a', ', then'],
      ['really? https://example.com/q?!', 'https://example.com/q', '?!'],
      ['"https://example.com/quoted"', 'https://example.com/quoted', '"'],
      ['https://example.com/end...', 'https://example.com/end', '...'],
      ['https://example.com/x;', 'https://example.com/x', ';'],
    ] as const) {
      const parts = linkify(text);
      expect(links(text).map((link) => link.text)).toEqual([url]);
      expect(parts.at(-1)).toEqual({ type: 'text', text: rest });
      expect(joined(parts)).toBe(text);
    }
  });

  it('keeps balanced brackets in the URL and drops an unbalanced closing one', () => {
    expect(links('(see https://example.com/page)')[0]!.text).toBe('https://example.com/page');
    expect(links('https://en.wikipedia.org/wiki/Chrysalis_(disambiguation)')[0]!.text).toBe(
      'https://en.wikipedia.org/wiki/Chrysalis_(disambiguation)',
    );
    expect(links('(https://en.wikipedia.org/wiki/A_(b)).')[0]!.text).toBe('https://en.wikipedia.org/wiki/A_(b)');
    expect(links('[https://example.com/list]')[0]!.text).toBe('https://example.com/list');
  });

  it('shortens long URLs for display and keeps the whole address in href', () => {
    const long = `https://example.com/${'segment/'.repeat(40)}end?query=${'x'.repeat(200)}`;
    const [link] = links(`before ${long} after`);
    expect(link!.text).toBe(long);
    expect(link!.href).toBe(long);
    expect(Array.from(link!.display)).toHaveLength(LINK_DISPLAY_MAX);
    expect(link!.display.endsWith('…')).toBe(true);
    expect(long.startsWith(link!.display.slice(0, -1))).toBe(true);
    expect(shortenForDisplay('https://example.com')).toBe('https://example.com');
  });

  it('handles several links, line breaks and non-Latin text, and loses no character', () => {
    const text = 'Première https://example.com/é\nzweite: https://例え.jp/パス!\n\nhttps://a.example https://b.example';
    const parts = linkify(text);
    expect(joined(parts)).toBe(text);
    expect(links(text).map((link) => link.text)).toEqual([
      'https://example.com/é',
      'https://例え.jp/パス',
      'https://a.example',
      'https://b.example',
    ]);
    expect(links(text)[1]!.href).toBe('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9');
  });
});
