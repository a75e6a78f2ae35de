import 'server-only';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';
import type { ReportTargetType } from '@/lib/report-reasons';

import type { Authenticated } from '../auth/actor';
import { forbidden } from '../errors';

/**
 * Separation of duties (docs/trust-and-safety.md): an admin is never the one
 * who clears their own case. Taking their own content down is always theirs
 * to do (as its owner could); approving it, passing their own identity
 * check, dismissing what was reported about them or deciding an appeal
 * about them is another admin's. Refused with 403 and what to do instead.
 */
export const OWN_CASE_MESSAGES = {
  verification: 'Another admin must decide on your own identity verification.',
  appeal: 'Another admin must decide on an appeal about a decision about you.',
  report: 'Another admin must decide on a report about you or your content. You can remove your own content yourself.',
  withdrawal:
    'Another admin must decide on a withdrawal of consent to your own video. You can confirm it yourself, which removes the video.',
  video: 'Another admin must approve your own video.',
} as const;

export type OwnCase = keyof typeof OWN_CASE_MESSAGES;

/** 403 when the case is about the admin deciding it. */
export function refuseOwnCase(admin: Authenticated, subjectUserId: string | null | undefined, what: OwnCase): void {
  if (subjectUserId && subjectUserId === admin.user.id) throw forbidden(OWN_CASE_MESSAGES[what]);
}

/** Whether another admin (not banned) could decide instead: on a site with one admin, that admin approves their own videos. */
export async function anotherAdminExists(db: Database, admin: Authenticated): Promise<boolean> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM users WHERE is_admin AND banned_at IS NULL AND id <> ${admin.user.id}`,
  );
  return Number(row!.n) > 0;
}

/** The member a report is about: the video's uploader, the comment's author, the profile's owner (null when it is gone). */
export async function reportSubject(db: Database, targetType: ReportTargetType, targetId: string): Promise<string | null> {
  const query = {
    video: sql`SELECT owner_id AS id FROM videos WHERE id::text = ${targetId}`,
    comment: sql`SELECT author_id AS id FROM comments WHERE id::text = ${targetId}`,
    profile: sql`SELECT id FROM users WHERE id::text = ${targetId}`,
  }[targetType];
  const [row] = await queryRows<{ id: string | null }>(db, query);
  return row?.id ?? null;
}
