import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { NoVideos } from '@/components/videos/NoVideos';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, DEFAULT_KEYWORDS, type Category } from '@/lib/site';

const DESCRIPTIONS: Record<Category, string> = {
  Sissy: 'Sissy transformation videos: feminisation, dressing up and becoming who you want to be, by and for adults.',
  Beta: 'Beta videos: playful surrender, teasing and power exchange between consenting adults.',
  Censor: 'Censor videos: censorship play, blurred and bar-covered fantasies for adults who like to be denied.',
};

// Only the three categories exist; any other name is a real 404.
export const dynamicParams = false;

export function generateStaticParams() {
  return CATEGORIES.map((category) => ({ category }));
}

type Props = { params: Promise<{ category: string }> };

function asCategory(name: string): Category {
  const category = CATEGORIES.find((c) => c === name);
  if (!category) notFound();
  return category;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const category = asCategory((await params).category);
  return pageMetadata({
    title: `${category} Videos`,
    description: DESCRIPTIONS[category],
    path: `/category/${category}`,
    keywords: [category.toLowerCase(), ...DEFAULT_KEYWORDS.filter((k) => k !== category.toLowerCase())],
  });
}

export default async function CategoryPage({ params }: Props) {
  const category = asCategory((await params).category);
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
        <NoVideos message={`No ${category} videos yet.`} />
      </section>
    </>
  );
}
