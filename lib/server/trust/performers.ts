import 'server-only';

import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';

import type { PerformerRecordsDto } from '@/lib/api-types';
import { getConfig } from '@/lib/config/server';
import { getDb, queryRows, type Database } from '@/lib/db';
import { consentWithdrawals, privateDocuments, videoPerformers, videos, type Video, type VideoPerformer } from '@/lib/db/schema';
import { ageOn, PERFORMER_MESSAGES, performerLabel } from '@/lib/trust/performers';
import { idDocumentField, parsePerformerRecords, releaseDocumentField } from '@/lib/validation/performers';

import { isAdmin, requireMember, type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict, forbidden } from '../errors';
import { consume, tooOften } from '../rate-limit';
import type { Form } from '../route-handler';
import { VIDEO_NOT_FOUND } from '../videos/access';

import { storePrivateDocument } from './documents';

/**
 * Who appears in each video (decision 015): the uploader declares
 * themselves and/or co-performers with their legal name, stage name, date
 * of birth, ID document and signed release. The approval gate refuses a
 * video until this is complete and everyone was 18+ on the recording day;
 * 18 U.S.C. 2257 keeps the records for RECORDS_RETENTION_YEARS after the
 * video is gone.
 */

export const ONLY_UPLOADER_MESSAGE = 'Only the uploader can declare who appears in their video.';
export const RECORDS_SAVED_MESSAGE = 'The performer records are saved. Your video can now be reviewed.';

/** Where admins open a sealed document (the admin-only, audited route of lib/server/trust). */
export const adminDocumentUrl = (id: string) => `/api/admin/documents/${id}`;

const STREAM_VIDEO_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The video if the caller may read (owner or admin) or write (owner only)
 * its records. A video they cannot see is a 404, like a missing one, so
 * the records route gives away nothing a video page would not.
 */
async function videoFor(actor: Actor, streamVideoId: string, write: boolean): Promise<Video> {
  const member = requireMember(actor);
  const db = await getDb();
  const [video] = STREAM_VIDEO_ID.test(streamVideoId)
    ? await db.select().from(videos).where(eq(videos.streamVideoId, streamVideoId))
    : [];
  if (!video) throw new ApiError(404, VIDEO_NOT_FOUND);
  if (video.ownerId === member.user.id) return video;
  // isAdmin(actor): an admin's power needs a session that passed the second factor (decision 018).
  const admin = isAdmin(actor);
  if (admin && !write) return video;
  const visible = video.processingState === 'ready' && video.moderationStatus === 'approved' && !video.ownerBanned;
  if (!visible && !admin) throw new ApiError(404, VIDEO_NOT_FOUND);
  throw forbidden(admin ? ONLY_UPLOADER_MESSAGE : 'You can only see the performer records of your own videos.');
}

async function hasOpenWithdrawal(db: Database, videoId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: consentWithdrawals.id })
    .from(consentWithdrawals)
    .where(and(eq(consentWithdrawals.videoId, videoId), eq(consentWithdrawals.status, 'open')))
    .limit(1);
  return Boolean(row);
}

/** The records as JSON from the form's `records` field (the documents are its files). */
function recordsOf(form: Form): unknown {
  const raw = form.fields.records;
  if (raw === undefined) throw badRequest('Send the performer records in the form field "records".', { field: 'records' });
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('The performer records could not be read. Please try again.', { field: 'records' });
  }
}

/** A document problem (not a photo or PDF, too large) names the performer it belongs to. */
async function storeFor(db: Database, label: string, input: Parameters<typeof storePrivateDocument>[1]): Promise<string> {
  try {
    return await storePrivateDocument(db, input);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.status, `${label}: ${error.message}`, error.extra);
    throw error;
  }
}

/**
 * Saves the performer records of the caller's video, replacing any earlier
 * ones, with their documents, in one transaction: a bad document or a
 * performer under 18 stores nothing. Refused (409) once the video is public,
 * and while a withdrawal of consent on it is open.
 */
