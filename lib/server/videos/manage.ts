import 'server-only';

import { eq, sql } from 'drizzle-orm';

import type { OwnVideoDto } from '@/lib/api-types';
import { getDb, queryRows } from '@/lib/db';
import { videos, type Video } from '@/lib/db/schema';
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

/** Fields whose change sends an owner's approved video back to review (decision 009): the category alone cannot carry abuse. */
const REVIEWED_FIELDS: readonly EditableField[] = ['title', 'description', 'tags'];

export const BACK_TO_REVIEW_MESSAGE =
  'Saved. Your changes go back to review, so the video is hidden until an admin approves them.';
export const SAVED_MESSAGE = 'Your changes are saved.';
export const VIDEO_DELETED_MESSAGE = 'Video deleted.';

/**
 * The video if the caller may change it: its owner or an admin. Someone
 * else's public video is a 403; one they cannot even see is a 404, like a
 * deleted one, so its existence is not given away.
 */
async function manageable(
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

/**
 * Edits a video's title, description, category and tags (the upload's
 * rules). Admins' edits are live at once; an owner's edit of an approved
 * video that touches its text goes back to review (decision 009). Every
 * edit is in the audit log with who made it and each field before and after.
 */
export async function editVideo(
  actor: Actor,
  streamVideoId: string,
  input: VideoEditInput,
): Promise<{ video: OwnVideoDto; message: string }> {
  const { member, video: found, asAdmin } = await manageable(actor, streamVideoId, 'edit');
  // An admin's edits of others' videos are moderation, audited: the budget is for a member's own.
  if (!asAdmin) await consume('videoEditsPerMember', member.user.id, tooOften('edited your videos'));
  let purgeAfter = false;
  const db = await getDb();
  const backToReview = await db.transaction(async (tx) => {
    // Locked and read again: a concurrent edit or moderation decision is applied first, then this one over it.
    const [video] = await tx.select().from(videos).where(eq(videos.id, found.id)).for('update');
    if (!video) throw new ApiError(404, VIDEO_NOT_FOUND);
    const next: Pick<Video, EditableField> = {
      title: input.title ?? video.title,
      description: input.description ?? video.description,
      category: input.category ?? video.category,
      tags: input.tags ?? video.tags,
    };
    const changed = EDITABLE_FIELDS.filter((field) => !same(video[field], next[field]));
    if (changed.length === 0) return false;
    const toReview =
      !asAdmin && video.moderationStatus === 'approved' && changed.some((field) => REVIEWED_FIELDS.includes(field));
    await tx
      .update(videos)
      .set({
        ...next,
        ...(toReview ? { moderationStatus: 'pending' as const, moderatedAt: null, moderatedBy: null } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(videos.id, video.id));
    const byOwner = video.ownerId === member.user.id;
    await recordAdminAction(tx, member, {
      action: 'video.edit',
      targetType: 'video',
      targetId: video.streamVideoId,
      summary: `${byOwner ? 'Owner edited' : 'Edited'} “${video.title}”: ${changed.join(', ')}${toReview ? ' (back to review)' : ''}`,
      details: {
        videoId: video.id,
        by: byOwner ? 'owner' : 'admin',
        backToReview: toReview,
        changes: changed.map((field) => ({ field, before: video[field], after: next[field] })),
      },
    });
    purgeAfter = true;
    return toReview;
  });
  if (purgeAfter) purgePublicPages();
  const row = await findVideoRow(found.streamVideoId);
  if (!row) throw new ApiError(404, VIDEO_NOT_FOUND);
  return { video: toOwnVideoDto(row), message: backToReview ? BACK_TO_REVIEW_MESSAGE : SAVED_MESSAGE };
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
