import { handler } from '@/lib/server/route-handler';
import { addToPlaylist, removeFromPlaylist } from '@/lib/server/playlists';
import { playlistVideoParamsSchema } from '@/lib/validation/playlists';

// PUT /api/playlists/{id}/videos/{streamVideoId} — add a public video at the end (idempotent): { inPlaylist: true, videoCount }; 404 unless public, 409 full.
export const PUT = handler({ auth: 'member', params: playlistVideoParamsSchema }, async ({ actor, params }) =>
  addToPlaylist(actor, params.id, params.streamVideoId),
);

// DELETE /api/playlists/{id}/videos/{streamVideoId} — remove it (idempotent): { inPlaylist: false, videoCount }.
export const DELETE = handler({ auth: 'member', params: playlistVideoParamsSchema }, async ({ actor, params }) =>
  removeFromPlaylist(actor, params.id, params.streamVideoId),
);
