import 'server-only';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { getDb, queryRows } from '@/lib/db';
import { adminAuditLog } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import { DELETE_ACCOUNT_MESSAGES, type DeleteAccountInput } from '@/lib/validation/deletion';

import { hasAdminRole, requireMember, type Actor } from '../auth/actor';
import { enqueuePurge, exportPrefix, videoPrefixes } from '../deletion/purge';
import { forgetVideos } from '../deletion/references';
import { badRequest, conflict } from '../errors';
import { scheduleDocumentRetention } from '../verification/retention';
import { linkEmail, sendMail } from '../mail';

import { confirmCurrentPassword } from './current-password';
import { logger } from '@/lib/server/log';

const log = logger('mail');

/** What stays in kept records (payments, the audit log) where the member's name was. */
export const DELETED_MEMBER = '[deleted member]';

/** Keys of stored payment payloads and audit details that can hold a person's email, name or contact details. */
const PERSONAL_KEYS = '(mail|name|phone|address|street|city|zip|postal|country)';

/**
 * Deletes the caller's account: the current password (a wrong one counts
 * against the per-member limit) and the username typed out must both match.
 *
 * One transaction does everything people can see: every session and token
 * goes with the row (logged out everywhere at once), the member's videos,
 * comments, likes, follows, blocks, notifications (received and caused),
 * reports they made, entitlements and checkouts go (cascades and explicit
 * deletes), likes_count on other members' videos drops by their likes,
 * and open reports about them or their content are closed. Payment events
 * and audit entries are kept with the member's id but with email, name and
 * contact details scrubbed (accounting records). The media (originals,
 * outputs, exports, the profile photo) go in a purge job queued in the same
 * transaction. The username and email are free again at once.
 *
 * The last admin (not banned) cannot delete their account: the site would
 * be left without one (decided as setAdmin does, under the same lock).
 */
