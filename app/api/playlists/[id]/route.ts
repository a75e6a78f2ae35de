import { handler } from '@/lib/server/route-handler';
import { deletePlaylist, getPlaylist, updatePlaylist } from '@/lib/server/playlists';
import { playlistParamsSchema, playlistPatchSchema } from '@/lib/validation/playlists';

// GET /api/playlists/{id} — the playlist and its public videos in order, for anyone who may see it; 404 for a private one (but to its owner).
export const GET = handler({ params: playlistParamsSchema }, async ({ actor, params }) => getPlaylist(actor, params.id));

// PATCH /api/playlists/{id} — { title?, description?, visibility? }, the owner only (403; 404 when they may not see it).
export const PATCH = handler(
  { auth: 'member', params: playlistParamsSchema, body: playlistPatchSchema },
  async ({ actor, params, body }) => updatePlaylist(actor, params.id, body),
);

// DELETE /api/playlists/{id} — the owner only: { deleted: true }.
export const DELETE = handler({ auth: 'member', params: playlistParamsSchema }, async ({ actor, params }) =>
  deletePlaylist(actor, params.id),
);
