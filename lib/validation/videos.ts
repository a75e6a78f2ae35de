/** Upload fields, shared by the upload form and the API. */
import { DECISION_GROUNDS, type DecisionGround } from '@/lib/trust/grounds';
import { z } from '@/lib/validation/zod';

import { canonicalTag, CATEGORIES } from '@/lib/site';

import { multilineText, positiveInt, text } from './common';

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 5000;
export const TAGS_MAX = 15;
export const TAG_MAX = 30;

/** "a, b , c" or repeated fields → trimmed, lower-case, unique tags. */
export function splitTags(input: string | string[] | undefined): string[] {
  const parts = (Array.isArray(input) ? input : [input ?? '']).flatMap((value) => value.split(','));
  return [...new Set(parts.map(canonicalTag).filter(Boolean))];
}

export const uploadFieldsSchema = z.object({
  title: text('Title is required')
    .trim()
    .min(1, 'Title is required')
    .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`),
  description: multilineText()
    .trim()
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`)
    .default(''),
  category: z.enum(CATEGORIES, { error: `Category must be one of ${CATEGORIES.join(', ')}` }),
  tags: z
    .array(text().max(TAG_MAX, `Each tag must be at most ${TAG_MAX} characters`))
    .max(TAGS_MAX, `Use at most ${TAGS_MAX} tags`)
    .default([]),
});

export type UploadFields = z.infer<typeof uploadFieldsSchema>;

export const LIST_LIMIT_MAX = 50;

// ---- Sort and filter (category pages, search, GET /api/videos and /api/videos/search) ----

/** The list orders: newest (the default), most viewed, most liked, longest. */
export const VIDEO_SORTS = ['newest', 'views', 'likes', 'longest'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];
/** Search adds its own default, best match first. */
export const SEARCH_SORTS = ['relevance', ...VIDEO_SORTS] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
/** The duration filter: under 5 min, 5–20 min (both edges included), over 20 min. */
export const DURATION_FILTERS = ['short', 'medium', 'long'] as const;
export type DurationFilter = (typeof DURATION_FILTERS)[number];

export const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Best match',
  newest: 'Newest',
  views: 'Most viewed',
  likes: 'Most liked',
  longest: 'Longest',
};
export const DURATION_LABELS: Record<DurationFilter, string> = { short: 'Under 5 min', medium: '5–20 min', long: 'Over 20 min' };

const sortField = <S extends readonly [string, ...string[]]>(sorts: S) =>
  z.enum(sorts, { error: `sort must be one of ${sorts.join(', ')}` });
const durationField = z.enum(DURATION_FILTERS, { error: `duration must be one of ${DURATION_FILTERS.join(', ')}` });

/**
 * The one contract for `sort` and `duration`: the APIs answer an unknown
 * value with a 400 (as for `category`); the pages read the same fields with
 * readListOrder, where an unknown value falls back to the default (as a bad
 * `page` does), so an old or mistyped link still shows a list.
 */
export const listOrderSchema = z.object({ sort: sortField(VIDEO_SORTS).default('newest'), duration: durationField.optional() });
export const searchOrderSchema = z.object({
  sort: sortField(SEARCH_SORTS).default('relevance'),
  duration: durationField.optional(),
});

export type ListOrder = z.infer<typeof listOrderSchema>;
export type SearchOrder = z.infer<typeof searchOrderSchema>;

type RawParams = Record<string, string | string[] | undefined>;

/** A page's `sort` and `duration` through the API's schema, each falling back to its default when it is not one of the choices. */
export function readListOrder<S extends typeof listOrderSchema | typeof searchOrderSchema>(
  schema: S,
  params: RawParams,
): z.infer<S> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const sort = schema.shape.sort.safeParse(first(params.sort));
  const duration = schema.shape.duration.safeParse(first(params.duration));
  return schema.parse({
    sort: sort.success ? sort.data : undefined,
    duration: duration.success ? duration.data : undefined,
  }) as z.infer<S>;
}

/** The query string of an order, defaults left out (so the default order keeps the plain URL); '' when there is nothing to add. */
/** ?page=N of a server-rendered list, or 1 for anything that is not a sensible page number (never an error page for a bad link). */
export function readListPage(params: RawParams & { page?: string | string[] }): number {
  const value = Number(Array.isArray(params.page) ? params.page[0] : params.page);
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1;
}

export function orderQuery(order: { sort: string; duration?: string }, defaultSort: string): string {
  const params = new URLSearchParams();
  if (order.sort !== defaultSort) params.set('sort', order.sort);
  if (order.duration) params.set('duration', order.duration);
  return params.toString();
}