export async function deleteAccount(actor: Actor, input: DeleteAccountInput): Promise<{ message: string }> {
  const member = requireMember(actor);
  await confirmCurrentPassword(member, input.currentPassword);
  if (input.username !== member.user.username) throw badRequest(DELETE_ACCOUNT_MESSAGES.wrongUsername, { field: 'username' });
  const userId = member.user.id;
  const db = await getDb();

  const deleted = await db.transaction(async (tx) => {
    if (hasAdminRole(member.user)) {
      await queryRows(tx, sql`SELECT pg_advisory_xact_lock(hashtext('chrysalis:admin-roles'))`);
      const [others] = await queryRows<{ n: number | string }>(
        tx,
        sql`SELECT count(*) AS n FROM users WHERE is_admin AND banned_at IS NULL AND id <> ${userId}`,
      );
      if (Number(others!.n) === 0) throw conflict(DELETE_ACCOUNT_MESSAGES.lastAdmin);
    }
    // The row, locked: a second request at the same time waits here and then finds nothing to delete.
    const [user] = await queryRows<{ username: string; email: string; profile_photo_key: string | null }>(
      tx,
      sql`SELECT username, email, profile_photo_key FROM users WHERE id = ${userId} FOR UPDATE`,
    );
    if (!user) return null;
    const owned = await queryRows<{ id: string; source_key: string }>(
      tx,
      sql`SELECT id, source_key FROM videos WHERE owner_id = ${userId}`,
    );
    // Identity documents outlive the row (no foreign key): they get their deletion date now, while the videos still say whether any was published.
    await scheduleDocumentRetention(tx, userId);

    await forgetVideos(tx, sql`v.owner_id = ${userId}`, 'The uploader deleted their account.');
    // Their likes leave other members' counters exactly: one fewer per row removed.
    await queryRows(
      tx,
      sql`WITH gone AS (DELETE FROM video_likes WHERE user_id = ${userId} RETURNING video_id),
               counted AS (SELECT video_id, count(*)::int AS n FROM gone GROUP BY video_id)
          UPDATE videos v SET likes_count = v.likes_count - counted.n FROM counted WHERE v.id = counted.video_id`,
    );
    // The name and email are free again at once: the sign-up's hold on them (decision 041) goes with the account.
    await queryRows(
      tx,
      sql`DELETE FROM sign_up_holds WHERE username_key = lower(${user.username}) OR email_key = lower(${user.email})`,
    );
    await queryRows(tx, sql`DELETE FROM notifications WHERE sender_id = ${userId}`);
    await queryRows(tx, sql`DELETE FROM reports WHERE reporter_id = ${userId}`);
    await queryRows(
      tx,
      sql`UPDATE reports SET status = 'resolved', resolved_at = now(), resolution_note = 'The member deleted their account.'
          WHERE status = 'open'
            AND ((target_type = 'profile' AND target_id = ${userId})
              OR (target_type = 'comment' AND target_id IN (
                    -- Their comments, and the replies under them (which go with their parent).
                    SELECT id FROM comments WHERE author_id = ${userId}
                    UNION SELECT id FROM comments WHERE parent_id IN (SELECT id FROM comments WHERE author_id = ${userId}))))`,
    );
    // Kept records: the id stays (no foreign key), the person's details go.
    await queryRows(
      tx,
      sql`UPDATE payment_events SET payload = (
            SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(payload) WHERE key !~* ${PERSONAL_KEYS})
          WHERE user_id = ${userId}`,
    );
    await queryRows(tx, sql`UPDATE admin_audit_log SET admin_username = ${DELETED_MEMBER} WHERE admin_id = ${userId}`);
    await queryRows(
      tx,
      sql`UPDATE admin_audit_log
          SET summary = replace(summary, ${user.username}, ${DELETED_MEMBER}),
              details = (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(details) WHERE key !~* ${PERSONAL_KEYS})
          WHERE target_type = 'member' AND target_id = ${userId}`,
    );
    await tx.insert(adminAuditLog).values({
      adminId: userId,
      adminUsername: DELETED_MEMBER,
      action: 'member.delete',
      targetType: 'member',
      targetId: userId,
      summary: `A member deleted their own account (${owned.length} video${owned.length === 1 ? '' : 's'})`,
      details: { videos: owned.length, wasAdmin: hasAdminRole(member.user) },
    });
    // Sessions, email tokens, videos (with their likes, comments and views), comments, follows, blocks,
    // received notifications, entitlements, checkouts and task completions go with the row.
    await queryRows(tx, sql`DELETE FROM users WHERE id = ${userId}`);
    await enqueuePurge(tx, `account:${userId}`, {
      prefixes: [...owned.flatMap((video) => videoPrefixes({ id: video.id, sourceKey: video.source_key })), exportPrefix(userId)],
      avatars: user.profile_photo_key ? [user.profile_photo_key] : [],
    });
    return user;
  });

  if (deleted) {
    wakeWorkers();
    purgePublicPages();
    await sendDeletionConfirmation(deleted);
  }
  return { message: DELETE_ACCOUNT_MESSAGES.deleted };
}

/** Tells the address the account had; the deletion stands whether or not the mail goes out. */
async function sendDeletionConfirmation(user: { username: string; email: string }): Promise<void> {
  const { siteName, siteUrl } = getConfig();
  try {
    await sendMail(
      linkEmail({
        to: user.email,
        subject: `Your ${siteName} account has been deleted`,
        greeting: `Hi ${user.username},`,
        lines: [
          `Your ${siteName} account has been deleted, as you asked. You have been logged out everywhere.`,
          'Your profile, videos, comments, likes, follows and notifications are gone; your video files are being removed from our storage now.',
          'Records of payments are kept without your name or email, because accounting law requires it.',
          `Identity documents you sent us are deleted within ${getConfig().verificationRetentionDays} days; if you published videos, your legal name, date of birth and ID are kept for ${getConfig().recordsRetentionYears} years, as US record-keeping law (18 U.S.C. 2257) requires, and then deleted.`,
        ],
        action: `Visit ${siteName}`,
        url: siteUrl,
        footer:
          'If you did not ask for this, someone knew your password: please tell us through the contact details on the site.',
      }),
    );
  } catch (error) {
    log.error({ err: error }, 'could not send an account deletion confirmation');
  }
}
