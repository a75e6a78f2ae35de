import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { NoVideos } from '@/components/videos/NoVideos';
import { Pager } from '@/components/videos/Pager';
import { VideoGrid } from '@/components/videos/VideoCard';
import { loadCategoryPage } from '@/lib/server/videos/page-data';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, DEFAULT_KEYWORDS, type Category } from '@/lib/site';

const DESCRIPTIONS: Record<Category, string> = {
  Sissy: 'Sissy transformation videos: feminisation, dressing up and becoming who you want to be, by and for adults.',
  Beta: 'Beta videos: playful surrender, teasing and power exchange between consenting adults.',
  Censor: 'Censor videos: censorship play, blurred and bar-covered fantasies for adults who like to be denied.',
};

type Props = { params: Promise<{ category: string }>; searchParams: Promise<{ page?: string | string[] }> };

/** ?page=N, or 1 for anything that is not a sensible page number (never an error page for a bad link). */
async function readPage(searchParams: Props['searchParams']): Promise<number> {
  const { page } = await searchParams;
  const value = Number(Array.isArray(page) ? page[0] : page);
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

function asCategory(name: string): Category {
  const category = CATEGORIES.find((c) => c === name);
  if (!category) notFound();
  return category;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const category = asCategory((await params).category);
  const page = await readPage(searchParams);
  return pageMetadata({
    title: page > 1 ? `${category} Videos, page ${page}` : `${category} Videos`,
    description: DESCRIPTIONS[category],
    path: page > 1 ? `/category/${category}?page=${page}` : `/category/${category}`,
    keywords: [category.toLowerCase(), ...DEFAULT_KEYWORDS.filter((k) => k !== category.toLowerCase())],
  });
}

export default async function CategoryPage({ params, searchParams }: Props) {
  const category = asCategory((await params).category);
  const page = await readPage(searchParams);
  const list = await loadCategoryPage(category, page);
  const href = (n: number) => (n > 1 ? `/category/${category}?page=${n}` : `/category/${category}`);
  return (
    <>
      <WebSiteStructuredData path={`/category/${category}`} name={`${category} Videos`} />
      <header className="page-header">
        <span className="eyebrow">Category</span>
        <h1>{category}</h1>
        <p>{DESCRIPTIONS[category]}</p>
      </header>
      <nav aria-label="Categories">
        <ul className="chips">
          {CATEGORIES.map((c) => (
            <li key={c}>
              <Link className="chip" href={`/category/${c}`} aria-current={c === category ? 'page' : undefined}>
                {c}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="section" aria-label={`${category} videos`}>
        {list === null ? (
          <p className="form-error" role="alert">
            Error loading videos. Please try again later.
          </p>
        ) : list.videos.length === 0 ? (
          page > 1 ? (
            <div className="empty-state">
              <p>There are no more {category} videos.</p>
              <Link className="btn btn-primary" href={href(1)}>
                Back to the first page
              </Link>
            </div>
          ) : (
            <NoVideos message={`No ${category} videos yet.`} />
          )
        ) : (
          <>
            <VideoGrid videos={list.videos} label={`${category} videos`} priorityCount={4} />
            <Pager page={page} hasMore={list.pagination.hasMore} href={href} labels={['← Newer', 'Older →']} />
          </>
        )}
      </section>
    </>
  );
}
