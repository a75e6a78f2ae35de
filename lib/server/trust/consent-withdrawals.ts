import 'server-only';

import { and, desc, eq, inArray, sql } from 'drizzle-orm';

import type { ConsentWithdrawalDto } from '@/lib/api-types';
import { getDb, type Database } from '@/lib/db';
import { consentWithdrawals, videos, type ConsentWithdrawal } from '@/lib/db/schema';
import { purgePublicPages } from '@/lib/events';
import {
  streamIdFromVideoLink,
  WITHDRAWAL_MESSAGES,
  type ConsentWithdrawalInput,
  type WithdrawalResolution,
} from '@/lib/validation/performers';

import { recordAdminAction } from '../admin/audit';
import { refuseOwnCase } from '../admin/duties';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, conflict } from '../errors';
import { notify } from '../notifications';
import { consume } from '../rate-limit';
import { reporterKeyOf } from '../reports/keys';

import { recordDecision } from './decisions';
import { holdVideoPendingReview } from './hold';
import { mayAcknowledge, queueTrustEmail } from './mail';

export const WITHDRAWAL_RATE_LIMIT_MESSAGE =
  'You have sent a lot of requests in a short time. Please wait a while before sending another.';
export const WITHDRAWAL_NOT_FOUND = 'Withdrawal not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const REMOVED_REASON = 'A performer withdrew their consent to this video.';

/**
 * A performer withdraws consent through the public form (no account): the
 * video is hidden at once (holdVideoPendingReview), the withdrawal stays
 * open and blocks approval until an admin confirms or dismisses it, and the
 * uploader gets a statement of reasons. The answer is the same for a video
 * that does not exist, a pending one and a public one, so the form tells no
 * one which unpublished videos exist. Rate limited per address like reports.
 */
export async function submitConsentWithdrawal(input: ConsentWithdrawalInput, address: string): Promise<{ message: string }> {
  const senderKey = reporterKeyOf(null, address);
  await consume('consentWithdrawalPerIp', senderKey, WITHDRAWAL_RATE_LIMIT_MESSAGE);
  const acknowledge = await mayAcknowledge(input.email);
  const streamVideoId = streamIdFromVideoLink(input.video);
  const db = await getDb();
  const [video] = streamVideoId ? await db.select().from(videos).where(eq(videos.streamVideoId, streamVideoId)) : [];
  // The same acknowledgement whether or not the video exists, as on screen: the form tells no one which unpublished videos exist.
  // Anyone can type anyone's address here, so it says nothing the sender typed (no name, no link): only our fixed text.
  const acknowledgement = {
    to: input.email,
    subject: 'We received your withdrawal of consent',
    lines: [
      'Someone used this email address on our public form to withdraw their consent to a video on Chrysalis.',
      'If that video is on Chrysalis, it is now hidden while we review the request, and we will write to this address again when we have decided.',
      'If you did not send this request, you can ignore this email.',
    ],
    action: 'Read how we handle consent',
    url: '/community-standards',
  };
  if (!video) {
    if (acknowledge) await queueTrustEmail(db, acknowledgement);
    return { message: WITHDRAWAL_MESSAGES.thanks };
  }

  const hidden = await db.transaction(async (tx) => {
    const [alreadyOpen] = await tx
      .select({ id: consentWithdrawals.id })
      .from(consentWithdrawals)
      .where(and(eq(consentWithdrawals.videoId, video.id), eq(consentWithdrawals.status, 'open')))
      .limit(1);
    await tx.insert(consentWithdrawals).values({
      videoId: video.id,
      streamVideoId: video.streamVideoId,
      videoTitle: video.title,
      legalName: input.legalName,
      dateOfBirth: input.dateOfBirth,
      email: input.email,
      statement: input.statement,
      senderKey,
    });
    const held = await holdVideoPendingReview(tx, video.id);
    if (acknowledge) await queueTrustEmail(tx, acknowledgement);
    // One statement per episode: a second withdrawal of a video already held tells the uploader nothing new.
    if (!alreadyOpen) {
      const decision = await recordDecision(tx, {
        subjectUserId: video.ownerId,
        targetType: 'video',
        targetId: video.streamVideoId,
        targetLabel: video.title,
        action: 'video_hidden',
        ground: 'standards-age-and-consent',
        explanation: held
          ? 'Someone who says they appear in this video withdrew their consent to it through our public form. The video is hidden while we review the request.'
          : 'Someone who says they appear in this video withdrew their consent to it through our public form. The video stays unpublished while we review the request.',
        automated: true,
        source: 'consent',
        decidedBy: null,
      });
      await notify(tx, {
        recipientId: video.ownerId,
        type: 'site_notice',
        link: decision.link,
        message: `Your video "${video.title}" is hidden: a performer withdrew their consent to it. We are reviewing the request.`,
      });
    }
    return held !== null;
  });
  if (hidden) purgePublicPages();
  return { message: WITHDRAWAL_MESSAGES.thanks };
}

