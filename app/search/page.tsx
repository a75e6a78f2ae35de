import type { Metadata } from 'next';
import Link from 'next/link';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { SearchIcon } from '@/components/icons';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, searchHref } from '@/lib/site';

type Props = { searchParams: Promise<{ q?: string | string[] }> };

/** The first q parameter, trimmed; repeated or missing parameters are handled, not trusted. */
async function readQuery(searchParams: Props['searchParams']): Promise<string> {
  const { q } = await searchParams;
  const value = Array.isArray(q) ? q[0] : q;
  return (value ?? '').trim();
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
  });
}

export default async function SearchPage({ searchParams }: Props) {
  const query = await readQuery(searchParams);
  return (
    <>
      <WebSiteStructuredData path="/search" name="Search" />
      <header className="page-header">
        <span className="eyebrow">Search</span>
        {query ? (
          <h1 className="query">Results for “{shorten(query, 200)}”</h1>
        ) : (
          <h1>Search videos</h1>
        )}
      </header>
      <div className="empty-state" role="status">
        <SearchIcon size={40} />
        {query ? (
          <p className="query">No videos match “{shorten(query, 200)}”.</p>
        ) : (
          <p>Type what you are looking for in the search box above.</p>
        )}
        <span>Try a broader word, or browse a category:</span>
        <ul className="chips">
          {CATEGORIES.map((category) => (
            <li key={category}>
              <Link className="chip" href={`/category/${category}`}>
                {category}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
