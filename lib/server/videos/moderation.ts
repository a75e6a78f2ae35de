import 'server-only';

import { and, eq, inArray, sql } from 'drizzle-orm';

import type { ModerationVideoDto, OwnVideoDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { videos } from '@/lib/db/schema';
import type { DecisionGround } from '@/lib/trust/grounds';
import { DEFAULT_REJECTION_GROUND, type ModerationStatus } from '@/lib/validation/videos';
import { purgePublicPages } from '@/lib/events';

import { recordAdminAction } from '../admin/audit';
import { anotherAdminExists, OWN_CASE_MESSAGES } from '../admin/duties';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, conflict, forbidden } from '../errors';
import { notify } from '../notifications';
import { approvalBlockers, assertApprovable } from '../trust/approval-gate';
import { openWithdrawalsFor } from '../trust/consent-withdrawals';
import { recordsFor } from '../trust/performers';
import { recordDecision } from '../trust/decisions';
import { verificationStates } from '../verification';

import { PACKAGE_HLS_JOB } from './processing';
import { PROCESS_VIDEO_JOB } from './upload';

import { captionTracksFor } from './captions';
import { OWN_VIDEO_COLUMNS } from './catalog';
import { toOwnVideoDto, type OwnVideoRow } from './dto';

/** The moderation queue: oldest first for pending (first come, first reviewed), newest first otherwise. */
export async function listForModeration(actor: Actor, status: ModerationStatus, request: { page: number; limit: number }) {
  requireAdmin(actor);
  const db = await getDb();
  const order =
    status === 'pending' ? sql`v.created_at ASC, v.id ASC` : sql`coalesce(v.moderated_at, v.created_at) DESC, v.id DESC`;
  const rows = await queryRows<OwnVideoRow & { processing_detail: string | null }>(
    db,
    sql`SELECT ${OWN_VIDEO_COLUMNS},
          (SELECT j.last_error FROM jobs j
            WHERE j.dedupe_key IN (${`${PROCESS_VIDEO_JOB}:`} || v.id, ${`${PACKAGE_HLS_JOB}:`} || v.id) AND j.last_error IS NOT NULL
            ORDER BY j.updated_at DESC LIMIT 1) AS processing_detail
        FROM videos v JOIN users u ON u.id = v.owner_id
        WHERE v.moderation_status = ${status}
        ORDER BY ${order}
        LIMIT ${request.limit + 1} OFFSET ${(request.page - 1) * request.limit}`,
  );
  const [counts] = await queryRows<Record<ModerationStatus, number>>(
    db,
    sql`SELECT count(*) FILTER (WHERE moderation_status = 'pending')::int AS pending,
               count(*) FILTER (WHERE moderation_status = 'approved')::int AS approved,
               count(*) FILTER (WHERE moderation_status = 'rejected')::int AS rejected
        FROM videos`,
  );
  const page = rows.slice(0, request.limit);
  // The uploader's verification beside each video: admins see before clicking whether approval can pass the gate.
  const verified = await verificationStates(
    db,
    page.map((row) => row.owner_id),
  );
  // Beside each video the moderator sees who appears in it, any withdrawal of consent, and why it cannot be approved yet.
  const ids = page.map((row) => row.id);
  const [records, withdrawals, fullRows, captions] = await Promise.all([
    recordsFor(db, ids, true),
    openWithdrawalsFor(db, ids),
    ids.length ? db.select().from(videos).where(inArray(videos.id, ids)) : Promise.resolve([]),
    captionTracksFor(db, page),
  ]);
  const blockers = new Map<string, string[]>();
  for (const video of fullRows)
    blockers.set(video.id, video.moderationStatus === 'approved' ? [] : await approvalBlockers(db, video));
  return {
    videos: page.map((row): ModerationVideoDto => ({
      ...toOwnVideoDto(row),
      processingDetail: row.processing_detail,
      performerRecords: records.get(row.id) ?? null,
      consentWithdrawals: withdrawals.get(row.id) ?? [],
      approvalBlockers: blockers.get(row.id) ?? [],
      uploaderVerification: verified.get(row.owner_id) ?? 'none',
      captions: captions.get(row.id) ?? [],
    })),
    counts: counts!,
    pagination: { page: request.page, limit: request.limit, hasMore: rows.length > request.limit, nextCursor: null },
  };
}

/** A rejection names the rule it rests on (its statement of reasons); without one, DEFAULT_REJECTION_GROUND. */
export type ModerationDecision = { action: 'approve' } | { action: 'reject'; reason: string; ground?: DecisionGround };