function toDto(row: ConsentWithdrawal): ConsentWithdrawalDto {
  return {
    _id: row.id,
    streamVideoId: row.streamVideoId,
    legalName: row.legalName,
    dateOfBirth: row.dateOfBirth,
    email: row.email,
    statement: row.statement,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** Open withdrawals of these videos (for the moderation queue), newest first. */
export async function openWithdrawalsFor(db: Database, videoIds: string[]): Promise<Map<string, ConsentWithdrawalDto[]>> {
  const result = new Map<string, ConsentWithdrawalDto[]>();
  if (videoIds.length === 0) return result;
  const rows = await db
    .select()
    .from(consentWithdrawals)
    .where(and(inArray(consentWithdrawals.videoId, videoIds), eq(consentWithdrawals.status, 'open')))
    .orderBy(desc(consentWithdrawals.createdAt));
  for (const row of rows) result.set(row.videoId, [...(result.get(row.videoId) ?? []), toDto(row)]);
  return result;
}

/**
 * An admin resolves a withdrawal. Confirm: the video is rejected for good,
 * with a statement of reasons to the uploader; every other open withdrawal
 * of it is confirmed with it. Dismiss (not a performer of this video): the
 * withdrawal closes and the video can be approved again through the gate.
 * Audited in the same transaction.
 */
export async function resolveConsentWithdrawal(
  actor: Actor,
  id: string,
  resolution: WithdrawalResolution,
): Promise<{ message: string; withdrawal: ConsentWithdrawalDto }> {
  const admin = requireAdmin(actor);
  if (!UUID.test(id)) throw new ApiError(404, WITHDRAWAL_NOT_FOUND);
  const db = await getDb();
  const confirm = resolution.action === 'confirm';
  const resolved = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(consentWithdrawals).where(eq(consentWithdrawals.id, id)).for('update');
    if (!row) throw new ApiError(404, WITHDRAWAL_NOT_FOUND);
    if (row.status !== 'open') throw conflict(`This withdrawal was already ${row.status}.`);
    // Confirming takes their own video down, which its owner may always do; dismissing it is another admin's call.
    if (!confirm) {
      const [owned] = await tx.select({ ownerId: videos.ownerId }).from(videos).where(eq(videos.id, row.videoId));
      refuseOwnCase(admin, owned?.ownerId, 'withdrawal');
    }
    const status = confirm ? 'confirmed' : 'dismissed';
    const closing = confirm
      ? and(eq(consentWithdrawals.videoId, row.videoId), eq(consentWithdrawals.status, 'open'))
      : eq(consentWithdrawals.id, row.id);
    const closed = await tx
      .update(consentWithdrawals)
      .set({ status, resolvedBy: admin.user.id, resolvedAt: sql`now()`, resolutionNote: resolution.note || null })
      .where(closing)
      .returning({ email: consentWithdrawals.email });
    // Everyone whose request this decides hears the outcome, as the acknowledgement promised: in our words and the
    // video's id only, never the name they typed or the uploader's title (the address was typed by a visitor).
    for (const sender of closed) {
      await queueTrustEmail(tx, {
        to: sender.email,
        subject: confirm ? 'The video is removed' : 'We reviewed your withdrawal of consent',
        lines: [
          confirm
            ? `We confirmed the withdrawal of consent sent from this address for the video with the id ${row.streamVideoId}. The video is removed from Chrysalis for good.`
            : `We reviewed the withdrawal of consent sent from this address for the video with the id ${row.streamVideoId} and could not confirm that the sender appears in it, so we dismissed it.`,
          ...(resolution.note ? [`Our note: ${resolution.note}`] : []),
          ...(confirm
            ? []
            : [
                'If you do appear in this video, reply to this email with anything that helps us confirm it, or send a new request.',
              ]),
        ],
        action: confirm ? 'Read how we handle consent' : 'Send a new request',
        url: confirm ? '/community-standards' : `/withdraw-consent?video=${row.streamVideoId}`,
      });
    }
    const [video] = await tx.select().from(videos).where(eq(videos.id, row.videoId)).for('update');
    if (video && confirm) {
      await tx
        .update(videos)
        .set({
          moderationStatus: 'rejected',
          rejectionReason: REMOVED_REASON,
          moderatedBy: admin.user.id,
          moderatedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(videos.id, video.id));
      const decision = await recordDecision(tx, {
        subjectUserId: video.ownerId,
        targetType: 'video',
        targetId: video.streamVideoId,
        targetLabel: video.title,
        action: 'video_removed',
        ground: 'standards-age-and-consent',
        explanation: `A person who appears in this video withdrew their consent to its publication, and we confirmed the request.${resolution.note ? ` ${resolution.note}` : ''}`,
        automated: false,
        source: 'consent',
        decidedBy: admin.user.id,
      });
      await notify(tx, {
        recipientId: video.ownerId,
        senderId: admin.user.id,
        type: 'site_notice',
        link: decision.link,
        message: `Your video "${video.title}" was removed: a performer withdrew their consent to it.`,
      });
    } else if (video) {
      await notify(tx, {
        recipientId: video.ownerId,
        senderId: admin.user.id,
        type: 'site_notice',
        link: '/upload#your-videos',
        message: `We reviewed the withdrawal of consent on your video "${video.title}" and dismissed it. The video is back in the review queue.`,
      });
    }
    await recordAdminAction(tx, admin, {
      action: confirm ? 'consent_withdrawal.confirm' : 'consent_withdrawal.dismiss',
      targetType: 'video',
      targetId: row.streamVideoId,
      summary: `${confirm ? 'Confirmed' : 'Dismissed'} a withdrawal of consent on “${row.videoTitle}”${resolution.note ? `: ${resolution.note}` : ''}`,
      details: { withdrawalId: row.id, videoId: row.videoId, videoDeleted: !video, note: resolution.note },
    });
    const after: ConsentWithdrawal = { ...row, status, resolvedAt: new Date(), resolutionNote: resolution.note || null };
    return after;
  });
  if (confirm) purgePublicPages();
  return {
    message: confirm
      ? 'Withdrawal confirmed: the video is removed and its uploader told why.'
      : 'Withdrawal dismissed: the video can be approved again once its records pass.',
    withdrawal: toDto(resolved),
  };
}
