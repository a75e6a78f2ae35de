import 'server-only';

import type { Metadata } from 'next';

import { getConfig } from '@/lib/config/server';
import { DEFAULT_DESCRIPTION, DEFAULT_IMAGE, DEFAULT_KEYWORDS, RTA_LABEL } from '@/lib/site';

export interface PageSeo {
  /** Page title without the product name; the product name is appended. Omit on home. */
  title?: string;
  description?: string;
  /** Path of the canonical URL, e.g. "/category/Sissy". */
  path: string;
  /** "article" pages get og:type article and Article JSON-LD; others WebSite. */
  type?: 'website' | 'article';
  keywords?: readonly string[];
  image?: { url: string; width: number; height: number; alt: string };
  /** Pages such as search results that should not be indexed. */
  noindex?: boolean;
}

/** "Community Standards | Chrysalis"; the product name alone on home. */
export function fullTitle(title: string | undefined, siteName = getConfig().siteName): string {
  return title ? `${title} | ${siteName}` : siteName;
}

export function absoluteUrl(path: string): string {
  return new URL(path, `${getConfig().siteUrl}/`).toString();
}

/** Every page's language for link previews; the site is in English only. */
export const OG_LOCALE = 'en_US';

/**
 * Keywords in order, each adding a word the earlier ones lack: "Sissy" after "sissy", or "sissy" after
 * "sissy maid", says nothing new (a video's tags, its category and the defaults overlap).
 */
export function distinctKeywords(keywords: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const keyword of keywords) {
    const words = keyword.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0 || words.every((word) => seen.has(word))) continue;
    for (const word of words) seen.add(word);
    kept.push(keyword.trim());
  }
  return kept;
}

/**
 * Complete metadata for one page (Next replaces, not merges, nested objects such as openGraph). The title tag
 * carries the product name; og:title does not, since og:site_name says it beside it in every preview.
 */
export function pageMetadata(seo: PageSeo): Metadata {
  const { siteName, twitterSite } = getConfig();
  const title = fullTitle(seo.title, siteName);
  const shareTitle = seo.title ?? siteName;
  const description = seo.description ?? DEFAULT_DESCRIPTION;
  const url = absoluteUrl(seo.path);
  const image = seo.image ?? {
    url: absoluteUrl(DEFAULT_IMAGE.path),
    width: DEFAULT_IMAGE.width,
    height: DEFAULT_IMAGE.height,
    alt: `${siteName} logo`,
  };
  return {
    title: { absolute: title },
    description,
    keywords: distinctKeywords(seo.keywords ?? DEFAULT_KEYWORDS),
    alternates: { canonical: url, types: { 'application/rss+xml': absoluteUrl('/feed.xml') } },
    openGraph: {
      title: shareTitle,
      description,
      url,
      siteName,
      locale: OG_LOCALE,
      type: seo.type ?? 'website',
      images: [image],
    },
    twitter: {
      card: 'summary_large_image',
      site: twitterSite,
      title: shareTitle,
      description,
      images: [{ url: image.url, alt: image.alt }],
    },
    robots: seo.noindex ? { index: false, follow: true } : undefined,
  };
}

/** Defaults for the root layout: every page inherits the adult labels and icons. */
export function rootMetadata(): Metadata {
  const { siteUrl, siteName } = getConfig();
  // No canonical here: a page without its own (the 404 page) must not claim to be home.
  const { alternates: _unused, ...defaults } = pageMetadata({ path: '/' });
  return {
    metadataBase: new URL(`${siteUrl}/`),
    applicationName: siteName,
    ...defaults,
    // Parental-control filters read these: a generic adult rating and the RTA label.
    other: { rating: 'adult', RATING: RTA_LABEL },
    formatDetection: { telephone: false, email: false, address: false },
  };
}
