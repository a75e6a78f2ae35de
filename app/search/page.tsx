import type { Metadata } from 'next';

import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { SearchIcon } from '@/components/icons';
import { ListOrderControl } from '@/components/videos/ListOrderControl';
import { Pager } from '@/components/videos/Pager';
import { StaticVideoGrid } from '@/components/videos/StaticVideoGrid';
import { logger } from '@/lib/server/log';
import { previewImageOf } from '@/lib/server/videos/preview-image';
import { searchVideos } from '@/lib/server/videos/search';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, searchHref } from '@/lib/site';
import {
  DURATION_LABELS,
  orderQuery,
  readListOrder,
  SEARCH_QUERY_MAX,
  SEARCH_SORTS,
  searchOrderSchema,
  type SearchOrder,
} from '@/lib/validation/videos';

type Props = {
  searchParams: Promise<{
    q?: string | string[];
    page?: string | string[];
    sort?: string | string[];
    duration?: string | string[];
  }>;
};

const PAGE_SIZE = 24;

async function readPage(searchParams: Props['searchParams']): Promise<number> {
  const { page } = await searchParams;
  const value = Number(Array.isArray(page) ? page[0] : page);
  return Number.isInteger(value) && value >= 1 && value <= 1_000 ? value : 1;
}

async function runSearch(query: string, page: number, order: SearchOrder) {
  await connection();
  try {
    return await searchVideos(query, { limit: PAGE_SIZE, page }, order);
  } catch (error) {
    logger('search').error({ err: error }, 'search failed');
    return null;
  }
}

/** The first q parameter, trimmed; repeated or missing parameters are handled, not trusted. */
async function readQuery(searchParams: Props['searchParams']): Promise<string> {
  const { q } = await searchParams;
  const value = Array.isArray(q) ? q[0] : q;
  return (value ?? '').trim();
}

/** A results page in an order: best match first keeps the plain /search?q= URL. */
function resultsHref(query: string, order: SearchOrder, page = 1): string {
  const extra = [orderQuery(order, 'relevance'), page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
  return `${searchHref(query)}${extra ? `&${extra}` : ''}`;
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const query = await readQuery(searchParams);
  return pageMetadata({
    title: query ? `Search: ${shorten(query, 60)}` : 'Search',
    description: query ? `Videos matching “${shorten(query, 100)}”.` : 'Search Sissy, Beta and Censor videos.',
    path: (query && searchHref(query)) || '/search',
    // Result pages are endless and thin; keep them out of indexes but let crawlers follow links.
    noindex: true,
    image: await previewImageOf(query ? { list: 'search', name: query.slice(0, SEARCH_QUERY_MAX) } : { list: 'home' }),
  });
}

export default async function SearchPage({ searchParams }: Props) {
  const query = await readQuery(searchParams);
  const page = await readPage(searchParams);
  const order = readListOrder(searchOrderSchema, await searchParams);
  const results = query ? await runSearch(query, page, order) : null;
  const href = (n: number) => resultsHref(query, order, n);
  const control =
    query && results ? (
      <ListOrderControl sorts={SEARCH_SORTS} current={order} href={(choice) => resultsHref(query, choice)} />
    ) : null;
  if (results && results.videos.length > 0) {
    return (
      <>
        <WebSiteStructuredData path="/search" name="Search" />
        <header className="page-header">
          <span className="eyebrow">Search</span>
          <h1 className="query">Results for “{shorten(query, 200)}”</h1>
        </header>
        {control}
        <StaticVideoGrid videos={results.videos} label="Search results" priorityCount={4} />
        <Pager page={page} hasMore={results.pagination.hasMore} href={href} />
      </>
    );
  }
  return (
    <>
      <WebSiteStructuredData path="/search" name="Search" />
      <header className="page-header">
        <span className="eyebrow">Search</span>
        {query ? <h1 className="query">Results for “{shorten(query, 200)}”</h1> : <h1>Search videos</h1>}
      </header>
      {control}
      <div className="empty-state" role="status">
        <SearchIcon size={40} />
        {query && query.length > 0 && results === null ? (
          <p className="form-error">Error loading videos. Please try again later.</p>
        ) : query && order.duration ? (
          <p className="query">
            No videos {DURATION_LABELS[order.duration].toLowerCase()} long match “{shorten(query, 200)}”.{' '}
            <a href={resultsHref(query, { sort: order.sort })}>Show every length</a>
          </p>
        ) : query ? (
          <p className="query">No videos match “{shorten(query, 200)}”.</p>
        ) : (
          <p>Type what you are looking for in the search box above.</p>
        )}
        <span>Try a broader word, or browse a category:</span>
        <ul className="chips">
          {CATEGORIES.map((category) => (
            <li key={category}>
              <a className="chip" href={`/category/${category}`}>
                {category}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
