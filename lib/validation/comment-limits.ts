/**
 * The comment limits, without zod: the video page's comment list reads them in the browser, where importing
 * lib/validation/community.ts would bring zod (about 90 KB gzipped) into the page's first load. The schemas
 * there use the same constants.
 */
export const COMMENT_MAX = 2000;
export const COMMENTS_PAGE_SIZE = 20;
export const COMMENTS_LIMIT_MAX = 50;
/** Replies are shown oldest first, this many per "Show more replies". */
export const REPLIES_PAGE_SIZE = 10;
