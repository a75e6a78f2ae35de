import { moduleScriptSources } from '../../scripts/lib/first-load-js';

describe('moduleScriptSources (what first-load JS counts)', () => {
  it('lists each module script once, in order, and skips the nomodule polyfills and inline scripts', () => {
    const html = [
      '<script src="/_next/static/chunks/a.js" async=""></script>',
      '<script>self.__next_f.push([1,"x"])</script>',
      '<script src="/_next/static/chunks/polyfills.js" noModule=""></script>',
      '<script src="/_next/static/chunks/b.js" async="" nonce="n"></script>',
      '<script src="/_next/static/chunks/a.js" async=""></script>',
    ].join('');
    expect(moduleScriptSources(html)).toEqual(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js']);
  });

  it('finds nothing in a page without scripts', () => {
    expect(moduleScriptSources('<html><body><p>text</p></body></html>')).toEqual([]);
  });
});
