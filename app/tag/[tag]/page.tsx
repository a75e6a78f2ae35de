import type { Metadata } from 'next';
import { notFound } from 'next/navigation';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { ListedVideos } from '@/components/videos/ListedVideos';
import { ListOrderControl } from '@/components/videos/ListOrderControl';
import { loadTagPage } from '@/lib/server/videos/page-data';
import { previewImageOf } from '@/lib/server/videos/preview-image';
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

/** The tag the URL names, as videos store it; a 404 for what no video could carry. proxy.ts has redirected other spellings. */
async function readTag(params: Props['params']): Promise<string> {
  const tag = canonicalTag((await params).tag);
  if (!tag || tag.length > TAG_MAX || /[\u0000-\u001f\u007f]/.test(tag)) notFound();
  return tag;
}

const tagPageHref = (tag: string, order: ListOrder, page = 1) => listPageHref(tagHref(tag), order, page);

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const tag = await readTag(params);
  const query = await searchParams;
  const page = readListPage(query);
  const order = readListOrder(listOrderSchema, query);
  const variant = isListVariant(order);
  return pageMetadata({
    title: listTitle(`#${tag} Videos`, order, page),
    description: `Videos tagged #${tag}, newest first: watch, like and share them.`,
    path: variant ? tagHref(tag) : tagPageHref(tag, order, page),
    keywords: [tag, 'videos'],
    noindex: variant,
    image: await previewImageOf({ list: 'tag', name: tag }),
  });
}

export default async function TagPage({ params, searchParams }: Props) {
  const tag = await readTag(params);
  const query = await searchParams;
  const page = readListPage(query);
  const order = readListOrder(listOrderSchema, query);
  const list = await loadTagPage(tag, page, order);
  // A tag no public video carries is no page (a crawler must not index an empty list); past the last page is.
  if (list && list.videos.length === 0 && page === 1 && !order.duration) notFound();
  return (
    <>
      <WebSiteStructuredData path={tagHref(tag)} name={`#${tag} Videos`} />
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
