import { cache } from 'react';
import type { Metadata } from 'next';

import { CollectionStructuredData } from '@/components/seo/StructuredData';
import { MissingPage, missingPageMetadata } from '@/components/shell/MissingPage';
import { ListedVideos } from '@/components/videos/ListedVideos';
import { ListOrderControl } from '@/components/videos/ListOrderControl';
import { CATEGORY_PAGE_SIZE, loadTagPage } from '@/lib/server/videos/page-data';
import { previewImageOf } from '@/lib/server/videos/preview-image';
import { setPageStatus } from '@/lib/server/page-status';
import { pageMetadata } from '@/lib/seo/metadata';
import { canonicalTag, tagHref } from '@/lib/site';
import {
  isListVariant,
  listOrderSchema,
  listPageHref,
  listTitle,
  readListOrder,
  readListPage,
  TAG_MAX,
  VIDEO_SORTS,
  type ListOrder,
} from '@/lib/validation/videos';

type Props = {
  params: Promise<{ tag: string }>;
  searchParams: Promise<{ page?: string | string[]; sort?: string | string[]; duration?: string | string[] }>;
};

/** The tag the URL names, as videos store it; null (a 404) for what no video could carry. proxy.ts has redirected other spellings. */
async function readTag(params: Props['params']): Promise<string | null> {
  const tag = canonicalTag((await params).tag);
  return !tag || tag.length > TAG_MAX || /[\u0000-\u001f\u007f]/.test(tag) ? null : tag;
}

/** One read of the list per request, shared by the metadata and the page (React's cache keys on these primitives). */
const loadList = cache((tag: string, page: number, sort: ListOrder['sort'], duration: ListOrder['duration']) =>
  loadTagPage(tag, page, { sort, duration }),
);

/** A tag no public video carries is no page (a crawler must not index an empty list); past the last page is. */
const isUnknownTag = (list: Awaited<ReturnType<typeof loadTagPage>>, page: number, order: ListOrder) =>
  Boolean(list && list.videos.length === 0 && page === 1 && !order.duration);

/** Rendered, not thrown: a thrown notFound() sends crawlers an empty page (decision 057). */
function missingTag() {
  setPageStatus(404);
  return <MissingPage />;
}

const tagDescription = (tag: string) => `Videos tagged #${tag}, newest first: watch, like and share them.`;

const tagPageHref = (tag: string, order: ListOrder, page = 1) => listPageHref(tagHref(tag), order, page);

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tag = await readTag(params);
  if (!tag) return missingPageMetadata();
  const query = await searchParams;
  const page = readListPage(query);
  const order = readListOrder(listOrderSchema, query);
  if (isUnknownTag(await loadList(tag, page, order.sort, order.duration), page, order)) return missingPageMetadata();
  const variant = isListVariant(order);
  return pageMetadata({
    title: listTitle(`#${tag} Videos`, order, page),
    description: tagDescription(tag),
    path: variant ? tagHref(tag) : tagPageHref(tag, order, page),
    keywords: [tag, 'videos'],
    noindex: variant,
    image: await previewImageOf({ list: 'tag', name: tag }),
  });
}

export default async function TagPage({ params, searchParams }: Props) {
  const tag = await readTag(params);
  if (!tag) return missingTag();
  const query = await searchParams;
  const page = readListPage(query);
  const order = readListOrder(listOrderSchema, query);
  const list = await loadList(tag, page, order.sort, order.duration);
  if (isUnknownTag(list, page, order)) return missingTag();
  return (
    <>
      <CollectionStructuredData
        path={tagPageHref(tag, order, page)}
        name={`#${tag} Videos`}
        description={tagDescription(tag)}
        firstPosition={(page - 1) * CATEGORY_PAGE_SIZE + 1}
        videos={list?.videos ?? []}
      />
      <header className="page-header">
        <span className="eyebrow">Tag</span>
        <h1>#{tag}</h1>
      </header>
      <ListOrderControl sorts={VIDEO_SORTS} current={order} href={(choice) => tagPageHref(tag, choice)} />
      <section className="section" aria-label={`#${tag} videos`}>
        <ListedVideos
          list={list}
          page={page}
          order={order}
          name={`#${tag}`}
          href={(n) => tagPageHref(tag, order, n)}
          orderHref={(choice) => tagPageHref(tag, choice)}
        />
      </section>
    </>
  );
}
