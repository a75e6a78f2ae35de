import 'server-only';

import { sql } from 'drizzle-orm';

import type { CaptionTrackDto, ManagedCaptionDto } from '@/lib/api-types';
import { getDb, queryRows, type Database } from '@/lib/db';
import { purgePublicPages } from '@/lib/events';
import { CAPTION_LANGUAGES_MAX, canonicalLanguage, captionUrl, languageLabel } from '@/lib/media/captions';

import { recordAdminAction } from '../admin/audit';
import { type Actor } from '../auth/actor';
import { ApiError, badRequest, conflict } from '../errors';
import { consume, tooOften } from '../rate-limit';

import { CaptionFileError, captionsToVtt } from './caption-files';
import { isPublicRow } from './catalog';
import { iso } from './dto';
import { manageable } from './manage';

/**
 * A video's captions (decision 051): one WebVTT per language, added, replaced and removed by the video's owner or an
 * admin, on the video's edit form. Captions go live at once, also on an approved video: what is served is our own
 * WebVTT, plain text with no markup (./caption-files.ts), shown only to viewers who turn it on; every change is in
 * the audit log, and admins see and can remove the captions wherever they review the video.
 */

export const INVALID_LANGUAGE_MESSAGE = 'Choose a language: a language tag such as en, es or pt-BR.';
export const CAPTIONS_FULL_MESSAGE = `A video can have captions in at most ${CAPTION_LANGUAGES_MAX} languages. Remove one to add another.`;
export const CAPTION_NOT_FOUND_MESSAGE = 'This video has no captions in that language.';
export const CAPTION_FILE_REQUIRED_MESSAGE = 'Choose a WebVTT (.vtt) or SubRip (.srt) file.';

interface CaptionRow {
  language: string;
  label: string;
  cue_count: number;
  version: string;
  updated_at: Date | string;
}

function languageOf(tag: string): string {
  const language = canonicalLanguage(tag);
  if (!language) throw badRequest(INVALID_LANGUAGE_MESSAGE, { field: 'language' });
  return language;
}

async function captionRows(db: Database, videoId: string): Promise<CaptionRow[]> {
  return queryRows<CaptionRow>(
    db,
    sql`SELECT language, label, cue_count, version, updated_at FROM video_captions WHERE video_id = ${videoId}
        ORDER BY label, language`,
  );
}

const managed = (streamVideoId: string, row: CaptionRow): ManagedCaptionDto => ({
  language: row.language,
  label: row.label,
  url: captionUrl(streamVideoId, row.language, row.version),
  cueCount: row.cue_count,
  updatedAt: iso(row.updated_at),
});

/** The captions of a video its caller manages (owner or admin), for the edit form. */
export async function listCaptions(actor: Actor, streamVideoId: string): Promise<{ captions: ManagedCaptionDto[] }> {
  const { video } = await manageable(actor, streamVideoId, 'edit');
  const rows = await captionRows(await getDb(), video.id);
  return { captions: rows.map((row) => managed(video.streamVideoId, row)) };
}

/** The tracks a video's player offers, by their names; the page reads them with the video. */
export async function captionTracks(videoId: string, streamVideoId: string): Promise<CaptionTrackDto[]> {
  const tracks = await captionTracksFor(await getDb(), [{ id: videoId, stream_video_id: streamVideoId }]);
  return tracks.get(videoId) ?? [];
}

/** The tracks of several videos at once (the moderation queue), by video id. */
export async function captionTracksFor(
  db: Database,
  list: { id: string; stream_video_id: string }[],
): Promise<Map<string, CaptionTrackDto[]>> {
  const tracks = new Map<string, CaptionTrackDto[]>();
  if (list.length === 0) return tracks;
  const streamIds = new Map(list.map((video) => [video.id, video.stream_video_id]));
  const rows = await queryRows<CaptionRow & { video_id: string }>(
    db,
    sql`SELECT video_id, language, label, cue_count, version, updated_at FROM video_captions
        WHERE video_id IN (${sql.join(
          list.map((video) => sql`${video.id}::uuid`),
          sql`, `,
        )})
        ORDER BY label, language`,
  );
  for (const row of rows) {
    const streamVideoId = streamIds.get(row.video_id)!;
    const track = { language: row.language, label: row.label, url: captionUrl(streamVideoId, row.language, row.version) };
    tracks.set(row.video_id, [...(tracks.get(row.video_id) ?? []), track]);
  }
  return tracks;
}

/** The WebVTT of one language under its version, or null (another version is a 404, never the current text). */
export async function captionVtt(videoId: string, language: string, version: string): Promise<string | null> {
  const [row] = await queryRows<{ vtt: string }>(
    await getDb(),
    sql`SELECT vtt FROM video_captions WHERE video_id = ${videoId} AND language = ${language} AND version = ${version}`,
  );
  return row?.vtt ?? null;
}

