import 'server-only';

import { asc, eq, inArray } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';

import { getConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';
import {
  appeals,
  blocks,
  checkouts,
  comments,
  dailyTasks,
  entitlements,
  follows,
  identityVerifications,
  moderationDecisions,
  notifications,
  paymentEvents,
  taskCompletions,
  users,
  videoLikes,
  videoCaptions,
  videos,
  videoTextEdits,
  watchHistory,
  type User,
  type Video,
} from '@/lib/db/schema';

import { isVipNow } from '../accounts/dto';
import { hasAdminRole } from '../auth/actor';
import { notificationText } from '../notifications/feed';
import { playlistsForExport } from '../playlists/public';
import { mediaKeys } from '../storage';

/**
 * Everything Chrysalis holds about one member, as the JSON files of their
 * export. Every query is scoped to the member's own id; other members
 * appear only by username where the relation is the member's own (who they
 * follow, who follows them, whom they blocked, who caused a notification),
 * and videos of others only by their public id. Nothing secret: no password
 * hash, session, token, processor payload or admin identity.
 */
export interface MemberData {
  /** File name in the ZIP → its JSON value. */
  json: Record<string, unknown>;
  /** The member's original uploads, one ZIP entry each, streamed from media storage. */
  originals: { path: string; key: string }[];
}

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** `videos/{streamVideoId}/original.mp4`: the public id and the original's own extension (server-chosen, so safe as a path). */
export function originalPathInZip(video: Pick<Video, 'streamVideoId' | 'sourceKey'>): string {
  const extension = /\.[a-z0-9]{1,8}$/i.exec(video.sourceKey)?.[0]?.toLowerCase() ?? '';
  return `videos/${video.streamVideoId}/original${extension}`;
}

export async function collectMemberData(
  db: Database,
  user: User,
  originalExists: (key: string) => Promise<boolean>,
): Promise<MemberData> {
  const { siteUrl } = getConfig();
  const videoUrl = (streamVideoId: string) => `${siteUrl}/video/${streamVideoId}`;
  const userId = user.id;
  const other = alias(users, 'other');

  const ownVideos = await db
    .select()
    .from(videos)
    .where(eq(videos.ownerId, userId))
    .orderBy(asc(videos.createdAt), asc(videos.id));
  // The new text of approved videos waiting for review (decision 009) is the member's too.
  const waitingText = new Map(
    (ownVideos.length
      ? await db
          .select()
          .from(videoTextEdits)
          .where(
            inArray(
              videoTextEdits.videoId,
              ownVideos.map((video) => video.id),
            ),
          )
      : []
    ).map((edit) => [edit.videoId, edit]),
  );
  // Their captions, as the player serves them (decision 051).
  const captionsOf = new Map<string, { language: string; label: string; updatedAt: string | null; vtt: string }[]>();
  if (ownVideos.length)
    for (const caption of await db
      .select()
      .from(videoCaptions)
      .where(
        inArray(
          videoCaptions.videoId,
          ownVideos.map((video) => video.id),
        ),
      )
      .orderBy(asc(videoCaptions.language)))
      captionsOf.set(caption.videoId, [
        ...(captionsOf.get(caption.videoId) ?? []),
        { language: caption.language, label: caption.label, updatedAt: iso(caption.updatedAt), vtt: caption.vtt },
      ]);
  const originals: MemberData['originals'] = [];
  const videoEntries = [];
  for (const video of ownVideos) {
    const key = mediaKeys.original(video.sourceKey);
    const included = await originalExists(key);
    const path = originalPathInZip(video);
    if (included) originals.push({ path, key });
    const waiting = waitingText.get(video.id);
    videoEntries.push({
      streamVideoId: video.streamVideoId,
      url: videoUrl(video.streamVideoId),
      title: video.title,
      description: video.description,
      category: video.category,
      tags: video.tags,
      processingState: video.processingState,
      processingError: video.processingError,
      moderationStatus: video.moderationStatus,
      rejectionReason: video.rejectionReason,
      durationSeconds: video.durationSeconds,
      width: video.width,
      height: video.height,
      views: video.views,
      likes: video.likesCount,
      uploadedAt: iso(video.createdAt),
      updatedAt: iso(video.updatedAt),
      publishedAt: iso(video.publishedAt),
      originalBytes: video.sourceBytes,
      originalFile: included ? path : null,
      captions: captionsOf.get(video.id) ?? [],
      textWaitingForReview: waiting
        ? { title: waiting.title, description: waiting.description, tags: waiting.tags, proposedAt: iso(waiting.proposedAt) }
        : null,
    });
  }

  const ownComments = await db
    .select({
      id: comments.id,
      body: comments.body,
      createdAt: comments.createdAt,
      editedAt: comments.editedAt,
      streamVideoId: videos.streamVideoId,
    })
    .from(comments)
    .innerJoin(videos, eq(videos.id, comments.videoId))
    .where(eq(comments.authorId, userId))
    .orderBy(asc(comments.createdAt), asc(comments.id));

  const likes = await db
    .select({ streamVideoId: videos.streamVideoId, likedAt: videoLikes.createdAt })
    .from(videoLikes)
    .innerJoin(videos, eq(videos.id, videoLikes.videoId))
    .where(eq(videoLikes.userId, userId))
    .orderBy(asc(videoLikes.createdAt));

  const history = await db
    .select({
      streamVideoId: videos.streamVideoId,
      positionSeconds: watchHistory.positionSeconds,
      finished: watchHistory.finished,
      watchedAt: watchHistory.updatedAt,
    })
    .from(watchHistory)
    .innerJoin(videos, eq(videos.id, watchHistory.videoId))
    .where(eq(watchHistory.userId, userId))
    .orderBy(asc(watchHistory.updatedAt));

  /** The members on the other side of one of the member's relations (follows, blocks), by username, oldest first. */
  const relation = (table: typeof follows | typeof blocks, self: PgColumn, them: PgColumn) =>
    db
      .select({ username: other.username, since: table.createdAt })
      .from(table)
      .innerJoin(other, eq(other.id, them))
      .where(eq(self, userId))
      .orderBy(asc(table.createdAt))
      .then((rows) => rows.map((row) => ({ username: row.username, since: iso(row.since) })));
  const following = await relation(follows, follows.followerId, follows.followeeId);
  const followers = await relation(follows, follows.followeeId, follows.followerId);
  const blocked = await relation(blocks, blocks.blockerId, blocks.blockedId);

  const ownNotifications = await db
    .select({
      type: notifications.type,
      message: notifications.message,
      link: notifications.link,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      senderUsername: other.username,
    })
    .from(notifications)
    .leftJoin(other, eq(other.id, notifications.senderId))
    .where(eq(notifications.recipientId, userId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));

  const completions = await db
    .select({ day: taskCompletions.day, completedAt: taskCompletions.completedAt, task: dailyTasks.description })
    .from(taskCompletions)
    .leftJoin(dailyTasks, eq(dailyTasks.id, taskCompletions.taskId))
    .where(eq(taskCompletions.userId, userId))
    .orderBy(asc(taskCompletions.day));

  const verifications = await db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.userId, userId))
    .orderBy(asc(identityVerifications.submittedAt));
  const decisions = await db
    .select()
    .from(moderationDecisions)
    .where(eq(moderationDecisions.subjectUserId, userId))
    .orderBy(asc(moderationDecisions.createdAt));
  const ownAppeals = await db.select().from(appeals).where(eq(appeals.appellantId, userId)).orderBy(asc(appeals.createdAt));
  const ownEntitlements = await db
    .select()
    .from(entitlements)
    .where(eq(entitlements.userId, userId))
    .orderBy(asc(entitlements.createdAt));
  const ownCheckouts = await db.select().from(checkouts).where(eq(checkouts.userId, userId)).orderBy(asc(checkouts.createdAt));
  const events = await db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.userId, userId))
    .orderBy(asc(paymentEvents.receivedAt));

  const ownPlaylists = await playlistsForExport(db, userId, videoUrl);

  const json: Record<string, unknown> = {
    'profile.json': {
      id: user.id,
      username: user.username,
      email: user.email,
      dateOfBirth: user.dateOfBirth,
      bio: user.bio,
      profilePhotoUrl: user.profilePhotoKey ? `${siteUrl}/media/avatars/${user.profilePhotoKey}-256.webp` : null,
      settings: { autoPlayVideos: user.autoPlayVideos, historyPaused: user.historyPaused },
      createdAt: iso(user.createdAt),
      emailVerified: Boolean(user.emailVerifiedAt),
      emailVerifiedAt: iso(user.emailVerifiedAt),
      isAdmin: hasAdminRole(user),
      vip: { isVIP: isVipNow(user), vipUntil: iso(user.vipUntil) },
      banned: user.bannedAt ? { bannedAt: iso(user.bannedAt), reason: user.banReason } : null,
    },
    'videos.json': videoEntries,
    'comments.json': ownComments.map((comment) => ({
      id: comment.id,
      video: { streamVideoId: comment.streamVideoId, url: videoUrl(comment.streamVideoId) },
      body: comment.body,
      createdAt: iso(comment.createdAt),
      editedAt: iso(comment.editedAt),
    })),
    'likes.json': likes.map((like) => ({
      streamVideoId: like.streamVideoId,
      url: videoUrl(like.streamVideoId),
      likedAt: iso(like.likedAt),
    })),
    'history.json': history.map((entry) => ({
      streamVideoId: entry.streamVideoId,
      url: videoUrl(entry.streamVideoId),
      positionSeconds: entry.positionSeconds,
      finished: entry.finished,
      watchedAt: iso(entry.watchedAt),
    })),
    'playlists.json': ownPlaylists,
    'follows.json': { following, followers },
    'notifications.json': ownNotifications.map((row) => {
      // Moderation decisions come from the site: the deciding admin is not named, as in the bell.
      const sender = row.type === 'follow' || row.type === 'like' || row.type === 'comment' ? row.senderUsername : null;
      return {
        type: row.type,
        text: notificationText(row.type, row.message, sender),
        sender,
        link: row.link,
        read: row.readAt !== null,
        readAt: iso(row.readAt),
        createdAt: iso(row.createdAt),
      };
    }),
    'daily-tasks.json': {
      tasksCompleted: user.tasks,
      currentStreak: user.taskStreak,
      lastTaskCompleted: iso(user.lastTaskCompleted),
      history: completions.map((row) => ({ day: row.day, task: row.task, completedAt: iso(row.completedAt) })),
    },
    'payments.json': {
      vipPeriods: ownEntitlements.map((row) => ({
        source: row.source,
        plan: row.planId,
        saleId: row.externalId,
        status: row.status,
        recurring: row.recurring,
        periodEnd: iso(row.periodEnd),
        cancelledAt: iso(row.cancelledAt),
        endedAt: iso(row.endedAt),
        createdAt: iso(row.createdAt),
      })),
      checkouts: ownCheckouts.map((row) => ({
        plan: row.planId,
        price: row.priceAmount,
        currency: row.priceCurrency,
        periodDays: row.periodDays,
        recurring: row.recurring,
        startedAt: iso(row.createdAt),
        completedAt: iso(row.completedAt),
      })),
      // The processor's raw payload stays out: it carries signatures and the processor's own fields.
      events: events.map((row) => ({
        processor: row.processor,
        event: row.event,
        saleId: row.saleId,
        price: row.priceAmount,
        currency: row.priceCurrency,
        outcome: row.outcome,
        // Manual grants and revocations name the admin and their note; the site speaks for them, as in moderation.
        detail: row.processor === 'manual' ? null : row.detail,
        receivedAt: iso(row.receivedAt),
      })),
    },
    'blocks.json': blocked,
    // What the member told us to verify their identity and what we decided; the ID photo and selfie stay sealed on the server (see README.txt).
    'verification.json': verifications.map((row) => ({
      status: row.status,
      legalName: row.legalName,
      dateOfBirth: row.dateOfBirth,
      submittedAt: iso(row.submittedAt),
      reviewedAt: iso(row.reviewedAt),
      rejectionReason: row.rejectionReason,
      documentsStored: { idDocument: row.idDocumentId !== null, selfie: row.selfieDocumentId !== null },
      deleteAfter: iso(row.deleteAfter),
    })),
    // Statements of reasons about the member's content or account, and their appeals (decision 017); the deciding admin is not named.
    'decisions.json': decisions.map((row) => ({
      id: row.id,
      decision: row.action,
      about: { type: row.targetType, id: row.targetId, label: row.targetLabel },
      ground: row.ground,
      explanation: row.explanation,
      automated: row.automated,
      source: row.source,
      decidedAt: iso(row.createdAt),
      appealUntil: iso(row.appealUntil),
      appeals: ownAppeals
        .filter((appeal) => appeal.decisionId === row.id)
        .map((appeal) => ({
          statement: appeal.statement,
          status: appeal.status,
          outcomeNote: appeal.outcomeNote,
          sentAt: iso(appeal.createdAt),
          decidedAt: iso(appeal.decidedAt),
        })),
    })),
  };
  return { json, originals };
}
