import type { Metadata } from 'next';

import { CollectionStructuredData } from '@/components/seo/StructuredData';
import { MissingPage, missingPageMetadata } from '@/components/shell/MissingPage';
import { ListOrderControl } from '@/components/videos/ListOrderControl';
import { ListedVideos } from '@/components/videos/ListedVideos';
import { CATEGORY_PAGE_SIZE, loadCategoryPage } from '@/lib/server/videos/page-data';
import { previewImageOf } from '@/lib/server/videos/preview-image';
import { setPageStatus } from '@/lib/server/page-status';
import { pageMetadata } from '@/lib/seo/metadata';
import { CATEGORIES, DEFAULT_KEYWORDS, type Category } from '@/lib/site';
import {
  isListVariant,
  listOrderSchema,
  listPageHref,
  listTitle,
  readListOrder,
  readListPage,
  VIDEO_SORTS,
  type ListOrder,
} from '@/lib/validation/videos';

const DESCRIPTIONS: Record<Category, string> = {
  Sissy: 'Sissy transformation videos: feminisation, dressing up and becoming who you want to be, by and for adults.',
  Beta: 'Beta videos: playful surrender, teasing and power exchange between consenting adults.',
  Censor: 'Censor videos: censorship play, blurred and bar-covered fantasies for adults who like to be denied.',
};

type Props = {
  params: Promise<{ category: string }>;
  searchParams: Promise<{ page?: string | string[]; sort?: string | string[]; duration?: string | string[] }>;
};

async function readPage(searchParams: Props['searchParams']): Promise<number> {
  return readListPage(await searchParams);
}

/** The list's order from ?sort and ?duration (an unknown value falls back to newest / any length). */
async function readOrder(searchParams: Props['searchParams']): Promise<ListOrder> {
  return readListOrder(listOrderSchema, await searchParams);
}

const categoryHref = (category: Category, order: ListOrder, page = 1) => listPageHref(`/category/${category}`, order, page);

const asCategory = (name: string): Category | null => CATEGORIES.find((c) => c === name) ?? null;

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const category = asCategory((await params).category);
  if (!category) return missingPageMetadata();
  const page = await readPage(searchParams);
  const order = await readOrder(searchParams);
  const variant = isListVariant(order);
  return pageMetadata({
    title: listTitle(`${category} Videos`, order, page),
    description: DESCRIPTIONS[category],
    path: variant ? `/category/${category}` : categoryHref(category, order, page),
    keywords: [category.toLowerCase(), ...DEFAULT_KEYWORDS.filter((k) => k !== category.toLowerCase())],
    noindex: variant,
    image: await previewImageOf({ list: 'category', name: category }),
  });
}

export default async function CategoryPage({ params, searchParams }: Props) {
  const category = asCategory((await params).category);
  if (!category) {
    // Rendered, not thrown: a thrown notFound() sends crawlers an empty page (decision 057).
    setPageStatus(404);
    return <MissingPage />;
  }
  const page = await readPage(searchParams);
  const order = await readOrder(searchParams);
  const list = await loadCategoryPage(category, page, order);
  const href = (n: number) => categoryHref(category, order, n);
  return (
    <>
      <CollectionStructuredData
        path={categoryHref(category, order, page)}
        name={`${category} Videos`}
        description={DESCRIPTIONS[category]}
        firstPosition={(page - 1) * CATEGORY_PAGE_SIZE + 1}
        videos={list?.videos ?? []}
      />
      <header className="page-header">
        <span className="eyebrow">Category</span>
        <h1>{category}</h1>
        <p>{DESCRIPTIONS[category]}</p>
      </header>
      <nav aria-label="Categories">
        <ul className="chips">
          {CATEGORIES.map((c) => (
            <li key={c}>
              <a className="chip" href={`/category/${c}`} aria-current={c === category ? 'page' : undefined}>
                {c}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ListOrderControl sorts={VIDEO_SORTS} current={order} href={(choice) => categoryHref(category, choice)} />
      <section className="section" aria-label={`${category} videos`}>
        <ListedVideos
          list={list}
          page={page}
          order={order}
          name={category}
          href={href}
          orderHref={(choice) => categoryHref(category, choice)}
        />
      </section>
    </>
  );
}
