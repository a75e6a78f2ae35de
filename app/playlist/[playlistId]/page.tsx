import type { Metadata } from 'next';

import { OwnPrivatePlaylist } from '@/components/playlists/OwnPrivatePlaylist';
import { PlaylistView } from '@/components/playlists/PlaylistView';
import { PlaylistStructuredData } from '@/components/seo/StructuredData';
import { MissingPage, missingPageMetadata } from '@/components/shell/MissingPage';
import { getConfig } from '@/lib/config/server';
import { playlistHref } from '@/lib/playlists';
import { setPageStatus } from '@/lib/server/page-status';
import { loadVisitorPlaylist } from '@/lib/server/playlists/public';
import { absoluteUrl, pageMetadata } from '@/lib/seo/metadata';
import { DEFAULT_KEYWORDS } from '@/lib/site';

type Props = { params: Promise<{ playlistId: string }> };

const summary = (text: string, fallback: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return fallback;
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
};

function describe(playlist: NonNullable<Awaited<ReturnType<typeof loadVisitorPlaylist>>>, siteName: string) {
  const count = playlist.videos.length === 1 ? '1 video' : `${playlist.videos.length} videos`;
  return summary(playlist.description, `${playlist.title}: a playlist of ${count} by ${playlist.owner.username} on ${siteName}.`);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const playlist = await loadVisitorPlaylist((await params).playlistId);
  if (!playlist) return missingPageMetadata();
  const { siteName } = getConfig();
  const base = pageMetadata({
    title: playlist.title,
    description: describe(playlist, siteName),
    path: playlistHref(playlist.id),
    image: playlist.thumbnailUrl
      ? { url: absoluteUrl(playlist.thumbnailUrl), width: 640, height: 360, alt: playlist.title }
      : undefined,
    keywords: ['playlist', ...DEFAULT_KEYWORDS],
    // Unlisted: seen by whoever has the link, never indexed or listed.
    noindex: playlist.visibility !== 'public',
  });
  return base;
}

/**
 * /playlist/{id}: a public or unlisted playlist, server-rendered as a visitor sees it and held in the public page
 * cache (lib/site.ts isPublicPagePath; every change to it purges it). A private one is a 404 here, which its owner's
 * browser replaces with the playlist (not-found.tsx).
 */
export default async function PlaylistPage({ params }: Props) {
  const playlist = await loadVisitorPlaylist((await params).playlistId);
  if (!playlist) {
    setPageStatus(404);
    // No such playlist, or a private one: the 404 for everyone, and the playlist itself for its owner (in the browser).
    return (
      <>
        <OwnPrivatePlaylist />
        <MissingPage />
      </>
    );
  }
  const { siteName } = getConfig();
  const path = playlistHref(playlist.id);
  return (
    <>
      <PlaylistStructuredData
        path={path}
        name={playlist.title}
        description={describe(playlist, siteName)}
        author={playlist.owner.username}
        videos={playlist.videos.map((video) => ({ streamVideoId: video.streamVideoId, title: video.title }))}
      />
      <section className="section playlist-page">
        <PlaylistView initial={playlist} shareUrl={absoluteUrl(path)} />
      </section>
    </>
  );
}
