/**
 * Playlists (issue 35, part 6): the limits, messages and small pure helpers
 * that the API, the pages and the video page's queue share. Free of zod, so
 * the queue beside the player carries none of the schemas' weight.
 */

export const PLAYLIST_VISIBILITIES = ['private', 'unlisted', 'public'] as const;
export type PlaylistVisibility = (typeof PLAYLIST_VISIBILITIES)[number];

export const VISIBILITY_LABELS: Record<PlaylistVisibility, string> = {
  private: 'Private',
  unlisted: 'Unlisted',
  public: 'Public',
};

export const VISIBILITY_HINTS: Record<PlaylistVisibility, string> = {
  private: 'Only you can see it.',
  unlisted: 'Anyone with the link can see it; it is not listed or indexed.',
  public: 'Anyone can find and see it.',
};

/** A member has at most this many playlists. */
export const PLAYLISTS_MAX = 200;
/** A playlist holds at most this many videos. */
export const PLAYLIST_VIDEOS_MAX = 1000;
export const PLAYLIST_TITLE_MAX = 100;
export const PLAYLIST_DESCRIPTION_MAX = 1000;

/** The id in a playlist's URL: 12 URL-safe characters (72 random bits). */
export const PLAYLIST_ID_PATTERN = /^[A-Za-z0-9_-]{12}$/;

export const PLAYLIST_MESSAGES = {
  titleRequired: 'Give the playlist a title.',
  titleTooLong: `A playlist title can be at most ${PLAYLIST_TITLE_MAX} characters.`,
  descriptionTooLong: `A playlist description can be at most ${PLAYLIST_DESCRIPTION_MAX.toLocaleString('en-US')} characters.`,
  visibility: 'Visibility must be private, unlisted or public.',
  nothingToChange: 'Send a title, a description or a visibility to change.',
  notFound: 'Playlist not found',
  badId: 'The playlist id is not valid.',
  notOwner: 'Only the playlist’s owner can change it.',
  tooMany: `You have ${PLAYLISTS_MAX} playlists, the most a member can have. Delete one to make another.`,
  full: `This playlist is full (${PLAYLIST_VIDEOS_MAX.toLocaleString('en-US')} videos). Remove a video to add another.`,
  orderList: 'Send the playlist’s video ids in their new order.',
  orderTooLong: `A playlist holds at most ${PLAYLIST_VIDEOS_MAX.toLocaleString('en-US')} videos.`,
  orderRepeats: 'Each video can appear only once in the new order.',
} as const;

/** Where a playlist's page is. */
export const playlistHref = (playlistId: string) => `/playlist/${playlistId}`;

/** A video page playing a playlist: the queue beside the player follows `list`. */
export const playInListHref = (streamVideoId: string, playlistId: string) =>
  `/video/${streamVideoId}?list=${encodeURIComponent(playlistId)}`;

/** The list with the item at `index` moved by `delta` places (kept inside the list); the same list when it cannot move. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const to = Math.min(items.length - 1, Math.max(0, index + delta));
  if (index < 0 || index >= items.length || to === index) return [...items];
  const next = [...items];
  const [moved] = next.splice(index, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** The video after `current` in a playlist's order, or null at its end (or when `current` is not in it: the first then). */
export function nextInQueue(streamVideoIds: readonly string[], current: string): string | null {
  const at = streamVideoIds.indexOf(current);
  if (at < 0) return streamVideoIds[0] ?? null;
  return streamVideoIds[at + 1] ?? null;
}
