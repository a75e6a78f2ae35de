import { EMBED_HEIGHT, EMBED_WIDTH, embedSnippet, embedUrl } from '@/lib/embed';

/** Reads the snippet back as a browser would: the iframe's attributes, entities decoded. */
function parse(snippet: string): Record<string, string> {
  const match = /^<iframe ((?:[a-z-]+(?:="[^"]*")? ?)+)><\/iframe>$/.exec(snippet);
  expect(match).not.toBeNull();
  const decode = (value: string) =>
    value
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return Object.fromEntries(
    [...match![1]!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name!, decode(value ?? '')]),
  );
}

describe('embed code', () => {
  it('is an iframe of /embed/{id} with its size, fullscreen allowed', () => {
    const snippet = embedSnippet('https://chrysalis.example/', 'abc_DEF-123', { title: 'A video' });
    expect(snippet).toBe(
      '<iframe src="https://chrysalis.example/embed/abc_DEF-123" width="640" height="360" title="A video" frameborder="0" allow="fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>',
    );
    expect([EMBED_WIDTH, EMBED_HEIGHT]).toEqual([640, 360]);
    expect(parse(snippet)).toMatchObject({
      src: 'https://chrysalis.example/embed/abc_DEF-123',
      width: '640',
      height: '360',
      allow: 'fullscreen; picture-in-picture',
    });
  });

  it('escapes the id as one path segment and every attribute, even though ids are safe today', () => {
    const hostile = `"><script>alert(1)</script ><x y='`;
    const snippet = embedSnippet('https://chrysalis.example', hostile, {
      title: `</script ><img src=x onerror="alert(1)"> & 'quotes'`,
    });
    expect(snippet).not.toMatch(/<(?!\/?iframe)/);
    expect(snippet.match(/"/g)!.length % 2).toBe(0);
    const attributes = parse(snippet);
    expect(attributes.src).toBe(`https://chrysalis.example/embed/${encodeURIComponent(hostile)}`);
    expect(new URL(attributes.src!).pathname.split('/')).toHaveLength(3);
    expect(attributes.title).toBe(`</script ><img src=x onerror="alert(1)"> & 'quotes'`);
    expect(Object.keys(attributes)).toEqual([
      'src',
      'width',
      'height',
      'title',
      'frameborder',
      'allow',
      'allowfullscreen',
      'loading',
    ]);
  });

  it('keeps the size whole and positive, and the path on the site', () => {
    expect(parse(embedSnippet('https://x.example', 'a', { title: 't', width: 480.4, height: Number.NaN }))).toMatchObject({
      width: '480',
      height: '1',
    });
    expect(embedUrl('https://x.example///', '../admin')).toBe('https://x.example/embed/..%2Fadmin');
  });
});
