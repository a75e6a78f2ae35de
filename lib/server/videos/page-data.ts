import 'server-only';

import { connection } from 'next/server';

import type { VideoDto, VideoListDto } from '@/lib/api-types';
import { HOME_PAGE_SIZES, type Category } from '@/lib/site';
import type { ListOrder } from '@/lib/validation/videos';

import { listCategoryVideos, listRecentVideos, listTagVideos, listTopVideos } from './catalog';
import { logger } from '@/lib/server/log';

const log = logger('pages');

/**
 * Data for public pages. They render per request (never at build time: the
 * build does not open the database) and the public-page cache in front of
 * Next keeps them at static-file speed. A failed read renders the page with
 * the spec's error text instead of a 500; the client feed then tries the
 * API and its local cache.
 */
async function orNull<T>(load: () => Promise<T>, what: string): Promise<T | null> {
  await connection();
  try {
    return await load();
  } catch (error) {
    log.error({ err: error }, `could not load ${what}`);
    return null;
  }
}

export async function loadHomeFeeds(): Promise<{ top: VideoDto[] | null; recent: VideoListDto | null }> {
  const [top, recent] = await Promise.all([
    orNull(() => listTopVideos(HOME_PAGE_SIZES.top), 'top videos'),
    orNull(() => listRecentVideos({ limit: HOME_PAGE_SIZES.recent, page: 1 }), 'recent videos'),
  ]);
  return { top, recent };
}

export const CATEGORY_PAGE_SIZE = 24;

/** A tag's page of videos (the category page's size and orders), or null when the list could not be read. */
export function loadTagPage(tag: string, page: number, order: ListOrder = { sort: 'newest' }): Promise<VideoListDto | null> {
  return orNull(() => listTagVideos(tag, { limit: CATEGORY_PAGE_SIZE, page }, order), `tag ${tag} page ${page}`);
}

export function loadCategoryPage(
  category: Category,
  page: number,
  order: ListOrder = { sort: 'newest' },
): Promise<VideoListDto | null> {
  return orNull(() => listCategoryVideos(category, { limit: CATEGORY_PAGE_SIZE, page }, order), `${category} page ${page}`);
}
