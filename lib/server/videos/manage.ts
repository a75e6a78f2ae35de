import 'server-only';

import { randomUUID } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';

import type { OwnVideoDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { videos, videoTextEdits, type Video } from '@/lib/db/schema';
import { purgePublicPages, wakeWorkers } from '@/lib/events';
import type { VideoEditInput } from '@/lib/validation/video-edit';

import { recordAdminAction } from '../admin/audit';
import { isAdmin, requireMember, type Actor, type Authenticated } from '../auth/actor';
import { enqueuePurge, videoPrefixes } from '../deletion/purge';
import { forgetVideos } from '../deletion/references';
import { ApiError, forbidden } from '../errors';
import { consume, tooOften } from '../rate-limit';

import { VIDEO_NOT_FOUND } from './access';
import { findVideoRow } from './catalog';
import { toOwnVideoDto } from './dto';

export const EDITABLE_FIELDS = ['title', 'description', 'category', 'tags'] as const;
type EditableField = (typeof EDITABLE_FIELDS)[number];

/** Fields an owner's change of an approved video waits for a moderator on (decision 009): the category cannot carry abuse. */
const REVIEWED_FIELDS = ['title', 'description', 'tags'] as const satisfies readonly EditableField[];
type ReviewedText = Pick<Video, (typeof REVIEWED_FIELDS)[number]>;

export const WAITING_FOR_REVIEW_MESSAGE =
  'Saved. Your new title, description and tags are shown once an admin approves them; until then the video stays public as it was.';
export const EDIT_WITHDRAWN_MESSAGE = 'Saved. The changes that were waiting for review are withdrawn.';
export const SAVED_MESSAGE = 'Your changes are saved.';
export const VIDEO_DELETED_MESSAGE = 'Video deleted.';

/**
 * The video if the caller may change it: its owner or an admin. Someone
 * else's public video is a 403; one they cannot even see is a 404, like a
 * deleted one, so its existence is not given away.
 */
export async function manageable(
  actor: Actor,
  streamVideoId: string,
  verb: 'edit' | 'delete',
): Promise<{ member: Authenticated; video: Video; asAdmin: boolean }> {
  const member = requireMember(actor);
  const db = await getDb();
  const [video] = /^[A-Za-z0-9_-]{1,32}$/.test(streamVideoId)
    ? await db.select().from(videos).where(eq(videos.streamVideoId, streamVideoId))
    : [];
  if (!video) throw new ApiError(404, VIDEO_NOT_FOUND);
  // isAdmin(actor): admin powers need a session that passed the second factor (decision 018).
  if (video.ownerId === member.user.id) return { member, video, asAdmin: isAdmin(actor) };
  if (isAdmin(actor)) return { member, video, asAdmin: true };
  const visible = video.processingState === 'ready' && video.moderationStatus === 'approved' && !video.ownerBanned;
  if (!visible) throw new ApiError(404, VIDEO_NOT_FOUND);
  throw forbidden(`You can only ${verb} your own videos.`);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `next` that differ from `from`, with both values, for the audit log. */
export function changesOf<K extends string, V>(from: Record<K, V>, next: Record<K, V>, fields: readonly K[]) {
  return fields
    .filter((field) => !same(from[field], next[field]))
    .map((field) => ({ field, before: from[field], after: next[field] }));
}

/**
 * Edits a video's title, description, category and tags (the upload's rules). Admins' edits are live at once, and so
 * is everything on a video that is not public yet. On an approved video an owner's category change is live at once
 * while a new title, description or tags wait in video_text_edits for a moderator (decision 009): the approved text
 * stays public, so the page, its links and embeds never go offline for a typo fix. Saving again replaces the waiting
 * text; saving the approved text withdraws it. Every edit is in the audit log with each field before and after.
 */
export async function editVideo(
  actor: Actor,
  streamVideoId: string,
  input: VideoEditInput,
): Promise<{ video: OwnVideoDto; message: string }> {
  const { member, video: found, asAdmin } = await manageable(actor, streamVideoId, 'edit');
  // An admin's edits of others' videos are moderation, audited: the budget is for a member's own.
  if (!asAdmin) await consume('videoEditsPerMember', member.user.id, tooOften('edited your videos'));
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    // Locked and read again: a concurrent edit or moderation decision is applied first, then this one over it.
    const [video] = await tx.select().from(videos).where(eq(videos.id, found.id)).for('update');
    if (!video) throw new ApiError(404, VIDEO_NOT_FOUND);
    const [waiting] = await tx.select().from(videoTextEdits).where(eq(videoTextEdits.videoId, video.id)).for('update');
    const reviewed = !asAdmin && video.moderationStatus === 'approved';
    // The owner goes on from the text they proposed; everything else from what is live.
    const base: ReviewedText = reviewed && waiting ? waiting : video;
    const text: ReviewedText = {
      title: input.title ?? base.title,
      description: input.description ?? base.description,
      tags: input.tags ?? base.tags,
    };
    const liveText: ReviewedText = reviewed ? { title: video.title, description: video.description, tags: video.tags } : text;
    const live: Pick<Video, EditableField> = { ...liveText, category: input.category ?? video.category };
    const liveChanges = changesOf(video, live, EDITABLE_FIELDS);
    const proposed = reviewed ? changesOf(video, text, REVIEWED_FIELDS) : [];
    // The waiting text is stored anew only when it differs from what already waits (a new editId for moderators).
    const upsert = proposed.length > 0 && !(waiting && changesOf(waiting, text, REVIEWED_FIELDS).length === 0);
    // It goes when the owner saves the approved text again, or once a video that is not public takes the text directly.
    const withdraw = Boolean(waiting) && proposed.length === 0 && (reviewed || !asAdmin);
    const waits = proposed.length > 0;
    const message = waits ? WAITING_FOR_REVIEW_MESSAGE : withdraw && reviewed ? EDIT_WITHDRAWN_MESSAGE : SAVED_MESSAGE;
    if (liveChanges.length === 0 && !upsert && !withdraw) return { purge: false, message };

    if (liveChanges.length > 0)
      await tx
        .update(videos)
        .set({ ...live, updatedAt: sql`now()` })
        .where(eq(videos.id, video.id));
    if (withdraw) await tx.delete(videoTextEdits).where(eq(videoTextEdits.videoId, video.id));
    if (upsert) {
      const values = { ...text, editId: randomUUID(), proposedAt: new Date() };
      await tx
        .insert(videoTextEdits)
        .values({ videoId: video.id, ...values })
        .onConflictDoUpdate({ target: videoTextEdits.videoId, set: values });
    }
    const byOwner = video.ownerId === member.user.id;
    const fields = [...new Set([...liveChanges, ...proposed].map((change) => change.field))];
    await recordAdminAction(tx, member, {
      action: 'video.edit',
      targetType: 'video',
      targetId: video.streamVideoId,
      summary: `${byOwner ? 'Owner edited' : 'Edited'} “${video.title}”: ${fields.join(', ') || 'withdrew the waiting text'}${waits ? ' (text waits for review)' : ''}`,
      details: {
        videoId: video.id,
        by: byOwner ? 'owner' : 'admin',
        waitsForReview: waits,
        ...(withdraw ? { withdrew: true } : {}),
        changes: [...liveChanges, ...proposed],
      },
    });
    return { purge: liveChanges.length > 0, message };
  });
  if (outcome.purge) purgePublicPages();
  const row = await findVideoRow(found.streamVideoId);
  if (!row) throw new ApiError(404, VIDEO_NOT_FOUND);
  return { video: toOwnVideoDto(row), message: outcome.message };
}

