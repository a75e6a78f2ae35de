'use client';

import { lazy, Suspense, useRef, useState } from 'react';

import { PlaylistAddIcon } from '@/components/icons';

// The dialog (the member's playlists, the new-playlist form, zod) loads on intent: a pointer over the button, its focus, or the press.
const loadDialog = () => import('./SaveToPlaylistDialog');
const SaveToPlaylistDialog = lazy(loadDialog);

export interface SaveToPlaylistButtonProps {
  streamVideoId: string;
  title: string;
  /** Cards show it over the thumbnail beside the clock, icon only; the video page as a labelled button. */
  compact?: boolean;
}

/**
 * "Save to playlist", for members (MemberWatchLaterButton renders it beside the clock, so visitors never load it):
 * opens a dialog to tick the playlists that hold the video or make a new one.
 */
export function SaveToPlaylistButton({ streamVideoId, title, compact = false }: SaveToPlaylistButtonProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const label = `Save “${title}” to a playlist`;
  // On cards the round button sits under the clock, styled as the clock is (.watch-later-compact).
  return (
    <span className={compact ? 'watch-later watch-later-compact save-playlist-slot' : 'watch-later'}>
      <button
        ref={button}
        type="button"
        className={
          compact ? 'watch-later-button save-playlist-button save-playlist-compact' : 'watch-later-button save-playlist-button'
        }
        aria-haspopup="dialog"
        aria-label={compact ? label : undefined}
        title={compact ? 'Save to playlist' : undefined}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => setOpen(true)}
      >
        <PlaylistAddIcon />
        {!compact && <span>Save</span>}
      </button>
      {open && (
        <Suspense fallback={null}>
          <SaveToPlaylistDialog
            streamVideoId={streamVideoId}
            title={title}
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </span>
  );
}
