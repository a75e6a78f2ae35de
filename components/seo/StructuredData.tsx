import { JsonLd } from '@/components/seo/JsonLd';
import { getConfig } from '@/lib/config/server';
import type { JsonLdObject } from '@/lib/seo/json-ld';
import { DEFAULT_IMAGE } from '@/lib/site';
import { absoluteUrl } from '@/lib/seo/metadata';

/**
 * The page's schema.org block (id "structured-data"): WebSite for ordinary
 * pages (with a SearchAction on home, so search engines can offer a site
 * search box), Article for article pages such as the policies, VideoObject
 * on video pages. All go through <JsonLd>, which escapes what members wrote.
 */
export function WebSiteStructuredData({ path, name, withSearch = false }: { path: string; name?: string; withSearch?: boolean }) {
  const { siteUrl, siteName } = getConfig();
  const data: JsonLdObject = {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: name ?? siteName,
    url: absoluteUrl(path),
    isFamilyFriendly: false,
  };
  if (withSearch) {
    data.potentialAction = {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${siteUrl}/search?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    };
  }
  return <JsonLd id="structured-data" data={data} />;
}

function publisher(): JsonLdObject {
  const { siteName } = getConfig();
  return { '@type': 'Organization', name: siteName, logo: absoluteUrl(DEFAULT_IMAGE.path) };
}

export function ArticleStructuredData(props: { path: string; headline: string; description: string; dateModified: string }) {
  const url = absoluteUrl(props.path);
  return (
    <JsonLd
      id="structured-data"
      data={{
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: props.headline,
        url,
        author: publisher(),
        datePublished: props.dateModified,
        dateModified: props.dateModified,
        image: absoluteUrl(DEFAULT_IMAGE.path),
        publisher: publisher(),
        description: props.description,
        mainEntityOfPage: url,
      }}
    />
  );
}

/**
 * A member by name alone: their profile is for members (robots.txt disallows /profile/, a visitor is sent to log in),
 * and structured data links only pages a crawler may open.
 */
const uploader = (username: string): JsonLdObject => ({ '@type': 'Person', name: username });

export interface VideoStructuredDataProps {
  streamVideoId: string;
  name: string;
  description: string;
  thumbnailUrl: string | null;
  uploadDate: string;
  /** ISO 8601 duration, when known. */
  duration?: string;
  contentUrl: string | null;
  views: number;
  likes: number;
  uploader: string;
}

export function VideoStructuredData(video: VideoStructuredDataProps) {
  const counter = (interactionType: string, userInteractionCount: number) => ({
    '@type': 'InteractionCounter',
    interactionType,
    userInteractionCount,
  });
  return (
    <JsonLd
      id="structured-data"
      data={{
        '@context': 'https://schema.org',
        '@type': 'VideoObject',
        name: video.name,
        description: video.description,
        thumbnailUrl: absoluteUrl(video.thumbnailUrl ?? '/logo-512.png'),
        uploadDate: video.uploadDate,
        contentUrl: video.contentUrl ? absoluteUrl(video.contentUrl) : undefined,
        embedUrl: absoluteUrl(`/embed/${video.streamVideoId}`),
        duration: video.duration,
        interactionStatistic: [
          counter('https://schema.org/WatchAction', video.views),
          counter('https://schema.org/LikeAction', video.likes),
        ],
        author: uploader(video.uploader),
        publisher: publisher(),
      }}
    />
  );
}

/** Videos as an ItemList's elements, by their pages' addresses, numbered from `first`. */
const listItems = (videos: { streamVideoId: string; title: string }[], first: number) =>
  videos.map((video, index) => ({
    '@type': 'ListItem',
    position: first + index,
    url: absoluteUrl(`/video/${video.streamVideoId}`),
    name: video.title,
  }));

/**
 * A category's or a tag's page: a CollectionPage whose main entity is the ItemList of the videos listed on it, with
 * their positions in the whole list (page 2 starts after page 1's last) and their pages' addresses.
 */
export function CollectionStructuredData(props: {
  path: string;
  name: string;
  description: string;
  /** Position of the first video listed (1 on page 1). */
  firstPosition: number;
  videos: { streamVideoId: string; title: string }[];
}) {
  return (
    <JsonLd
      id="structured-data"
      data={{
        '@context': 'https://schema.org',
        '@type': 'CollectionPage',
        name: props.name,
        description: props.description,
        url: absoluteUrl(props.path),
        isFamilyFriendly: false,
        isPartOf: { '@type': 'WebSite', name: getConfig().siteName, url: absoluteUrl('/') },
        mainEntity: {
          '@type': 'ItemList',
          numberOfItems: props.videos.length,
          itemListElement: listItems(props.videos, props.firstPosition),
        },
      }}
    />
  );
}

/** A public playlist's page: an ItemList of its videos in their order, each by its page's address. */
export function PlaylistStructuredData(props: {
  path: string;
  name: string;
  description: string;
  author: string;
  videos: { streamVideoId: string; title: string }[];
}) {
  return (
    <JsonLd
      id="structured-data"
      data={{
        '@context': 'https://schema.org',
        '@type': 'ItemList',
        name: props.name,
        description: props.description,
        url: absoluteUrl(props.path),
        itemListOrder: 'https://schema.org/ItemListOrderAscending',
        numberOfItems: props.videos.length,
        author: uploader(props.author),
        itemListElement: listItems(props.videos, 1),
      }}
    />
  );
}