/**
 * Deletes a video for its owner or an admin. One transaction removes the row
 * (its likes, comments and views with it), the notifications that link to
 * it, closes open reports on it, writes the audit entry and queues the purge
 * of its files; public pages are purged at once.
 */
export async function deleteVideo(actor: Actor, streamVideoId: string): Promise<{ message: string }> {
  const { member, video } = await manageable(actor, streamVideoId, 'delete');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const which = sql`v.id = ${video.id}`;
    await forgetVideos(tx, which, 'The video was deleted.');
    const gone = await queryRows<{ id: string }>(tx, sql`DELETE FROM videos WHERE id = ${video.id} RETURNING id`);
    if (gone.length === 0) throw new ApiError(404, VIDEO_NOT_FOUND);
    await recordAdminAction(tx, member, {
      action: 'video.delete',
      targetType: 'video',
      targetId: video.streamVideoId,
      summary: `${video.ownerId === member.user.id ? 'Owner deleted' : 'Deleted'} “${video.title}”`,
      details: {
        videoId: video.id,
        by: video.ownerId === member.user.id ? 'owner' : 'admin',
        ownerId: video.ownerId,
        title: video.title,
        moderationStatus: video.moderationStatus,
      },
    });
    await enqueuePurge(tx, `video:${video.id}`, { prefixes: videoPrefixes(video), avatars: [] });
  });
  wakeWorkers();
  purgePublicPages();
  return { message: VIDEO_DELETED_MESSAGE };
}
