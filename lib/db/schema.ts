import { sql } from 'drizzle-orm';
import { boolean, date, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
