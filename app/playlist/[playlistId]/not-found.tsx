import type { Metadata } from 'next';

import NotFound from '@/app/not-found';
import { OwnPrivatePlaylist } from '@/components/playlists/OwnPrivatePlaylist';
import { fullTitle } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return { title: { absolute: fullTitle('Page not found') }, robots: { index: false, follow: true } };
}

/** No such playlist, or a private one: the 404 for everyone, and the playlist itself for its owner (in the browser). */
export default function PlaylistNotFound() {
  return (
    <>
      <OwnPrivatePlaylist />
      <NotFound />
    </>
  );
}