/** The URL of a page of a newest-first list (a category's, a tag's) in an order; the plain list keeps its cacheable URL. */
export function listPageHref(path: string, order: ListOrder, page = 1): string {
  const params = [orderQuery(order, 'newest'), page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
  return params ? `${path}?${params}` : path;
}

/** A sorted or filtered list is the same videos again: such a variant is noindex, with the plain list as its canonical. */
export const isListVariant = (order: ListOrder): boolean => order.sort !== 'newest' || order.duration !== undefined;

/** A newest-first list's title: "Sissy Videos (Most viewed, Under 5 min), page 2". */
export function listTitle(name: string, order: ListOrder, page: number): string {
  const label = [
    order.sort !== 'newest' ? SORT_LABELS[order.sort] : null,
    order.duration ? DURATION_LABELS[order.duration] : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `${name}${label ? ` (${label})` : ''}${page > 1 ? `, page ${page}` : ''}`;
}

export const videoListQuerySchema = z
  .object({
    limit: positiveInt('limit', LIST_LIMIT_MAX, 12),
    page: positiveInt('page', 10_000, 1),
    cursor: text().max(200).optional(),
    category: z.enum(CATEGORIES, { error: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
  })
  .extend(listOrderSchema.shape);

/** A member's Watch later list holds at most this many videos. */
export const WATCH_LATER_MAX = 1000;

/** GET /api/users/me/watch-later: `limit` 1–50 (12), `page` 1–10000 (1), or the `cursor` of the last answer. */
export const watchLaterQuerySchema = videoListQuerySchema.pick({ limit: true, page: true, cursor: true });

export const topVideosQuerySchema = z.object({ limit: positiveInt('limit', LIST_LIMIT_MAX, 6) });

export const SEARCH_QUERY_MAX = 200;

export const searchQuerySchema = z
  .object({
    q: text('Type something to search for').trim().max(SEARCH_QUERY_MAX, `Search for at most ${SEARCH_QUERY_MAX} characters`),
    limit: positiveInt('limit', LIST_LIMIT_MAX, 12),
    page: positiveInt('page', 1_000, 1),
  })
  .extend(searchOrderSchema.shape);

/** GET /preview-image: which list's link-preview picture (lib/server/videos/preview-image.tsx), and `v`, the key its page named. */
const previewVersion = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'v must be a preview key')
  .optional();
export const previewImageQuerySchema = z.discriminatedUnion(
  'list',
  [
    z.object({ list: z.literal('home'), v: previewVersion }),
    z.object({ list: z.literal('category'), name: z.enum(CATEGORIES, { error: 'name must be a category' }), v: previewVersion }),
    z.object({
      list: z.literal('tag'),
      name: text().transform(canonicalTag).pipe(z.string().min(1).max(TAG_MAX)),
      v: previewVersion,
    }),
    z.object({ list: z.literal('search'), name: searchQuerySchema.shape.q.min(1), v: previewVersion }),
  ],
  { error: 'list must be one of home, category, tag, search' },
);

/** Where a video stands in review. */
export const MODERATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

/** GET /api/admin/videos: one status of the queue, a page at a time. */
export const moderationQueueQuerySchema = videoListQuerySchema.pick({ limit: true, page: true }).extend({
  status: z.enum(MODERATION_STATUSES, { error: `status must be one of ${MODERATION_STATUSES.join(', ')}` }).default('pending'),
});

export const REJECTION_REASON_MAX = 500;

/**
 * The rule a rejection names in its statement of reasons when the admin
 * picks none (the spec's `{action:'reject', reason}` still works): the
 * section every upload is checked against.
 */
export const DEFAULT_REJECTION_GROUND: DecisionGround = 'standards-what-you-can-share';

const rejectionReason = multilineText('Give a reason for the rejection')
  .trim()
  .min(1, 'Give a reason for the rejection')
  .max(REJECTION_REASON_MAX, `The reason must be at most ${REJECTION_REASON_MAX} characters`);

export const moderationSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('approve') }),
    z.object({
      action: z.literal('reject'),
      reason: rejectionReason,
      ground: z
        .enum(DECISION_GROUNDS, { error: `ground must be one of ${DECISION_GROUNDS.join(', ')}` })
        .default(DEFAULT_REJECTION_GROUND),
    }),
  ],
  { error: 'action must be approve or reject' },
);

/**
 * PATCH /api/admin/videos/{streamVideoId}/text-edit: a moderator's decision on an owner's waiting title, description
 * and tags (decision 009), naming the proposal they read (editId), so a newer one is never decided unseen.
 */
export const textEditDecisionSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('approve'), editId: z.uuid({ error: 'editId must be the id of the changes you read' }) }),
    z.object({
      action: z.literal('reject'),
      editId: z.uuid({ error: 'editId must be the id of the changes you read' }),
      reason: rejectionReason,
    }),
  ],
  { error: 'action must be approve or reject' },
);
export type TextEditDecision = z.infer<typeof textEditDecisionSchema>;

/** GET /api/admin/video-text-edits: the waiting edits, a page at a time. */
export const textEditQueueQuerySchema = videoListQuerySchema.pick({ limit: true, page: true });

/** Quick picks for the rejection reasons admins give most; the text stays editable. */
export const REJECTION_TEMPLATES = [
  'Not in our categories',
  'Low quality or broken video',
  'Copyrighted material',
  'Breaks the community standards',
  'Someone in it may be under 18, or consent is not clear',
  'Spam or advertising',
] as const;

/** The rule each quick reason rests on: picking a quick reason picks its ground too (the admin can change it). */
export const REJECTION_TEMPLATE_GROUNDS: Record<(typeof REJECTION_TEMPLATES)[number], DecisionGround> = {
  'Not in our categories': 'standards-what-you-can-share',
  'Low quality or broken video': 'standards-what-you-can-share',
  'Copyrighted material': 'law-copyright-dmca',
  'Breaks the community standards': 'standards-prohibited-content',
  'Someone in it may be under 18, or consent is not clear': 'standards-age-and-consent',
  'Spam or advertising': 'standards-what-you-can-share',
};

export const BULK_MODERATION_MAX = 50;
export const bulkModerationSchema = z.intersection(
  z.object({
    streamVideoIds: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'That is not a valid video id.'), {
        error: 'streamVideoIds must be a list of video ids',
      })
      .min(1, 'Choose at least one video.')
      .max(BULK_MODERATION_MAX, `Choose at most ${BULK_MODERATION_MAX} videos at a time.`),
  }),
  moderationSchema,
);