/**
 * Adds or replaces a video's captions in one language from an uploaded WebVTT or SubRip file. One statement inserts
 * only while the video has fewer than CAPTION_LANGUAGES_MAX languages, so parallel uploads cannot push it far past.
 */
export async function saveCaptions(
  actor: Actor,
  streamVideoId: string,
  languageTag: string,
  file: File | undefined,
): Promise<{ captions: ManagedCaptionDto[]; message: string }> {
  const language = languageOf(languageTag);
  const { member, video, asAdmin } = await manageable(actor, streamVideoId, 'edit');
  if (!file) throw badRequest(CAPTION_FILE_REQUIRED_MESSAGE, { field: 'file' });
  if (!asAdmin) await consume('videoEditsPerMember', member.user.id, tooOften('edited your videos'));
  let parsed;
  try {
    parsed = await captionsToVtt(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    if (error instanceof CaptionFileError) throw badRequest(error.message, { field: 'file' });
    throw error;
  }
  const label = languageLabel(language);
  const db = await getDb();
  const replaced = await db.transaction(async (tx) => {
    const [row] = await queryRows<{ replaced: boolean | null }>(
      tx,
      sql`WITH existing AS (SELECT 1 FROM video_captions WHERE video_id = ${video.id} AND language = ${language}),
          saved AS (
            INSERT INTO video_captions (video_id, language, label, vtt, cue_count, version)
            SELECT ${video.id}, ${language}, ${label}, ${parsed.vtt}, ${parsed.cueCount}, ${parsed.version}
            WHERE EXISTS (SELECT 1 FROM existing)
               OR (SELECT count(*) FROM video_captions WHERE video_id = ${video.id}) < ${CAPTION_LANGUAGES_MAX}
            ON CONFLICT (video_id, language) DO UPDATE
              SET label = EXCLUDED.label, vtt = EXCLUDED.vtt, cue_count = EXCLUDED.cue_count,
                  version = EXCLUDED.version, updated_at = now()
            RETURNING 1
          )
          SELECT CASE WHEN EXISTS (SELECT 1 FROM saved) THEN EXISTS (SELECT 1 FROM existing) END AS replaced`,
    );
    if (typeof row?.replaced !== 'boolean') throw conflict(CAPTIONS_FULL_MESSAGE);
    await audit(tx, member, video, `${row.replaced ? 'replaced' : 'added'} ${label} captions (${parsed.cueCount} cues)`, {
      language,
      change: row.replaced ? 'replaced' : 'added',
      cueCount: parsed.cueCount,
    });
    return row.replaced;
  });
  afterChange(video);
  const captions = (await captionRows(db, video.id)).map((row) => managed(video.streamVideoId, row));
  const count = `${parsed.cueCount.toLocaleString('en-US')} ${parsed.cueCount === 1 ? 'caption' : 'captions'}`;
  return { captions, message: `${label} captions ${replaced ? 'replaced' : 'added'}: ${count}.` };
}

/** Removes a video's captions in one language (a 404 for a language it has none in). */
export async function removeCaptions(
  actor: Actor,
  streamVideoId: string,
  languageTag: string,
): Promise<{ captions: ManagedCaptionDto[]; message: string }> {
  const language = languageOf(languageTag);
  const { member, video, asAdmin } = await manageable(actor, streamVideoId, 'edit');
  if (!asAdmin) await consume('videoEditsPerMember', member.user.id, tooOften('edited your videos'));
  const db = await getDb();
  const label = await db.transaction(async (tx) => {
    const [gone] = await queryRows<{ label: string }>(
      tx,
      sql`DELETE FROM video_captions WHERE video_id = ${video.id} AND language = ${language} RETURNING label`,
    );
    if (!gone) throw new ApiError(404, CAPTION_NOT_FOUND_MESSAGE);
    await audit(tx, member, video, `removed ${gone.label} captions`, { language, change: 'removed' });
    return gone.label;
  });
  afterChange(video);
  const captions = (await captionRows(db, video.id)).map((row) => managed(video.streamVideoId, row));
  return { captions, message: `${label} captions removed.` };
}

type ManagedVideo = Awaited<ReturnType<typeof manageable>>['video'];

function audit(
  tx: Database,
  member: Awaited<ReturnType<typeof manageable>>['member'],
  video: ManagedVideo,
  what: string,
  details: Record<string, unknown>,
) {
  const byOwner = video.ownerId === member.user.id;
  return recordAdminAction(tx, member, {
    action: 'video.edit',
    targetType: 'video',
    targetId: video.streamVideoId,
    summary: `${byOwner ? 'Owner' : 'Admin'} ${what} on “${video.title}”`,
    details: { videoId: video.id, by: byOwner ? 'owner' : 'admin', captions: details },
  });
}

/** A public video's cached pages name its tracks: they are drawn again. */
function afterChange(video: ManagedVideo) {
  if (
    isPublicRow({
      processing_state: video.processingState,
      moderation_status: video.moderationStatus,
      owner_banned: video.ownerBanned,
    })
  )
    purgePublicPages();
}
