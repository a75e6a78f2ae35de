/** The playlists' pure helpers and input schemas (lib/playlists.ts, lib/validation/playlists.ts). */
import { moveItem, nextInQueue, playInListHref, PLAYLIST_MESSAGES } from '@/lib/playlists';
import { newPlaylistSchema, playlistOrderSchema, playlistPatchSchema } from '@/lib/validation/playlists';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('moveItem', () => {
  it('moves an item up or down by one, and keeps it inside the list at either end', () => {
    expect(moveItem(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 7, -1)).toEqual(['a', 'b', 'c']);
  });

  it('never changes the list it was given', () => {
    const list = ['a', 'b'];
    moveItem(list, 0, 1);
    expect(list).toEqual(['a', 'b']);
  });
});

describe('nextInQueue', () => {
  it('is the video after the current one, null at the end, the first when the current one is not in the list', () => {
    expect(nextInQueue(['a', 'b', 'c'], 'a')).toBe('b');
    expect(nextInQueue(['a', 'b', 'c'], 'c')).toBeNull();
    expect(nextInQueue(['a', 'b'], 'gone')).toBe('a');
    expect(nextInQueue([], 'a')).toBeNull();
  });
});

describe('playlist input', () => {
  it('cleans control characters, trims and counts emoji as one character each', () => {
    expect(newPlaylistSchema.parse({ title: '  Mix\u0000\u0007 ' })).toEqual({
      title: 'Mix',
      description: '',
      visibility: 'private',
    });
    expect(newPlaylistSchema.safeParse({ title: '😀'.repeat(100) }).success).toBe(true);
    expect(firstMessage(newPlaylistSchema.safeParse({ title: '😀'.repeat(2000) }))).toBe(PLAYLIST_MESSAGES.titleTooLong);
    expect(firstMessage(newPlaylistSchema.safeParse({ title: '\u0000' }))).toBe(PLAYLIST_MESSAGES.titleRequired);
    expect(firstMessage(newPlaylistSchema.safeParse({ title: 'a', visibility: 'friends' }))).toBe(PLAYLIST_MESSAGES.visibility);
  });

  it('wants something to change, and an order without repeats', () => {
    expect(firstMessage(playlistPatchSchema.safeParse({}))).toBe(PLAYLIST_MESSAGES.nothingToChange);
    expect(playlistPatchSchema.parse({ visibility: 'public' })).toEqual({ visibility: 'public' });
    expect(firstMessage(playlistOrderSchema.safeParse({ streamVideoIds: ['a', 'a'] }))).toBe(PLAYLIST_MESSAGES.orderRepeats);
    expect(firstMessage(playlistOrderSchema.safeParse({ streamVideoIds: Array.from({ length: 1001 }, (_, i) => `v${i}`) }))).toBe(
      PLAYLIST_MESSAGES.orderTooLong,
    );
  });

  it('links a video page to the playlist it plays', () => {
    expect(playInListHref('abc', 'AbCdEf_12-3z')).toBe('/video/abc?list=AbCdEf_12-3z');
  });
});
