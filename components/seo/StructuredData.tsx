import { ArticleJsonLd, JsonLdScript } from 'next-seo';

import { getConfig } from '@/lib/config/server';
import { DEFAULT_IMAGE } from '@/lib/site';
import { absoluteUrl } from '@/lib/seo/metadata';

/**
 * The page's JSON-LD block: WebSite for ordinary pages (with a SearchAction
 * on home, so search engines can offer a site search box), Article for
 * article pages such as the policies. next-seo escapes the JSON so text in
 * it cannot close the script element.
 */
export function WebSiteStructuredData({ path, name, withSearch = false }: { path: string; name?: string; withSearch?: boolean }) {
  const { siteUrl, siteName } = getConfig();
  return (
    <JsonLdScript
      id="structured-data"
      scriptKey="structured-data"
      data={{
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: name ?? siteName,
        url: absoluteUrl(path),
        isFamilyFriendly: false,
        ...(withSearch
          ? {
              potentialAction: {
                '@type': 'SearchAction',
                target: { '@type': 'EntryPoint', urlTemplate: `${siteUrl}/search?q={search_term_string}` },
                'query-input': 'required name=search_term_string',
              },
            }
          : {}),
      }}
    />
  );
}

export function ArticleStructuredData(props: { path: string; headline: string; description: string; dateModified: string }) {
  const { siteName } = getConfig();
  const publisher = { '@type': 'Organization' as const, name: siteName, logo: absoluteUrl(DEFAULT_IMAGE.path) };
  return (
    <ArticleJsonLd
      scriptId="structured-data"
      headline={props.headline}
      description={props.description}
      url={absoluteUrl(props.path)}
      mainEntityOfPage={absoluteUrl(props.path)}
      image={absoluteUrl(DEFAULT_IMAGE.path)}
      datePublished={props.dateModified}
      dateModified={props.dateModified}
      author={publisher}
      publisher={publisher}
    />
  );
}
