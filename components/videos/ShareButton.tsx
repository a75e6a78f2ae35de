'use client';

import { lazy, Suspense, useRef, useState } from 'react';

import { useHydrated } from '@/lib/client/use-hydrated';

// The dialog (clipboard, share sheet) is loaded on the first click: the page's first load carries only this button.
const ShareDialog = lazy(() => import('./ShareDialog'));

export interface ShareButtonProps {
  /** The video page's absolute address. */
  url: string;
  /** The <iframe> snippet for /embed/{streamVideoId} (lib/embed.ts); none for a playlist. */
  embedCode?: string;
  title: string;
  /** The dialog's heading ("Share this video" unless told). */
  heading?: string;
}

/** The video page's Share button: a small island; the dialog comes when asked for. */
export function ShareButton({ url, embedCode, title, heading }: ShareButtonProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-small share-button"
        aria-haspopup="dialog"
        // Server HTML until the page hydrates: a click then would be lost, so the button waits, disabled (issue 37).
        disabled={!hydrated}
        aria-busy={!hydrated || undefined}
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        <ShareIcon />
        Share
      </button>
      {open && (
        <Suspense fallback={null}>
          <ShareDialog
            key={opening}
            url={url}
            embedCode={embedCode}
            title={title}
            heading={heading}
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      )}
    </>
  );
}

function ShareIcon() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      focusable={false}
    >
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}
