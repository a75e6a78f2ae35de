/** Community inputs (reports, blocks, …), shared by the dialogs, the API and tests. */
import { z } from '@/lib/validation/zod';

import { REPORT_REASONS, REPORT_TARGETS } from '@/lib/report-reasons';

import { COMMENT_MAX, COMMENTS_LIMIT_MAX, COMMENTS_PAGE_SIZE } from './comment-limits';
import { characterCount, cleanText, multilineText, positiveInt, text } from './common';

// ---------- Reports and blocks ----------

// One list of reasons and labels for the database, this schema and every dialog (lib/report-reasons.ts).
export {
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  REPORT_TARGETS,
  URGENT_REPORT_REASONS,
  type ReportReason,
  type ReportTargetType,
} from '@/lib/report-reasons';

export const REPORT_DETAILS_MAX = 2000;
/** Admins get a due date this many business days after a report arrives. */
export const REPORT_DUE_BUSINESS_DAYS = 7;

export const REPORT_MESSAGES = {
  targetType: 'targetType must be one of video, comment, profile',
  target: 'Say what you are reporting',
  reason: 'Choose a reason for the report',
  detailsTooLong: `Details must be at most ${REPORT_DETAILS_MAX} characters`,
  detailsRequired: 'Please describe the problem when you choose “Something else”.',
  thanks: 'Thank you. Our moderators will review this report.',
  duplicate: 'You have already reported this.',
  loginRequired: 'Please log in to report comments and profiles.',
  ownComment: 'You cannot report your own comment. You can edit or delete it instead.',
} as const;

export const reportSchema = z
  .object({
    targetType: z.enum(REPORT_TARGETS, { error: REPORT_MESSAGES.targetType }),
    target: text(REPORT_MESSAGES.target).trim().min(1, REPORT_MESSAGES.target).max(100, 'The target is not valid'),
    reason: z.enum(REPORT_REASONS, { error: REPORT_MESSAGES.reason }),
    details: multilineText('details must be text').trim().max(REPORT_DETAILS_MAX, REPORT_MESSAGES.detailsTooLong).default(''),
  })
  .superRefine((value, context) => {
    if (value.reason === 'other' && !value.details)
      context.addIssue({ code: 'custom', path: ['details'], message: REPORT_MESSAGES.detailsRequired });
  });

export type ReportInput = z.infer<typeof reportSchema>;

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const reportListQuerySchema = z.object({
  status: z.enum(REPORT_STATUSES, { error: `status must be one of ${REPORT_STATUSES.join(', ')}` }).default('open'),
  page: positiveInt('page', 10_000, 1),
  limit: positiveInt('limit', 100, 25),
});

// ---------- Likes ----------

/** A video's public id as URLs carry it; anything else is a 400 before the database is asked. */
export const STREAM_VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export const streamVideoIdSchema = z.string().regex(STREAM_VIDEO_ID_PATTERN, 'The video id is not valid.');

/** The `{streamVideoId}` segment of a video's routes. */
export const videoIdParamsSchema = z.object({ streamVideoId: streamVideoIdSchema });

export const LIKED_VIDEOS_LIMIT_MAX = 50;

const likedListInt = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** GET /api/users/me/liked-videos: `limit` 1–50 (12), `page` 1–10000 (1), or the `cursor` of the last answer. */
export const likedVideosQuerySchema = z.object({
  limit: likedListInt('limit', LIKED_VIDEOS_LIMIT_MAX, 12),
  page: likedListInt('page', 10_000, 1),
  cursor: text().max(200).optional(),
});

// ---------- Notifications ----------

export const NOTIFICATIONS_PAGE_DEFAULT = 20;
export const NOTIFICATIONS_PAGE_MAX = 50;
export const NOTIFICATION_CURSOR_INVALID = 'The cursor is not valid. Start again from the newest notifications.';
export const NOTIFICATION_ID_INVALID = 'The notification id is not valid.';

// Any 8-4-4-4-12 hex id PostgreSQL accepts as a uuid; anything else is a 400 before the database sees it.
const notificationId = z.guid({ error: NOTIFICATION_ID_INVALID });

/** GET /api/notifications?limit&cursor */
export const notificationListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(NOTIFICATIONS_PAGE_MAX, `limit must be at most ${NOTIFICATIONS_PAGE_MAX}`)
    .default(NOTIFICATIONS_PAGE_DEFAULT),
  cursor: text().max(200, NOTIFICATION_CURSOR_INVALID).optional(),
});

/** PUT /api/notifications/{id}/read */
export const notificationIdParamsSchema = z.object({ id: notificationId });

/** PUT /api/notifications/read-all[?upTo=<id>]: with upTo, only that notification and older ones (what the member has seen). */
export const readAllQuerySchema = z.object({ upTo: notificationId.optional() });

// ---------- Comments ----------

export { COMMENT_MAX, COMMENTS_LIMIT_MAX, COMMENTS_PAGE_SIZE, REPLIES_PAGE_SIZE } from './comment-limits';

