import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    isAdmin: boolean('is_admin').notNull().default(false),
    isVip: boolean('is_vip').notNull().default(false),
    autoPlayVideos: boolean('auto_play_videos').notNull().default(true),
    tasks: integer('tasks').notNull().default(0),
    lastTaskCompleted: timestamp('last_task_completed', { withTimezone: true }),
    /** Bumped on password change, ban or logout-everywhere; sessions carrying an older value are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
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
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export type Session = typeof sessions.$inferSelect;

/**
 * Single-use links sent by email: verifying a new account's address, or a
 * changed address before it replaces the old one. Only a SHA-256 of the
 * token is stored, so a database leak does not leak working links.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'change_email'] }).notNull(),
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
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
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
  },
  (t) => [uniqueIndex('jobs_dedupe_key_key').on(t.dedupeKey), index('jobs_claim_idx').on(t.status, t.runAt)],
);

export type Job = typeof jobs.$inferSelect;

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
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    processingState: text('processing_state', { enum: ['queued', 'processing', 'ready', 'failed'] }).notNull().default('queued'),
    processingError: text('processing_error'),
    moderationStatus: text('moderation_status', { enum: ['pending', 'approved', 'rejected'] }).notNull().default('pending'),
    rejectionReason: text('rejection_reason'),
    /** The original file as uploaded, under the media storage root. */
    sourceKey: text('source_key').notNull(),
    sourceBytes: bigint('source_bytes', { mode: 'number' }).notNull(),
    durationSeconds: doublePrecision('duration_seconds'),
    width: integer('width'),
    height: integer('height'),
    thumbnailKey: text('thumbnail_key'),
    views: integer('views').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('videos_stream_video_id_key').on(t.streamVideoId), index('videos_owner_id_idx').on(t.ownerId)],
);

export type Video = typeof videos.$inferSelect;
