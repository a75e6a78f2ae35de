import { renderToStaticMarkup } from 'react-dom/server';

import { WebSiteStructuredData, ArticleStructuredData } from '@/components/seo/StructuredData';
import { distinctKeywords, pageMetadata, rootMetadata } from '@/lib/seo/metadata';

// getConfig() reads the environment lazily on first use.
process.env.SITE_URL = 'https://chrysalis.example';
process.env.SITE_NAME = 'Chrysalis';

describe('page metadata', () => {
  it('appends the product name and builds canonical, OpenGraph and social-card tags from SITE_URL', () => {
    const metadata = pageMetadata({
      title: 'Community Standards',
      description: 'Rules.',
      path: '/community-standards',
      type: 'article',
    });
    expect(metadata.title).toEqual({ absolute: 'Community Standards | Chrysalis' });
    expect(metadata.alternates?.canonical).toBe('https://chrysalis.example/community-standards');
    expect(metadata.openGraph).toMatchObject({
      // og:site_name says "Chrysalis" beside it: the title does not repeat it.
      title: 'Community Standards',
      description: 'Rules.',
      url: 'https://chrysalis.example/community-standards',
      siteName: 'Chrysalis',
      locale: 'en_US',
      type: 'article',
      images: [{ url: 'https://chrysalis.example/logo-512.png', width: 512, height: 512, alt: 'Chrysalis logo' }],
    });
    expect(metadata.twitter).toMatchObject({
      card: 'summary_large_image',
      title: 'Community Standards',
      images: [{ url: 'https://chrysalis.example/logo-512.png', alt: 'Chrysalis logo' }],
    });
    // No TWITTER_SITE: no twitter:site.
    expect(metadata.twitter).toMatchObject({ site: undefined });
  });

  it('names the site alone in og:title on home, and gives every image its alt text on both cards', () => {
    const image = { url: 'https://chrysalis.example/preview.png?v=1', width: 1200, height: 630, alt: 'Top videos' };
    const metadata = pageMetadata({ path: '/', image });
    expect(metadata.openGraph).toMatchObject({ title: 'Chrysalis', siteName: 'Chrysalis', images: [image] });
    expect(metadata.twitter).toMatchObject({ images: [{ url: image.url, alt: 'Top videos' }] });
  });

  it('keeps only keywords that add a word', () => {
    expect(distinctKeywords(['sissy maid', 'Sissy', 'sissy', 'maid', 'beta', 'videos', 'sissy videos', ' Beta '])).toEqual([
      'sissy maid',
      'beta',
      'videos',
    ]);
    const keywords = pageMetadata({ path: '/v', keywords: ['sissy', 'lace', 'sissy', 'beta', 'videos'] }).keywords as string[];
    expect(keywords).toEqual(['sissy', 'lace', 'beta', 'videos']);
  });

  it('uses the spec’s default description and keywords', () => {
    const metadata = pageMetadata({ path: '/' });
    expect(metadata.title).toEqual({ absolute: 'Chrysalis' });
    expect(metadata.description).toMatch(/safe space for transformation and exploration/);
    expect(metadata.keywords).toEqual(['sissy', 'beta', 'transformation', 'hypno', 'videos', 'exploration', 'LGBTQ+']);
    expect(metadata.openGraph).toMatchObject({ type: 'website' });
  });

  it('labels every page as adult content at the root, without claiming a canonical URL', () => {
    const metadata = rootMetadata();
    expect(metadata.other).toEqual({ rating: 'adult', RATING: 'RTA-5042-1996-1400-1577-RTA' });
    expect(metadata.metadataBase?.toString()).toBe('https://chrysalis.example/');
    expect(metadata.alternates).toBeUndefined();
  });
});

describe('twitter:site', () => {
  it('names the configured account on every page', () => {
    jest.isolateModules(() => {
      process.env.TWITTER_SITE = 'chrysalis_site';
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh getConfig() that reads TWITTER_SITE
        const fresh = require('@/lib/seo/metadata') as typeof import('@/lib/seo/metadata');
        expect(fresh.pageMetadata({ path: '/' }).twitter).toMatchObject({ site: '@chrysalis_site' });
        expect(fresh.rootMetadata().twitter).toMatchObject({ site: '@chrysalis_site' });
      } finally {
        delete process.env.TWITTER_SITE;
      }
    });
  });
});

describe('structured data', () => {
  const parse = (html: string) => JSON.parse(/<script[^>]*>(.*)<\/script>/s.exec(html)![1]!);

  it('is a WebSite with a SearchAction on home', () => {
    const data = parse(renderToStaticMarkup(<WebSiteStructuredData path="/" withSearch />));
    expect(data['@type']).toBe('WebSite');
    expect(data.url).toBe('https://chrysalis.example/');
    expect(data.potentialAction.target.urlTemplate).toBe('https://chrysalis.example/search?q={search_term_string}');
  });

  it('is an Article for article pages', () => {
    const data = parse(
      renderToStaticMarkup(
        <ArticleStructuredData path="/privacy-policy" headline="Privacy Policy" description="d" dateModified="2026-11-21" />,
      ),
    );
    expect(data['@type']).toBe('Article');
    expect(data.headline).toBe('Privacy Policy');
    expect(data.dateModified).toBe('2026-11-21');
  });

  it('cannot be broken out of by text inside it', () => {
    const html = renderToStaticMarkup(<WebSiteStructuredData path="/" name={'</script><script>alert(1)</script>'} />);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(parse(html).name).toBe('</script><script>alert(1)</script>');
  });
});
