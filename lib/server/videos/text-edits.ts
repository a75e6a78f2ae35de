import 'server-only';

import { and, eq, sql } from 'drizzle-orm';

import type { TextEditDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { videos, videoTextEdits } from '@/lib/db/schema';
import { purgePublicPages } from '@/lib/events';
import type { TextEditDecision } from '@/lib/validation/videos';

import { recordAdminAction } from '../admin/audit';
import { anotherAdminExists, OWN_CASE_MESSAGES } from '../admin/duties';
import { requireAdmin, type Actor } from '../auth/actor';
import { ApiError, conflict, forbidden } from '../errors';
import { notify } from '../notifications';

import { VIDEO_NOT_FOUND } from './access';
import { iso, mediaUrl } from './dto';
import { changesOf } from './manage';

const TEXT_FIELDS = ['title', 'description', 'tags'] as const;

export const TEXT_EDIT_GONE_MESSAGE = 'These changes were decided already, or the owner withdrew them. Reload to see the list.';
export const TEXT_EDIT_REPLACED_MESSAGE = 'The owner changed this text again just now. Reload to read the new version.';

interface TextEditRow {
  stream_video_id: string;
  edit_id: string;
  proposed_at: Date | string;
  title: string;
  description: string;
  tags: string[];
  live_title: string;
  live_description: string;
  live_tags: string[];
  thumbnail_key: string | null;
  owner_id: string;
  owner_username: string;
}

/**
 * Owners' new titles, descriptions and tags for approved videos (decision 009), oldest first: the approved text is
 * public meanwhile, so nothing is hidden while this queue waits, but the oldest change has waited longest.
 */
export async function listTextEdits(actor: Actor, request: { page: number; limit: number }) {
  requireAdmin(actor);
  const db = await getDb();
  const rows = await queryRows<TextEditRow>(
    db,
    sql`SELECT v.stream_video_id, e.edit_id, e.proposed_at, e.title, e.description, e.tags,
               v.title AS live_title, v.description AS live_description, v.tags AS live_tags, v.thumbnail_key,
               v.owner_id, u.username AS owner_username
        FROM video_text_edits e JOIN videos v ON v.id = e.video_id JOIN users u ON u.id = v.owner_id
        ORDER BY e.proposed_at ASC, e.video_id ASC
        LIMIT ${request.limit + 1} OFFSET ${(request.page - 1) * request.limit}`,
  );
  const [count] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM video_text_edits`);
  return {
    edits: rows.slice(0, request.limit).map((row): TextEditDto => ({
      streamVideoId: row.stream_video_id,
      editId: row.edit_id,
      proposedAt: iso(row.proposed_at),
      title: row.live_title,
      uploader: { _id: row.owner_id, username: row.owner_username },
      thumbnailUrl: row.thumbnail_key ? mediaUrl(row.stream_video_id, 'thumbnail.jpg') : null,
      changes: changesOf(
        { title: row.live_title, description: row.live_description, tags: row.live_tags ?? [] },
        { title: row.title, description: row.description, tags: row.tags ?? [] },
        TEXT_FIELDS,
      ),
    })),
    total: count!.n,
    pagination: { page: request.page, limit: request.limit, hasMore: rows.length > request.limit, nextCursor: null },
  };
}

/** How many edits wait (the moderation page links to the queue with it). */
export async function countTextEdits(actor: Actor): Promise<number> {
  requireAdmin(actor);
  const [count] = await queryRows<{ n: number }>(await getDb(), sql`SELECT count(*)::int AS n FROM video_text_edits`);
  return count!.n;
}

/**
 * Approves (the text goes live) or rejects (it is dropped, the approved text stays) an owner's waiting edit, and tells
 * the owner. The decision names the proposal the moderator read: a newer one (the owner saved again) or none (decided
 * by another admin, withdrawn) is a 409, never decided unseen.
 */
export async function decideTextEdit(
  actor: Actor,
  streamVideoId: string,
  decision: TextEditDecision,
): Promise<{ message: string }> {
  const admin = requireAdmin(actor);
  const db = await getDb();
  const message = await db.transaction(async (tx) => {
    const [video] = await tx.select().from(videos).where(eq(videos.streamVideoId, streamVideoId)).for('update');
    if (!video) throw new ApiError(404, VIDEO_NOT_FOUND);
    const [waiting] = await tx.select().from(videoTextEdits).where(eq(videoTextEdits.videoId, video.id)).for('update');
    if (!waiting) throw conflict(TEXT_EDIT_GONE_MESSAGE);
    if (waiting.editId !== decision.editId) throw conflict(TEXT_EDIT_REPLACED_MESSAGE);
    if (video.ownerId === admin.user.id && (await anotherAdminExists(tx, admin))) throw forbidden(OWN_CASE_MESSAGES.video);

    const approve = decision.action === 'approve';
    const changes = changesOf(video, waiting, TEXT_FIELDS);
    if (approve && changes.length > 0)
      await tx
        .update(videos)
        .set({ title: waiting.title, description: waiting.description, tags: waiting.tags, updatedAt: sql`now()` })
        .where(eq(videos.id, video.id));
    await tx.delete(videoTextEdits).where(and(eq(videoTextEdits.videoId, video.id), eq(videoTextEdits.editId, waiting.editId)));
    await recordAdminAction(tx, admin, {
      action: approve ? 'video.edit_approve' : 'video.edit_reject',
      targetType: 'video',
      targetId: video.streamVideoId,
      summary: approve
        ? `Approved the owner's changes to “${video.title}”`
        : `Rejected the owner's changes to “${video.title}”: ${decision.reason}`,
      details: { videoId: video.id, editId: waiting.editId, changes, ...(approve ? {} : { reason: decision.reason }) },
    });
    await notify(tx, {
      recipientId: video.ownerId,
      senderId: admin.user.id,
      type: approve ? 'video_approved' : 'video_rejected',
      link: `/video/${video.streamVideoId}`,
      message: approve
        ? `Your changes to "${video.title}" have been approved and are live.`
        : `Your changes to "${video.title}" were not approved, so it keeps its approved text. Reason: ${decision.reason}`,
    });
    return approve ? 'Changes approved: the new text is live.' : 'Changes rejected: the video keeps its approved text.';
  });
  if (decision.action === 'approve') purgePublicPages();
  return { message };
}
