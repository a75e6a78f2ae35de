import { handler } from '@/lib/server/route-handler';
import { reorderPlaylist } from '@/lib/server/playlists';
import { playlistOrderSchema, playlistParamsSchema } from '@/lib/validation/playlists';

// PUT /api/playlists/{id}/order — { streamVideoIds } in the new order (unlisted ones keep their order after them): the playlist as GET answers.
export const PUT = handler(
  { auth: 'member', params: playlistParamsSchema, body: playlistOrderSchema },
  async ({ actor, params, body }) => reorderPlaylist(actor, params.id, body.streamVideoIds),
);