export async function saveVideoPerformers(
  actor: Actor,
  streamVideoId: string,
  form: Form,
): Promise<{ message: string; records: PerformerRecordsDto }> {
  const video = await videoFor(actor, streamVideoId, true);
  const parsed = parsePerformerRecords(recordsOf(form));
  if (!parsed.ok) throw badRequest(parsed.problem.message, { field: parsed.problem.field });
  const records = parsed.value;
  // Every file is there before anything is stored (the transaction would undo it, but the message is clearer first).
  records.coPerformers.forEach((performer, index) => {
    const label = performerLabel(performer, index);
    if (!form.files[idDocumentField(index)])
      throw badRequest(`${label}: attach a photo or PDF of their ID document.`, { field: idDocumentField(index) });
    if (performer.consent === 'signed_pdf' && !form.files[releaseDocumentField(index)]) {
      throw badRequest(`${label}: attach their signed release (a PDF or a photo of it).`, { field: releaseDocumentField(index) });
    }
  });
  // After the form checks (a mistake to correct costs nothing), before the documents are read and sealed.
  await consume('performerRecordsPerMember', video.ownerId, tooOften('saved performer records'));
  const files = await Promise.all(
    records.coPerformers.map(async (performer, index) => ({
      id: new Uint8Array(await form.files[idDocumentField(index)]!.arrayBuffer()),
      release:
        performer.consent === 'signed_pdf' ? new Uint8Array(await form.files[releaseDocumentField(index)]!.arrayBuffer()) : null,
    })),
  );

  const db = await getDb();
  await db.transaction(async (tx) => {
    // Locked and read again: a moderation decision or a withdrawal that lands meanwhile is seen.
    const [current] = await tx.select().from(videos).where(eq(videos.id, video.id)).for('update');
    if (!current) throw new ApiError(404, VIDEO_NOT_FOUND);
    if (current.moderationStatus === 'approved') throw conflict(PERFORMER_MESSAGES.locked);
    if (await hasOpenWithdrawal(tx, video.id)) throw conflict(PERFORMER_MESSAGES.withdrawalOpen);

    // Records replaced before publication were never the basis of anything public: they and their documents go.
    const old = await tx.delete(videoPerformers).where(eq(videoPerformers.videoId, video.id)).returning();
    const oldDocuments = old
      .flatMap((row) => [row.idDocumentId, row.releaseDocumentId])
      .filter((id): id is string => Boolean(id));
    if (oldDocuments.length) await tx.delete(privateDocuments).where(inArray(privateDocuments.id, oldDocuments));

    const base = {
      videoId: video.id,
      streamVideoId: video.streamVideoId,
      ownerId: video.ownerId,
      videoTitle: current.title,
      recordedOn: records.recordedOn,
    };
    let position = 0;
    if (records.uploaderAppears)
      await tx.insert(videoPerformers).values({ ...base, position: position++, isUploader: true, consentType: 'uploader' });
    for (const [index, performer] of records.coPerformers.entries()) {
      const label = performerLabel(performer, index);
      const idDocumentId = await storeFor(tx, label, {
        ownerId: video.ownerId,
        purpose: 'performer_id',
        bytes: files[index]!.id,
        field: idDocumentField(index),
      });
      const releaseDocumentId = files[index]!.release
        ? await storeFor(tx, label, {
            ownerId: video.ownerId,
            purpose: 'performer_release',
            bytes: files[index]!.release!,
            field: releaseDocumentField(index),
          })
        : null;
      await tx.insert(videoPerformers).values({
        ...base,
        position: position++,
        legalName: performer.legalName,
        stageName: performer.stageName,
        dateOfBirth: performer.dateOfBirth,
        idDocumentId,
        consentType: performer.consent,
        releaseSignature: performer.consent === 'release_form' ? performer.release!.signature : null,
        releaseSignedOn: performer.consent === 'release_form' ? performer.release!.signedOn : null,
        releaseStatements: performer.consent === 'release_form' ? [...new Set(performer.release!.statements)] : null,
        releaseDocumentId,
      });
    }
    await tx
      .update(videos)
      .set({ recordedOn: records.recordedOn, performersDeclaredAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(videos.id, video.id));
  });
  return { message: RECORDS_SAVED_MESSAGE, records: (await recordsFor(db, [video.id], false)).get(video.id)! };
}

/** The records of the caller's video (owner) or any video (admin); admins also get the links to the documents. */
export async function getVideoPerformers(actor: Actor, streamVideoId: string): Promise<PerformerRecordsDto> {
  const video = await videoFor(actor, streamVideoId, false);
  return (await recordsFor(await getDb(), [video.id], isAdmin(actor))).get(video.id)!;
}

/**
 * The records of several videos, for the moderation queue and the API.
 * Document links only for admins: the uploader already has their copies and
 * the documents are never served to anyone else.
 */
export async function recordsFor(
  db: Database,
  videoIds: string[],
  withDocuments: boolean,
): Promise<Map<string, PerformerRecordsDto>> {
  const result = new Map<string, PerformerRecordsDto>();
  if (videoIds.length === 0) return result;
  const declared = await db
    .select({
      id: videos.id,
      streamVideoId: videos.streamVideoId,
      recordedOn: videos.recordedOn,
      declaredAt: videos.performersDeclaredAt,
    })
    .from(videos)
    .where(inArray(videos.id, videoIds));
  const rows = await db
    .select()
    .from(videoPerformers)
    .where(and(inArray(videoPerformers.videoId, videoIds), sql`${videoPerformers.deleteAfter} IS NULL`))
    .orderBy(asc(videoPerformers.videoId), asc(videoPerformers.position));
  for (const video of declared) {
    const mine = rows.filter((row) => row.videoId === video.id);
    result.set(video.id, {
      streamVideoId: video.streamVideoId,
      complete: video.declaredAt !== null && mine.length > 0,
      recordedOn: video.recordedOn,
      declaredAt: video.declaredAt ? new Date(video.declaredAt).toISOString() : null,
      uploaderAppears: mine.some((row) => row.isUploader),
      coPerformers: mine.filter((row) => !row.isUploader).map((row) => coPerformerDto(row, withDocuments)),
    });
  }
  return result;
}

function coPerformerDto(row: VideoPerformer, withDocuments: boolean): PerformerRecordsDto['coPerformers'][number] {
  return {
    legalName: row.legalName ?? '',
    stageName: row.stageName ?? '',
    dateOfBirth: row.dateOfBirth ?? '',
    ageAtRecording: row.dateOfBirth ? ageOn(row.dateOfBirth, row.recordedOn) : null,
    consent: row.consentType === 'signed_pdf' ? 'signed_pdf' : 'release_form',
    release:
      row.consentType === 'release_form'
        ? { signature: row.releaseSignature ?? '', signedOn: row.releaseSignedOn ?? '', statements: row.releaseStatements ?? [] }
        : null,
    idDocumentUrl: withDocuments && row.idDocumentId ? adminDocumentUrl(row.idDocumentId) : null,
    releaseDocumentUrl: withDocuments && row.releaseDocumentId ? adminDocumentUrl(row.releaseDocumentId) : null,
  };
}

/**
 * The approval gate's check (lib/server/trust/approval-gate.ts): records
 * declared and complete, everyone 18+ on the recording date, no withdrawal
 * of consent open. Read again from the tables, never from what the form
 * said, so a record changed by hand is checked as it is now.
 */
export async function performerRecordsCheck(db: Database, video: Video): Promise<string | null> {
  if (await hasOpenWithdrawal(db, video.id)) {
    return 'A performer has withdrawn consent for this video. Confirm or dismiss the withdrawal before approving it.';
  }
  // A confirmed withdrawal removes the video for good: no later path (an appeal, a second review) may publish it again.
  const [confirmed] = await db
    .select({ id: consentWithdrawals.id })
    .from(consentWithdrawals)
    .where(and(eq(consentWithdrawals.videoId, video.id), eq(consentWithdrawals.status, 'confirmed')))
    .limit(1);
  if (confirmed) return 'A performer’s withdrawal of consent to this video was confirmed, so it cannot be published again.';
  const rows = await db
    .select()
    .from(videoPerformers)
    .where(and(eq(videoPerformers.videoId, video.id), sql`${videoPerformers.deleteAfter} IS NULL`));
  if (!video.performersDeclaredAt || !video.recordedOn || rows.length === 0) {
    return 'The uploader has not declared who appears in this video yet (performer records are missing), so it cannot be approved.';
  }
  for (const [index, row] of rows.filter((r) => !r.isUploader).entries()) {
    const label = performerLabel(row, index);
    const release =
      row.consentType === 'signed_pdf'
        ? row.releaseDocumentId
        : row.releaseSignature && row.releaseSignedOn && (row.releaseStatements?.length ?? 0) > 0;
    if (!row.legalName || !row.stageName || !row.dateOfBirth || !row.idDocumentId || !release) {
      return `The performer record of ${label} is incomplete (name, date of birth, ID document and signed release are all needed), so the video cannot be approved.`;
    }
    if (ageOn(row.dateOfBirth, video.recordedOn) < 18) {
      return `${label} was under 18 on the recording date (${video.recordedOn}), so the video cannot be approved.`;
    }
  }
  return null;
}

/**
 * Called with the videos about to be deleted (a video, or all of an
 * account's): their performer records and documents stay, with a date
 * after which the sweep may delete them (18 U.S.C. 2257: seven years by
 * default, RECORDS_RETENTION_YEARS). `which` is a condition on `v`, a videos row.
 */
export async function keepPerformerRecords(tx: Database, which: SQL): Promise<void> {
  const years = getConfig().recordsRetentionYears;
  const kept = await queryRows<{ id_document_id: string | null; release_document_id: string | null }>(
    tx,
    sql`UPDATE video_performers SET delete_after = now() + make_interval(years => ${years})
        WHERE delete_after IS NULL AND video_id IN (SELECT v.id FROM videos v WHERE ${which})
        RETURNING id_document_id, release_document_id`,
  );
  const documents = kept
    .flatMap((row) => [row.id_document_id, row.release_document_id])
    .filter((id): id is string => Boolean(id));
  if (documents.length) {
    await tx
      .update(privateDocuments)
      .set({ deleteAfter: sql`now() + make_interval(years => ${years})` })
      .where(inArray(privateDocuments.id, documents));
  }
}