export const COMMENT_MESSAGES = {
  empty: 'Write a comment first.',
  tooLong: `Comments can be at most ${COMMENT_MAX} characters.`,
  blocked: 'You cannot comment on this video.',
  notFound: 'Comment not found',
  badId: 'The comment id is not valid.',
  badVideoId: 'The video id is not valid.',
  editOthers: 'You can only edit your own comments.',
  deleteOthers: 'You can only delete your own comments, or comments on your own videos.',
  tooFast: 'You are commenting too quickly. Please wait a moment before posting again.',
  dailyLimit: 'You have posted a lot of comments today. Please try again tomorrow.',
  badCursor: 'The cursor is not valid. Start again from the first page.',
  parentGone: 'This comment no longer exists.',
  parentOtherVideo: 'You can only reply to a comment on the same video.',
  badParentId: 'The comment you reply to is not valid.',
  replyBlocked: 'You cannot reply to this comment.',
} as const;

/** A comment's length as the limit and the form's counter count it. */
export const commentLength = characterCount;

/** Cleaned as every text is (lib/validation/common.ts), then trimmed. */
export function normalizeCommentBody(text: string): string {
  return cleanText(text, { multiline: true }).trim();
}

export const commentBodySchema = z.object({
  body: z
    .string({ error: COMMENT_MESSAGES.empty })
    .transform(normalizeCommentBody)
    .pipe(
      z
        .string()
        .min(1, COMMENT_MESSAGES.empty)
        .refine((body) => commentLength(body) <= COMMENT_MAX, COMMENT_MESSAGES.tooLong),
    ),
});

export type CommentBodyInput = z.infer<typeof commentBodySchema>;

/** POST /api/videos/{streamVideoId}/comments: the text, and for a reply the comment it answers (a reply to a reply joins the same thread). */
export const newCommentSchema = commentBodySchema.extend({
  parentId: z.guid({ error: COMMENT_MESSAGES.badParentId }).nullish(),
});

export type NewCommentInput = z.infer<typeof newCommentSchema>;

/** GET /api/comments/{id}/replies?page: oldest first, REPLIES_PAGE_SIZE a page. */
export const repliesQuerySchema = z.object({
  page: positiveInt('page', 10_000, 1),
});

export const commentListQuerySchema = z.object({
  limit: positiveInt('limit', COMMENTS_LIMIT_MAX, COMMENTS_PAGE_SIZE),
  cursor: text().max(200, COMMENT_MESSAGES.badCursor).optional(),
});

// ---------- Follows and profiles ----------

export const BIO_MAX = 500;

export const PROFILE_MESSAGES = {
  bioTooLong: `Your bio can be at most ${BIO_MAX} characters.`,
  bioNotText: 'bio must be text',
  selfFollow: 'You cannot follow yourself.',
  notFound: 'Member not found',
  // Says no more: the blocker is promised the other member is not told about the block.
  blocked: 'You cannot follow this member.',
  deepPage: 'Pages past 20 need the cursor from the previous answer.',
} as const;

/** A bio's length as the limit and the settings counter count it. */
export const bioLength = characterCount;

/** Cleaned as every text is (lib/validation/common.ts), runs of blank lines shrink to one, then it is trimmed. */
export function normalizeBio(text: string): string {
  return cleanText(text, { multiline: true })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** PUT /api/users/settings/profile: the bio is plain text (shown escaped, never as HTML); empty clears it. */
export const profileSettingsSchema = z.object({
  bio: z
    .string({ error: PROFILE_MESSAGES.bioNotText })
    .transform(normalizeBio)
    .pipe(z.string().refine((bio) => bioLength(bio) <= BIO_MAX, PROFILE_MESSAGES.bioTooLong)),
});

export type ProfileSettingsInput = z.infer<typeof profileSettingsSchema>;

export const FOLLOW_LIST_LIMIT_MAX = 50;
/** Without a cursor, pages are offsets; past this page the cursor is required (the following feed reads limit × page rows per creator). */
export const FOLLOW_OFFSET_PAGE_MAX = 20;

const followListInt = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`)
    .default(fallback);

/** GET /api/feed/following and GET /api/users/{username}/videos: `limit` 1–50 (12), `page` (1), or the `cursor` of the last answer. */
export const followListQuerySchema = z
  .object({
    limit: followListInt('limit', FOLLOW_LIST_LIMIT_MAX, 12),
    page: followListInt('page', 10_000, 1),
    cursor: text().max(200).optional(),
  })
  .refine((query) => Boolean(query.cursor) || query.page <= FOLLOW_OFFSET_PAGE_MAX, {
    path: ['page'],
    message: PROFILE_MESSAGES.deepPage,
  });

/** Usernames as registration allows them; anything else cannot name a member. */
export const PROFILE_USERNAME_PATTERN = /^[A-Za-z0-9_.-]{1,30}$/;
