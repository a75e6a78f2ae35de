import { renderToStaticMarkup } from 'react-dom/server';

import { WebSiteStructuredData, ArticleStructuredData } from '@/components/seo/StructuredData';
import { pageMetadata, rootMetadata } from '@/lib/seo/metadata';

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
      title: 'Community Standards | Chrysalis',
      description: 'Rules.',
      url: 'https://chrysalis.example/community-standards',
      siteName: 'Chrysalis',
      type: 'article',
      images: [{ url: 'https://chrysalis.example/logo-512.png', width: 512, height: 512 }],
    });
    expect(metadata.twitter).toMatchObject({ card: 'summary_large_image', images: ['https://chrysalis.example/logo-512.png'] });
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