/**
 * Approves or rejects a video and tells the uploader. Approving a video
 * whose processing failed is refused (nothing could be shown); approving one
 * still processing is allowed: it goes public the moment it is ready.
 * Deciding again (reject after approve) is allowed: admins correct mistakes.
 */
export async function moderateVideo(actor: Actor, streamVideoId: string, decision: ModerationDecision): Promise<OwnVideoDto> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const [video] = await db.select().from(videos).where(eq(videos.streamVideoId, streamVideoId));
  if (!video) throw new ApiError(404, 'Video not found');
  const status = decision.action === 'approve' ? 'approved' : 'rejected';
  if (decision.action === 'approve' && video.processingState === 'failed') {
    throw conflict('This video could not be processed, so it cannot be approved.');
  }
  if (video.moderationStatus === status) throw conflict(`This video is already ${status}.`);
  if (decision.action === 'approve') await assertApprovable(db, video);
  // Another admin approves an admin's own video; the one admin of a site approves their own (audited as such).
  const selfApproved = decision.action === 'approve' && video.ownerId === admin.user.id;
  if (selfApproved && (await anotherAdminExists(db, admin))) throw forbidden(OWN_CASE_MESSAGES.video);

  await db.transaction(async (tx) => {
    const updated = await tx
      .update(videos)
      .set({
        moderationStatus: status,
        rejectionReason: decision.action === 'reject' ? decision.reason : null,
        moderatedBy: admin.user.id,
        moderatedAt: sql`now()`,
        // The first approval is the publication date; lists sort by it.
        publishedAt: decision.action === 'approve' ? sql`coalesce(${videos.publishedAt}, now())` : videos.publishedAt,
        updatedAt: sql`now()`,
      })
      // Only from the state we read: two admins deciding at once cannot both win.
      .where(and(eq(videos.id, video.id), eq(videos.moderationStatus, video.moderationStatus)))
      .returning({ id: videos.id });
    if (updated.length === 0) throw conflict('Another admin decided on this video just now. Reload to see the decision.');
    await recordAdminAction(tx, admin, {
      action: decision.action === 'approve' ? 'video.approve' : 'video.reject',
      targetType: 'video',
      targetId: video.streamVideoId,
      summary: decision.action === 'approve' ? `Approved “${video.title}”` : `Rejected “${video.title}”: ${decision.reason}`,
      details: {
        videoId: video.id,
        from: video.moderationStatus,
        ...(selfApproved ? { selfApproved: true } : {}),
        ...(decision.action === 'reject' ? { reason: decision.reason, ground: decision.ground ?? DEFAULT_REJECTION_GROUND } : {}),
      },
    });
    // A rejection's statement of reasons (DSA Art. 17), which the notification links to and the uploader can appeal.
    const statement =
      decision.action === 'reject'
        ? await recordDecision(tx, {
            subjectUserId: video.ownerId,
            targetType: 'video',
            targetId: video.streamVideoId,
            targetLabel: video.title,
            action: 'video_rejected',
            ground: decision.ground ?? DEFAULT_REJECTION_GROUND,
            explanation: decision.reason,
            automated: false,
            source: 'moderation',
            decidedBy: admin.user.id,
          })
        : null;
    await notify(tx, {
      recipientId: video.ownerId,
      senderId: admin.user.id,
      type: decision.action === 'approve' ? 'video_approved' : 'video_rejected',
      link: statement ? statement.link : `/video/${video.streamVideoId}`,
      message:
        decision.action === 'approve'
          ? `Your video "${video.title}" has been approved.`
          : `Your video "${video.title}" was not approved. Reason: ${decision.reason}`,
    });
  });
  purgePublicPages();
  const [row] = await queryRows<OwnVideoRow>(
    db,
    sql`SELECT ${OWN_VIDEO_COLUMNS} FROM videos v JOIN users u ON u.id = v.owner_id WHERE v.id = ${video.id}`,
  );
  return toOwnVideoDto(row!);
}

export interface BulkModerationResult {
  streamVideoId: string;
  ok: boolean;
  /** Why this one was not changed (already decided, processing failed, not found). */
  message: string | null;
}

/**
 * The same decision for several videos, each in its own transaction: one
 * that cannot be decided (already decided by someone else, failed
 * processing) is reported and does not stop the others.
 */
export async function moderateVideos(
  actor: Actor,
  streamVideoIds: string[],
  decision: ModerationDecision,
): Promise<BulkModerationResult[]> {
  const admin = requireAdmin(actor);
  const results: BulkModerationResult[] = [];
  for (const streamVideoId of new Set(streamVideoIds)) {
    try {
      await moderateVideo(admin, streamVideoId, decision);
      results.push({ streamVideoId, ok: true, message: null });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push({ streamVideoId, ok: false, message: error.message });
    }
  }
  return results;
}
