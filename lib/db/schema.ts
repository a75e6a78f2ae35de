import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { REPORT_REASONS, REPORT_TARGETS } from '../report-reasons';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** Raw bytes. node-postgres gives a Buffer and PGlite a Uint8Array; readers wrap with Buffer.from. */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Members. Usernames and emails are unique regardless of case (the indexes
 * are on lower()), so "Alex" and "alex" cannot both register.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    profilePhotoKey: text('profile_photo_key'),
    /** Shown on the profile; plain text, edited in settings. */
    bio: text('bio').notNull().default(''),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * VIP lasts until this moment: the latest end among the member's active or
     * cancelled entitlements (lib/server/vip), kept here so isVIP is one
     * comparison with now() and needs no job to turn off on time.
     */
    vipUntil: timestamp('vip_until', { withTimezone: true }),
    autoPlayVideos: boolean('auto_play_videos').notNull().default(true),
    /** While true, nothing is written to watch_history (lib/server/videos/history.ts): the member paused it on /history. */
    historyPaused: boolean('history_paused').notNull().default(false),
    /** Daily tasks completed (the reward counter). */
    tasks: integer('tasks').notNull().default(0),
    lastTaskCompleted: timestamp('last_task_completed', { withTimezone: true }),
    /** Consecutive UTC days with a completed task, as of lastTaskCompleted. */
    taskStreak: integer('task_streak').notNull().default(0),
    /** Bumped on password change, ban or logout-everywhere; sessions carrying an older value are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    banReason: text('ban_reason'),
    bannedBy: uuid('banned_by'),
    /**
     * Two-factor authentication (lib/server/auth/two-factor.ts, decision 018):
     * the TOTP secret sealed with the session secret, set once a code confirms
     * it; the secret shown during setup until then; and the last time step a
     * code was accepted for, so no code works twice.
     */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorPendingSecret: text('two_factor_pending_secret'),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * A username held by a sign-up that has not been verified (lib/server/accounts,
 * decision 041): every sign-up holds its name for the same time, whether it
 * made an account or found the email already registered, so a second sign-up
 * with the name cannot tell the two apart. The key is the lowercased name; an
 * expired hold (and an unverified account behind it) goes to the next sign-up.
 */
export const signUpHolds = pgTable(
  'sign_up_holds',
  {
    usernameKey: text('username_key').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * Only for a sign-up that found its email taken: the lowercased email and
     * the hash of the password it chose, so logging in with them answers "verify
     * your email" as it would for the account such a sign-up makes.
     */
    emailKey: text('email_key'),
    passwordHash: text('password_hash'),
  },
  (t) => [index('sign_up_holds_email_key_idx').on(t.emailKey)],
);

/**
 * One row per login. Tokens and cookies name their session; logout revokes
 * just that row, a password change revokes the others, and bumping
 * users.token_version (ban, logout everywhere) invalidates them all.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenVersion: integer('token_version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** When the login that started this session passed the second factor; null for a password-only login. Admin endpoints need it. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Single-use recovery codes for a lost authenticator: ten per member, shown
 * once, stored as an HMAC only. A code is spent by setting used_at in the
 * same statement that finds it, so two logins cannot both use it.
 */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

export type Session = typeof sessions.$inferSelect;

/**
 * Single-use links sent by email: verifying a new account's address, a
 * changed address before it replaces the old one, or resetting a forgotten
 * password (lib/server/accounts/password-reset.ts). Only a SHA-256 of the
 * token is stored, so a database leak does not leak working links.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'change_email', 'reset_password'] }).notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('email_tokens_token_hash_key').on(t.tokenHash), index('email_tokens_user_id_idx').on(t.userId)],
);

/** Counters for rate limits, shared by every process (rate-limiter-flexible's Drizzle store). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
});

/**
 * The durable job queue (media processing, mail). A job is claimed with
 * FOR UPDATE SKIP LOCKED and a lease: if its worker dies, the lease runs out
 * and another worker takes it. Failures retry with backoff, then give up
 * with the reason kept. `dedupe_key` makes enqueueing idempotent.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the current (or last) attempt was claimed: how long a running job has run (stuck jobs, /admin/jobs). */
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key_key').on(t.dedupeKey),
    index('jobs_claim_idx').on(t.status, t.runAt),
    // The retention sweep (done and failed jobs by age) and the admin page's failed list, newest first.
    index('jobs_finished_idx').on(t.status, t.finishedAt),
  ],
);

export type Job = typeof jobs.$inferSelect;

/**
 * One row per running job worker (a `npm run worker` process, or the loops inside the embedded server),
 * refreshed while it polls or runs a job: `GET /api/ready` asks whether any worker was seen lately (decision 020).
 */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  jobTypes: text('job_types').array().notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Search rankings worth keeping (decision 032): the ranked ids of a query whose
 * matches fill the result cap, shared by every web process and kept across
 * restarts, recomputed by the refresh-search-rankings job and read while fresh.
 * `key` is the service's own key of the query (words, lowered text, order,
 * duration); the other columns are what is needed to rank it again.
 */
