/** Playlist input, shared by the forms and the API (limits and messages: lib/playlists.ts). */
import {
  PLAYLIST_DESCRIPTION_MAX,
  PLAYLIST_MESSAGES,
  PLAYLIST_TITLE_MAX,
  PLAYLIST_VIDEOS_MAX,
  PLAYLIST_VISIBILITIES,
} from '@/lib/playlists';
import { z } from '@/lib/validation/zod';

import { characterCount, multilineText, text } from './common';

// Cleaned as every text is (no NUL or control characters, lib/validation/common.ts), then counted as people count.
const title = text(PLAYLIST_MESSAGES.titleRequired)
  .trim()
  .min(1, PLAYLIST_MESSAGES.titleRequired)
  .refine((value) => characterCount(value) <= PLAYLIST_TITLE_MAX, PLAYLIST_MESSAGES.titleTooLong);
const description = multilineText()
  .trim()
  .refine((value) => characterCount(value) <= PLAYLIST_DESCRIPTION_MAX, PLAYLIST_MESSAGES.descriptionTooLong);
const visibility = z.enum(PLAYLIST_VISIBILITIES, { error: PLAYLIST_MESSAGES.visibility });

/** POST /api/playlists. */
export const newPlaylistSchema = z.object({
  title,
  description: description.default(''),
  visibility: visibility.default('private'),
});
export type NewPlaylistInput = z.infer<typeof newPlaylistSchema>;

/** PATCH /api/playlists/{id}: any of the three. */
export const playlistPatchSchema = z
  .object({ title: title.optional(), description: description.optional(), visibility: visibility.optional() })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), PLAYLIST_MESSAGES.nothingToChange);
export type PlaylistPatchInput = z.infer<typeof playlistPatchSchema>;

/** PUT /api/playlists/{id}/order: every video id once, first to last (ids the playlist does not hold are ignored). */
export const playlistOrderSchema = z.object({
  streamVideoIds: z
    .array(z.string({ error: PLAYLIST_MESSAGES.orderList }), { error: PLAYLIST_MESSAGES.orderList })
    .max(PLAYLIST_VIDEOS_MAX, PLAYLIST_MESSAGES.orderTooLong)
    .refine((ids) => new Set(ids).size === ids.length, PLAYLIST_MESSAGES.orderRepeats),
});

/** GET /api/playlists?video={streamVideoId}: with it, each playlist says whether it holds that video (the Save dialog). */
export const myPlaylistsQuerySchema = z.object({ video: z.string().optional() });

/** `{id}` of /api/playlists/{id}/…, passed on as it arrived: the service checks it (400). */
export const playlistParamsSchema = z.object({ id: z.string() });
export const playlistVideoParamsSchema = z.object({ id: z.string(), streamVideoId: z.string() });
