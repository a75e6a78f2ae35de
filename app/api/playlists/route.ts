import { handler } from '@/lib/server/route-handler';
import { createPlaylist, listMyPlaylists } from '@/lib/server/playlists';
import { myPlaylistsQuerySchema, newPlaylistSchema } from '@/lib/validation/playlists';

// GET /api/playlists[?video={streamVideoId}] — the caller's playlists, last changed first: { playlists }; with `video`, each has `hasVideo`.
export const GET = handler({ auth: 'member', query: myPlaylistsQuerySchema }, async ({ actor, query }) =>
  listMyPlaylists(actor, query.video),
);

// POST /api/playlists — { title, description?, visibility? } → 201 the new playlist; 400 bad text, 401, 409 at the limit.
export const POST = handler({ auth: 'member', body: newPlaylistSchema, status: 201 }, async ({ actor, body }) =>
  createPlaylist(actor, body),
);
