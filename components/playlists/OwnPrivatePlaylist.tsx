'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';

import { useSession } from '@/components/session/SessionProvider';
import type { PlaylistDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { PLAYLIST_ID_PATTERN, playlistHref } from '@/lib/playlists';

import { PlaylistView } from './PlaylistView';

/**
 * A private playlist is a 404 to the cached page (rendered as a visitor sees it); its owner's browser asks the API
 * with their session and shows it in place of the 404 (which a CSS rule hides beside `.own-playlist`), as
 * OwnerPreview does for a video that is not public yet.
 */
export function OwnPrivatePlaylist() {
  const pathname = usePathname();
  const { user } = useSession();
  const id = /^\/playlist\/([^/]+)$/.exec(pathname)?.[1];
  const [playlist, setPlaylist] = useState<PlaylistDto | null>(null);
  useEffect(() => {
    if (!user || !id || !PLAYLIST_ID_PATTERN.test(id)) return;
    let live = true;
    apiRequest<PlaylistDto>(`/api/playlists/${id}`).then(
      (answer) => live && setPlaylist(answer),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [user, id]);
  if (!playlist) return null;
  return (
    <section className="own-playlist section">
      <PlaylistView initial={playlist} shareUrl={`${location.origin}${playlistHref(playlist.id)}`} />
    </section>
  );
}