export const searchRankings = pgTable('search_rankings', {
  key: text('key').primaryKey(),
  tsquery: text('tsquery').notNull(),
  lowered: text('lowered').notNull(),
  sort: text('sort').notNull(),
  duration: text('duration'),
  ids: uuid('ids').array().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The condition for a video anyone may see; every public query and its partial indexes use exactly this. */
export const PUBLIC_VIDEO = sql`processing_state = 'ready' AND moderation_status = 'approved' AND NOT owner_banned`;

/**
 * Uploaded videos. Processing state (what the media pipeline has done) and
 * moderation status (whether people may see it) are separate: a video is
 * public only when it is ready and approved.
 */
export const videos = pgTable(
  'videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The public id in URLs (/video/{streamVideoId}). */
    streamVideoId: text('stream_video_id').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    category: text('category', { enum: ['Sissy', 'Beta', 'Censor'] }).notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    processingState: text('processing_state', { enum: ['queued', 'processing', 'ready', 'failed'] })
      .notNull()
      .default('queued'),
    processingError: text('processing_error'),
    moderationStatus: text('moderation_status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    rejectionReason: text('rejection_reason'),
    /** The original file as uploaded, under the media storage root. */
    sourceKey: text('source_key').notNull(),
    sourceBytes: bigint('source_bytes', { mode: 'number' }).notNull(),
    durationSeconds: doublePrecision('duration_seconds'),
    /**
     * The duration filter's bucket, from the length as cards show it (whole seconds, rounded as
     * formatDuration does): 1 under 5 min, 2 from 5:00 to 20:00, 3 over 20 min, 0 unknown.
     * Stored so the sort indexes can lead with it (decision 011).
     */
    durationBucket: smallint('duration_bucket')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE WHEN duration_seconds IS NULL THEN 0 WHEN floor(duration_seconds + 0.5) < 300 THEN 1 WHEN floor(duration_seconds + 0.5) <= 1200 THEN 2 ELSE 3 END`,
      ),
    width: integer('width'),
    height: integer('height'),
    thumbnailKey: text('thumbnail_key'),
    /**
     * The content hash in the URLs of the thumbnail's WebP widths (lib/media/thumbnails.ts), set when
     * processing made them; null for videos processed before (cards then show the JPEG alone).
     */
    thumbnailVersion: text('thumbnail_version'),
    /** The web MP4 (plays at once, the fallback player source); set when processing makes the video ready. */
    webMp4Key: text('web_mp4_key'),
    /** The HLS master playlist; set when the adaptive ladder is packaged, after the video is already playable. */
    hlsMasterKey: text('hls_master_key'),
    /** Heights of the HLS renditions, e.g. {360,720,1080}. */
    hlsHeights: integer('hls_heights').array(),
    /**
     * The content hash in the URLs of the seek bar's storyboard (sprite and WebVTT) and the card's preview
     * clip (lib/media/previews.ts), set when packaging or the backfill made them; null until then.
     */
    previewsVersion: text('previews_version'),
    views: integer('views').notNull().default(0),
    /** Kept equal to the number of video_likes rows (the community issue maintains it); ranks Top Videos without counting. */
    likesCount: integer('likes_count').notNull().default(0),
    /** Set while the owner is banned: their videos leave every public list without losing their moderation status. */
    ownerBanned: boolean('owner_banned').notNull().default(false),
    /** Title (weight A), tags (B) and description (C) for full-text search; chrysalis_video_search_document is in migration 0004. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`chrysalis_video_search_document(title, description, tags)`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was approved (first became public); public lists sort by it. */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    moderatedBy: uuid('moderated_by').references(() => users.id, { onDelete: 'set null' }),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    /** When the video was recorded, declared with its performer records (every performer 18+ on this day). */
    recordedOn: date('recorded_on', { mode: 'string' }),
    /** When the owner last saved complete performer records (video_performers); null until then, and approval is refused. */
    performersDeclaredAt: timestamp('performers_declared_at', { withTimezone: true }),
    /**
     * A number in the order rows were inserted, never reused: the sitemap's video files are fixed ranges of it
     * (lib/server/sitemap.ts, decision 056), so a video stays in the same file as others come and go.
     */
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
  },
  (t) => [
    uniqueIndex('videos_stream_video_id_key').on(t.streamVideoId),
    // The sitemap's video files: one range of seq each, read in order from this index alone where it can.
    index('videos_public_seq_idx').on(t.seq).where(PUBLIC_VIDEO),
    index('videos_owner_id_idx').on(t.ownerId, t.createdAt.desc()),
    // Public lists read only these partial indexes, newest first or by rank, so deep pages stay cheap.
    index('videos_public_recent_idx').on(t.publishedAt.desc(), t.id.desc()).where(PUBLIC_VIDEO),
    index('videos_public_category_idx').on(t.category, t.publishedAt.desc(), t.id.desc()).where(PUBLIC_VIDEO),
    index('videos_public_top_idx')
      .on(sql`(${t.views} + 10 * ${t.likesCount}) desc`, t.publishedAt.desc(), t.id.desc())
      .where(PUBLIC_VIDEO),
    index('videos_search_idx').using('gin', t.searchVector).where(PUBLIC_VIDEO),
    // Tag pages (/tag/{tag}): the public videos carrying a tag, however rare, without reading the others.
    index('videos_public_tags_idx').using('gin', t.tags).where(PUBLIC_VIDEO),
    index('videos_title_trgm_idx')
      .using('gin', sql`lower(${t.title}) gin_trgm_ops`)
      .where(PUBLIC_VIDEO),
    index('videos_moderation_queue_idx').on(t.moderationStatus, t.createdAt),
    // A creator's public videos, newest first: profiles and the following feed.
    index('videos_public_owner_idx').on(t.ownerId, t.publishedAt.desc(), t.id.desc()).where(PUBLIC_VIDEO),
    // Sorted and filtered lists (decision 011): one index per sort, led by (category, duration bucket), read as a merge of index-only range scans.
    index('videos_public_newest_idx').on(t.category, t.durationBucket, t.publishedAt.desc(), t.id.desc()).where(PUBLIC_VIDEO),
    index('videos_public_views_idx')
      .on(t.category, t.durationBucket, t.views.desc(), t.publishedAt.desc(), t.id.desc())
      .where(PUBLIC_VIDEO),
    index('videos_public_likes_idx')
      .on(t.category, t.durationBucket, t.likesCount.desc(), t.publishedAt.desc(), t.id.desc())
      .where(PUBLIC_VIDEO),
    index('videos_public_longest_idx')
      .on(t.category, t.durationBucket, t.durationSeconds.desc(), t.publishedAt.desc(), t.id.desc())
      .where(PUBLIC_VIDEO),
  ],
);

export type Video = typeof videos.$inferSelect;

/**
 * How many public videos carry each tag, kept by a trigger on videos (migration 0030): the sitemap reads the
 * most used tags from its index instead of unnesting every video's tags. A tag leaves when its count is 0.
 */
export const publicTagCounts = pgTable(
  'public_tag_counts',
  {
    tag: text('tag').primaryKey(),
    videos: integer('videos').notNull(),
  },
  (t) => [index('public_tag_counts_rank_idx').on(t.videos.desc(), t.tag)],
);

/**
 * An owner's new title, description and tags for an approved video, waiting for a moderator (decision 009): the
 * approved text stays public meanwhile. One per video; a new edit replaces it, a decision removes it.
 */
export const videoTextEdits = pgTable(
  'video_text_edits',
  {
    videoId: uuid('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** New with every proposal: a moderator's decision names the one they read, so a later one is not decided unseen. */
    editId: uuid('edit_id').notNull().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    tags: text('tags').array().notNull(),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The queue reads them oldest first.
  (t) => [index('video_text_edits_proposed_at_idx').on(t.proposedAt)],
);
export type VideoTextEdit = typeof videoTextEdits.$inferSelect;

/**
 * A video's captions in one language (decision 051): the owner's WebVTT or SubRip file, parsed and written out again
 * as plain WebVTT (lib/server/videos/captions.ts), so what is served is ours, never the upload's markup. Small enough
 * to live in the database, with the video (backups, exports and deletion need nothing else). `version` names the
 * content in its URL.
 */
export const videoCaptions = pgTable(
  'video_captions',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** A canonical BCP 47 tag (Intl.getCanonicalLocales): en, pt-BR, zh-Hant. */
    language: text('language').notNull(),
    /** The language's name in itself ("Español"), as the captions menu shows it. */
    label: text('label').notNull(),
    vtt: text('vtt').notNull(),
    cueCount: integer('cue_count').notNull(),
    version: text('version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.language] })],
);
export type VideoCaption = typeof videoCaptions.$inferSelect;

/** One row per member who liked a video; unique per member and video whatever the concurrency. */
export const videoLikes = pgTable(
  'video_likes',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.userId] }), index('video_likes_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * A member's watch history and resume points (decision 053): one row per video watched, updated in place by one
 * upsert per progress write (never read first). `finished` once playback came within the last moments, so resuming
 * starts over. The newest WATCH_HISTORY_MAX rows per member are kept (lib/server/videos/history.ts trims the rest).
 */
export const watchHistory = pgTable(
  'watch_history',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    positionSeconds: doublePrecision('position_seconds').notNull(),
    finished: boolean('finished').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.videoId] }),
    index('watch_history_user_idx').on(t.userId, t.updatedAt.desc(), t.videoId.desc()),
    index('watch_history_video_idx').on(t.videoId),
  ],
);

/** A member's Watch later list: one row per saved video, newest save first (decision 011). */
export const watchLater = pgTable(
  'watch_later',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.videoId] }),
    index('watch_later_user_idx').on(t.userId, t.createdAt.desc(), t.videoId.desc()),
    index('watch_later_video_idx').on(t.videoId),
  ],
);

/**
 * Members' playlists (issue 35, part 6): private (the owner only), unlisted
 * (anyone with the link) or public (listed, in the sitemap). `public_id` is
 * the id in URLs, a short random one (the uuid never leaves the server).
 */
export const playlists = pgTable(
  'playlists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publicId: text('public_id').notNull().unique(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    visibility: text('visibility', { enum: ['private', 'unlisted', 'public'] })
      .notNull()
      .default('private'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('playlists_visibility_check', sql`${t.visibility} IN ('private', 'unlisted', 'public')`),
    index('playlists_owner_idx').on(t.ownerId, t.updatedAt.desc()),
  ],
);
export type Playlist = typeof playlists.$inferSelect;

/** A playlist's videos in their order (position ascending); a deleted video or playlist takes its rows with it. */
export const playlistItems = pgTable(
  'playlist_items',
  {
    playlistId: uuid('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.playlistId, t.videoId] }),
    index('playlist_items_order_idx').on(t.playlistId, t.position),
    index('playlist_items_video_idx').on(t.videoId),
  ],
);

/**
 * Who has been counted as a viewer of a video, and when. A view counts once
 * per viewer (member id, or a keyed hash of address and browser) within the
 * view window; the upsert that refreshes counted_at decides atomically.
 */
export const videoViews = pgTable(
  'video_views',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.viewerKey] }), index('video_views_counted_at_idx').on(t.countedAt)],
);

export const NOTIFICATION_TYPES = ['follow', 'like', 'comment', 'video_approved', 'video_rejected', 'site_notice'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What a member is told about: follows, likes, comments, and the fate of their uploads. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who caused it; null for the site itself (moderation). */
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    link: text('link').notNull().default('#'),
    message: text('message'),
    /** Makes a repeat of the same event (the same member liking again) a no-op. */
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_recipient_idx').on(t.recipientId, t.createdAt.desc(), t.id.desc()),
    index('notifications_unread_idx')
      .on(t.recipientId)
      .where(sql`read_at IS NULL`),
    uniqueIndex('notifications_dedupe_key').on(t.dedupeKey),
  ],
);

export type Notification = typeof notifications.$inferSelect;

/** Who follows whom. One row per pair whatever the concurrency; nobody follows themselves. */
export const follows = pgTable(
  'follows',
  {
    followerId: uuid('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: uuid('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_followee_idx').on(t.followeeId, t.createdAt.desc()),
    check('follows_not_self', sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

/** Comments on videos: plain text, edited and deleted by their authors; the video owner and admins can delete too. */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** A reply's top-level comment (one level of replies: never a reply itself); null for top-level comments. Replies go with their parent. */
    parentId: uuid('parent_id').references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    index('comments_video_idx').on(t.videoId, t.createdAt.desc(), t.id.desc()),
    index('comments_author_idx').on(t.authorId),
    // Replies oldest first, and reply counts computed at read time (never stored: deletions elsewhere must keep them exact).
    index('comments_parent_idx')
      .on(t.parentId, t.createdAt, t.id)
      .where(sql`parent_id IS NOT NULL`),
  ],
);

export type Comment = typeof comments.$inferSelect;

/** A member blocking another: the blocked member cannot follow them or comment on their videos, and their comments are hidden from the blocker. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

// The one list of reasons (lib/report-reasons.ts), shared with the validation schema and every report dialog.
export { REPORT_REASONS, REPORT_TARGETS };
export const REPORT_SOURCES = ['report', 'notice'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

/**
 * Reports from anyone (a video can be reported without an account). The
 * admin issue turns this queue into a panel; status and resolution fields
 * are here so it does not need another migration for the basics.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    targetType: text('target_type', { enum: REPORT_TARGETS }).notNull(),
    /** The reported video, comment or member. */
    targetId: uuid('target_id').notNull(),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    details: text('details').notNull().default(''),
    /** Null for anonymous reports. */
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    /** A keyed hash of the anonymous reporter's address, for rate limits and duplicate detection; no raw addresses. */
    reporterKey: text('reporter_key').notNull(),
    status: text('status', { enum: ['open', 'resolved', 'dismissed'] })
      .notNull()
      .default('open'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'report' from the in-app dialog, 'notice' from the public notice or DMCA form (decision 016). */
    source: text('source', { enum: REPORT_SOURCES }).notNull().default('report'),
    /** A notice's sender (DSA Art. 16, TAKE IT DOWN Act, 17 U.S.C. 512): shown to admins only, told the outcome. */
    notifierName: text('notifier_name'),
    notifierEmail: text('notifier_email'),
    notifierSignature: text('notifier_signature'),
    /** When a decision is due: 48 hours for non-consent and minors, 7 business days otherwise. Null only on rows older than 0016. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** This report hid the video at once (hold pending review); dismissing it may approve the video again. */
    heldVideo: boolean('held_video').notNull().default(false),
  },
  (t) => [
    index('reports_open_idx').on(t.status, t.createdAt),
    index('reports_due_idx').on(t.status, t.dueAt),
    index('reports_target_idx').on(t.targetType, t.targetId),
    // One open report per reporter and target: reporting twice does not flood the queue.
    uniqueIndex('reports_once_per_reporter')
      .on(t.targetType, t.targetId, t.reporterKey)
      .where(sql`status = 'open'`),
  ],
);

export const ENTITLEMENT_SOURCES = ['verotel', 'manual'] as const;
export const ENTITLEMENT_STATUSES = ['active', 'cancelled', 'expired', 'revoked'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

/**
 * A period of VIP. active → cancelled (still VIP until period_end) → expired;
 * a refund or chargeback makes it revoked at once. A member is VIP while an
 * active or cancelled entitlement's period has not ended (users.vip_until
 * caches the latest end).
 */
export const entitlements = pgTable(
  'entitlements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ENTITLEMENT_SOURCES }).notNull(),
    /** The plan bought (from configuration); null for a manual grant. */
    planId: text('plan_id'),
    /** The processor's id of the sale (Verotel saleID); null for manual grants. */
    externalId: text('external_id'),
    status: text('status', { enum: ENTITLEMENT_STATUSES }).notNull().default('active'),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** Whether the processor renews it (a recurring subscription). */
    recurring: boolean('recurring').notNull().default(false),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('entitlements_user_idx').on(t.userId, t.periodEnd.desc()),
    uniqueIndex('entitlements_external_key')
      .on(t.source, t.externalId)
      .where(sql`external_id IS NOT NULL`),
    // The expiry job reads only entitlements that still grant VIP.
    index('entitlements_live_end_idx')
      .on(t.periodEnd)
      .where(sql`status IN ('active', 'cancelled')`),
  ],
);

export type Entitlement = typeof entitlements.$inferSelect;

/**
 * A checkout started by a member: its id is the referenceID sent to the
 * processor, so a postback names the member and the plan and price they were
 * offered; a postback that does not match it is refused.
 */
export const checkouts = pgTable(
  'checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id').notNull(),
    priceAmount: text('price_amount').notNull(),
    priceCurrency: text('price_currency').notNull(),
    periodDays: integer('period_days').notNull(),
    recurring: boolean('recurring').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('checkouts_user_idx').on(t.userId, t.createdAt.desc())],
);

export const PAYMENT_EVENT_OUTCOMES = ['applied', 'ignored', 'rejected'] as const;

/**
 * Every payment event received (postbacks) or made (manual grants and
 * revocations), once: `dedupe_key` makes a replayed postback a no-op.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    processor: text('processor').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    event: text('event').notNull(),
    saleId: text('sale_id'),
    /** Kept when the member deletes their account (accounting records outlive it); no foreign key, so the id stays. */
    userId: uuid('user_id'),
    entitlementId: uuid('entitlement_id').references(() => entitlements.id, { onDelete: 'set null' }),
    priceAmount: text('price_amount'),
    priceCurrency: text('price_currency'),
    outcome: text('outcome', { enum: PAYMENT_EVENT_OUTCOMES }).notNull(),
    detail: text('detail'),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_dedupe_key').on(t.dedupeKey),
    index('payment_events_user_idx').on(t.userId, t.receivedAt.desc()),
    index('payment_events_received_idx').on(t.receivedAt.desc()),
  ],
);

/**
 * Daily task texts. A row with `scheduled_for` is that UTC day's task; rows
 * without one form the pool used on days nobody scheduled.
 */
export const dailyTasks = pgTable(
  'daily_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    description: text('description').notNull(),
    scheduledFor: date('scheduled_for', { mode: 'string' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('daily_tasks_scheduled_for_key').on(t.scheduledFor)],
);

/** The pool task picked for a day nobody scheduled, fixed at the first request of that day so everyone gets the same one. */
export const dailyTaskDays = pgTable('daily_task_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  taskId: uuid('task_id')
    .notNull()
    .references(() => dailyTasks.id, { onDelete: 'cascade' }),
  pickedAt: timestamp('picked_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One completion per member and UTC day; the primary key is what makes a second completion impossible, whatever the concurrency. */
export const taskCompletions = pgTable(
  'task_completions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    taskId: uuid('task_id').references(() => dailyTasks.id, { onDelete: 'set null' }),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Every admin action: who did what to what, and when. Written in the same transaction as the action. */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Kept when the account is deleted (the record outlives it, its name is scrubbed); no foreign key, so the id stays. */
    adminId: uuid('admin_id'),
    /** The admin's name when it happened (kept if the account goes). */
    adminUsername: text('admin_username').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** One readable line, e.g. 'Banned alex: spam'. */
    summary: text('summary').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('admin_audit_log_target_idx').on(t.targetType, t.targetId),
    index('admin_audit_log_admin_idx').on(t.adminId, t.createdAt.desc()),
  ],
);

export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/**
 * "Download my data": at most one export per member (the unique user_id is
 * what makes a second request impossible, whatever the concurrency). A job
 * builds the ZIP into media storage under exports/{userId}/; it can be
 * downloaded by its member only until expires_at, then a recurring job
 * deletes the file and the row (lib/server/exports).
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DATA_EXPORT_STATUSES }).notNull().default('pending'),
    /** The ZIP's media storage key once ready (exports/{userId}/{id}.zip). */
    fileKey: text('file_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** What the member is told when the export failed for good (a fixed sentence; the cause is in the job's last_error). */
    error: text('error'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When the "ready" email went out; a rerun of the job sends it if a crash came between the two. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('data_exports_user_key').on(t.userId), index('data_exports_expires_idx').on(t.expiresAt)],
);

export type DataExport = typeof dataExports.$inferSelect;

export const DECISION_TARGETS = ['video', 'comment', 'account', 'verification'] as const;
export const DECISION_ACTIONS = [
  'video_rejected',
  'video_removed',
  'video_hidden',
  'video_taken_down',
  'video_restored',
  'comment_removed',
  'account_banned',
  'account_terminated',
  'verification_rejected',
] as const;
export const DECISION_SOURCES = ['moderation', 'report', 'notice', 'copyright', 'consent', 'appeal'] as const;
export type DecisionTarget = (typeof DECISION_TARGETS)[number];
export type DecisionAction = (typeof DECISION_ACTIONS)[number];
export type DecisionSource = (typeof DECISION_SOURCES)[number];

/**
 * Statements of reasons (DSA Art. 17): one row for every decision that
 * restricts a member or their content (a rejection, removal, hold, ban,
 * takedown), saying what was decided, on which ground, whether it was
 * automated and until when it can be appealed. The member reads it at
 * /decisions/{id}. Kept when the account is deleted (no foreign keys), like
 * the audit log: transparency reports count them.
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The member the decision is about (the uploader, the author, the account). */
    subjectUserId: uuid('subject_user_id'),
    targetType: text('target_type', { enum: DECISION_TARGETS }).notNull(),
    /** The video's stream id, the comment's id, the member's id or the verification's id. */
    targetId: text('target_id').notNull(),
    /** What the member knew it as when decided (a title, an excerpt, a username). */
    targetLabel: text('target_label').notNull().default(''),
    action: text('action', { enum: DECISION_ACTIONS }).notNull(),
    /** A DecisionGround (lib/trust/grounds.ts). */
    ground: text('ground').notNull(),
    /** The facts in plain words, shown to the member. */
    explanation: text('explanation').notNull().default(''),
    automated: boolean('automated').notNull().default(false),
    source: text('source', { enum: DECISION_SOURCES }).notNull(),
    /** The admin who decided; null when the system did (an automatic hold). */
    decidedBy: uuid('decided_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Appeals are taken until then (at least six months, DSA Art. 20). */
    appealUntil: timestamp('appeal_until', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('moderation_decisions_subject_idx').on(t.subjectUserId, t.createdAt.desc()),
    index('moderation_decisions_target_idx').on(t.targetType, t.targetId),
    index('moderation_decisions_created_idx').on(t.createdAt),
  ],
);

export type ModerationDecision = typeof moderationDecisions.$inferSelect;

export const PRIVATE_DOCUMENT_PURPOSES = ['verification_id', 'verification_selfie', 'performer_id', 'performer_release'] as const;
export type PrivateDocumentPurpose = (typeof PRIVATE_DOCUMENT_PURPOSES)[number];

/**
 * Identity documents, selfies and signed releases: kept apart from public
 * media (in the database, never in media storage, so no URL can reach them
 * and they are stored in the same transaction as the record that names
 * them), encrypted with AES-256-GCM under VERIFICATION_KEY
 * (lib/server/trust/documents.ts). No foreign key to users: records the law
 * requires outlive the account; delete_after says when the rest go.
 */
export const privateDocuments = pgTable(
  'private_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull(),
    purpose: text('purpose', { enum: PRIVATE_DOCUMENT_PURPOSES }).notNull(),
    /** image/jpeg, image/png, image/webp or application/pdf, from the file's own bytes. */
    mediaType: text('media_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Of the plaintext: finds duplicates without decrypting. */
    sha256: text('sha256').notNull(),
    /** Which key sealed it (rotation keeps old keys readable). */
    keyId: text('key_id').notNull(),
    /** 12-byte nonce ‖ 16-byte GCM tag ‖ ciphertext. */
    sealed: bytea('sealed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the account ends (or the record is no longer needed); a sweep deletes the row after it. */
    deleteAfter: timestamp('delete_after', { withTimezone: true }),
  },
  (t) => [index('private_documents_owner_idx').on(t.ownerId), index('private_documents_delete_after_idx').on(t.deleteAfter)],
);

export type PrivateDocument = typeof privateDocuments.$inferSelect;

export const CONSENT_TYPES = ['uploader', 'release_form', 'signed_pdf'] as const;
export type ConsentType = (typeof CONSENT_TYPES)[number];

/**
 * Everyone who appears in a video, declared by its uploader (decision 015):
 * the uploader themselves (their identity is their verification) or a
 * co-performer with legal name, stage name, date of birth, ID document and
 * signed release. 18 U.S.C. 2257 keeps these records for years after the
 * video is gone, so there is no foreign key to videos or users: deleting
 * either sets delete_after (RECORDS_RETENTION_YEARS) instead, and the video's
 * id, public id, title and recording date are copied here.
 */
export const videoPerformers = pgTable(
  'video_performers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id').notNull(),
    streamVideoId: text('stream_video_id').notNull(),
    ownerId: uuid('owner_id').notNull(),
    videoTitle: text('video_title').notNull(),
    recordedOn: date('recorded_on', { mode: 'string' }).notNull(),
    /** Order as declared. */
    position: smallint('position').notNull(),
    /** The uploader appears: their verified identity is the record; the fields below are null. */
    isUploader: boolean('is_uploader').notNull().default(false),
    legalName: text('legal_name'),
    stageName: text('stage_name'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    /** private_documents (purpose performer_id). */
    idDocumentId: uuid('id_document_id'),
    consentType: text('consent_type', { enum: CONSENT_TYPES }).notNull(),
    /** The in-app release: the full name typed as signature, the date signed, and the statements ticked. */
    releaseSignature: text('release_signature'),
    releaseSignedOn: date('release_signed_on', { mode: 'string' }),
    releaseStatements: text('release_statements').array(),
    /** private_documents (purpose performer_release): an uploaded signed PDF or photo of it. */
    releaseDocumentId: uuid('release_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the video or the account is deleted; a sweep deletes the record after it. */
    deleteAfter: timestamp('delete_after', { withTimezone: true }),
  },
  (t) => [
    index('video_performers_video_idx').on(t.videoId, t.position),
    index('video_performers_delete_after_idx').on(t.deleteAfter),
  ],
);

export type VideoPerformer = typeof videoPerformers.$inferSelect;

export const CONSENT_WITHDRAWAL_STATUSES = ['open', 'confirmed', 'dismissed'] as const;
export type ConsentWithdrawalStatus = (typeof CONSENT_WITHDRAWAL_STATUSES)[number];

/**
 * A performer's withdrawal of consent, sent through the public form at
 * /withdraw-consent (no account). The video is hidden at once; while a
 * withdrawal is open the approval gate refuses the video. An admin confirms
 * it (the video is removed for good) or dismisses it (not a performer of
 * this video). Kept when the video is deleted (no foreign key): it is the
 * record of why it went.
 */
export const consentWithdrawals = pgTable(
  'consent_withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id').notNull(),
    streamVideoId: text('stream_video_id').notNull(),
    videoTitle: text('video_title').notNull(),
    legalName: text('legal_name').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    email: text('email').notNull(),
    statement: text('statement').notNull(),
    /** A keyed hash of the sender's address (reports' reporterKeyOf): rate limits without raw addresses. */
    senderKey: text('sender_key').notNull(),
    status: text('status', { enum: CONSENT_WITHDRAWAL_STATUSES }).notNull().default('open'),
    resolvedBy: uuid('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('consent_withdrawals_video_idx').on(t.videoId, t.status),
    index('consent_withdrawals_open_idx').on(t.status, t.createdAt),
  ],
);

export type ConsentWithdrawal = typeof consentWithdrawals.$inferSelect;
export const TAKEDOWN_STATUSES = ['active', 'counter_noticed', 'lawsuit', 'restored', 'withdrawn', 'upheld'] as const;
export type TakedownStatus = (typeof TAKEDOWN_STATUSES)[number];

/**
 * Copyright takedowns (17 U.S.C. 512, decision 016): the DMCA details of a
 * notice whose queue entry is a `reports` row (reason 'copyright', source
 * 'notice'). active → counter_noticed (the uploader answered; restore_at is
 * set and a job restores then) → restored, or → lawsuit (the claimant went
 * to court; the video stays down). An admin may withdraw (the notice was
 * invalid: the video comes back) or uphold (remove for good). Takedowns that
 * were neither restored nor withdrawn are the uploader's strikes.
 */
export const copyrightTakedowns = pgTable(
  'copyright_takedowns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'set null' }),
    /** No foreign key: strikes outlive a deleted video, and terminated accounts stay counted. */
    uploaderId: uuid('uploader_id').notNull(),
    videoLabel: text('video_label').notNull().default(''),
    status: text('status', { enum: TAKEDOWN_STATUSES }).notNull().default('active'),
    claimantName: text('claimant_name').notNull(),
    claimantAddress: text('claimant_address').notNull(),
    claimantPhone: text('claimant_phone').notNull(),
    claimantEmail: text('claimant_email').notNull(),
    claimantSignature: text('claimant_signature').notNull(),
    /** The copyrighted work (512(c)(3)(A)(ii)). */
    work: text('work').notNull(),
    /** The infringing material's location as the claimant gave it. */
    infringingUrl: text('infringing_url').notNull(),
    /** SHA-256 of the claimant's single-use link to report a lawsuit. */
    lawsuitTokenHash: text('lawsuit_token_hash'),
    counterName: text('counter_name'),
    counterAddress: text('counter_address'),
    counterPhone: text('counter_phone'),
    counterSignature: text('counter_signature'),
    counterStatement: text('counter_statement'),
    counterAt: timestamp('counter_at', { withTimezone: true }),
    /** When the video comes back unless a lawsuit is reported first. */
    restoreAt: timestamp('restore_at', { withTimezone: true }),
    lawsuitAt: timestamp('lawsuit_at', { withTimezone: true }),
    lawsuitDetails: text('lawsuit_details'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('copyright_takedowns_video_idx').on(t.videoId, t.status),
    index('copyright_takedowns_uploader_idx').on(t.uploaderId, t.status),
    uniqueIndex('copyright_takedowns_lawsuit_token_key').on(t.lawsuitTokenHash),
  ],
);

export type CopyrightTakedown = typeof copyrightTakedowns.$inferSelect;
export const APPEAL_STATUSES = ['open', 'upheld', 'reversed'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/**
 * Appeals against statements of reasons (DSA Art. 20): one per decision
 * (the unique decision_id makes a second one impossible whatever the
 * concurrency). An admin other than the one who made the decision upholds
 * or reverses it with a note (decision 017). No foreign key to users, like
 * the decisions: transparency reports count appeals after accounts end.
 */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    decisionId: uuid('decision_id')
      .notNull()
      .references(() => moderationDecisions.id, { onDelete: 'cascade' }),
    /** The member who appealed (the decision's subject). */
    appellantId: uuid('appellant_id'),
    /** The member's own words, at most APPEAL_STATEMENT_MAX characters. */
    statement: text('statement').notNull(),
    status: text('status', { enum: APPEAL_STATUSES }).notNull().default('open'),
    /** The deciding admin's note, shown to the member. */
    outcomeNote: text('outcome_note'),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('appeals_decision_key').on(t.decisionId),
    index('appeals_open_idx').on(t.status, t.createdAt),
    index('appeals_created_idx').on(t.createdAt),
  ],
);

export type Appeal = typeof appeals.$inferSelect;
export const VERIFICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_PROVIDERS = ['manual'] as const;
export type VerificationProviderName = (typeof VERIFICATION_PROVIDERS)[number];

/**
 * Identity verifications of uploaders (issue 12, decision 014): one row per
 * submission, so a rejection and the resubmission after it are both kept.
 * A video is approved only when its uploader has an approved row
 * (lib/server/trust/approval-gate.ts). At most one row per member is under
 * review (the partial unique index). No foreign key to users: the legal
 * name, date of birth and ID of an uploader who published videos are
 * 18 U.S.C. 2257 records that outlive the account; delete_after says when
 * the sweep removes the row (lib/server/verification/retention.ts).
 */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    provider: text('provider', { enum: VERIFICATION_PROVIDERS }).notNull().default('manual'),
    /** A hosted provider's own id for the check (null for the manual provider). */
    providerReference: text('provider_reference'),
    status: text('status', { enum: VERIFICATION_STATUSES }).notNull().default('pending'),
    legalName: text('legal_name').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    /** private_documents ids; null once the sweep removed the document. */
    idDocumentId: uuid('id_document_id'),
    selfieDocumentId: uuid('selfie_document_id'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: uuid('reviewed_by'),
    /** What the member is told when rejected. */
    rejectionReason: text('rejection_reason'),
    /** The statement of reasons of a rejection (moderation_decisions.id). */
    decisionId: uuid('decision_id'),
    /** Set when the account ends; the retention sweep deletes the row after it. */
    deleteAfter: timestamp('delete_after', { withTimezone: true }),
  },
  (t) => [
    index('identity_verifications_user_idx').on(t.userId, t.submittedAt.desc()),
    index('identity_verifications_queue_idx').on(t.status, t.submittedAt),
    uniqueIndex('identity_verifications_one_pending_key')
      .on(t.userId)
      .where(sql`status = 'pending'`),
    index('identity_verifications_delete_after_idx').on(t.deleteAfter),
  ],
);

export type IdentityVerification = typeof identityVerifications.$inferSelect;
