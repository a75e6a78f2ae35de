import 'server-only';

import { notifications, type NotificationType } from '@/lib/db/schema';
import type { Database } from '@/lib/db';

/** The spec's default texts, shown when a notification carries no message of its own. */
export const DEFAULT_NOTIFICATION_TEXT: Record<NotificationType, string> = {
  follow: 'started following you',
  like: 'liked your video',
  comment: 'commented on your video',
  video_approved: 'Your video has been approved.',
  video_rejected: 'Your video was not approved.',
  site_notice: 'There is news about your account.',
};

export interface NewNotification {
  recipientId: string;
  senderId?: string | null;
  type: NotificationType;
  link?: string;
  message?: string | null;
  /** The same event twice (a member liking again) makes one notification. */
  dedupeKey?: string;
}

/** Stores a notification; a repeat of a deduplicated event is silently skipped. Pass the caller's transaction. */
export async function notify(db: Database, notification: NewNotification): Promise<void> {
  await db
    .insert(notifications)
    .values({
      recipientId: notification.recipientId,
      senderId: notification.senderId ?? null,
      type: notification.type,
      link: notification.link ?? '#',
      message: notification.message ?? null,
      dedupeKey: notification.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: notifications.dedupeKey });
}
