'use client';

import { lazy, Suspense, useRef, useState } from 'react';

import { useHydrated } from '@/lib/client/use-hydrated';
import type { ReportTargetType } from '@/lib/report-reasons';

// The form (and zod, which checks it as the API does) loads when a Report button is first pressed.
const ReportModal = lazy(() => import('./ReportModal').then((m) => ({ default: m.ReportModal })));

export interface ReportDialogProps {
  /** What is reported: anyone may report a video; comments and profiles need a login. */
  targetType: ReportTargetType;
  /** The video's streamVideoId, the comment's id, or the member's username. */
  target: string;
  /** Visible button text ("Report"). */
  label?: string;
  /** The button's accessible name when the visible text alone is ambiguous, e.g. "Report comment by alex". */
  buttonAriaLabel?: string;
  /** What the dialog title calls the target: "this video", "this comment", "alex's profile". */
  subject?: string;
  className?: string;
  /** Replaces the button's own classes, e.g. to sit among a comment's quiet actions. */
  buttonClassName?: string;
}

const DEFAULT_SUBJECT: Record<ReportTargetType, string> = {
  video: 'this video',
  comment: 'this comment',
  profile: 'this profile',
};

/**
 * A "Report" button and its modal dialog. Reusable for videos, comments and
 * profiles. The dialog is mounted only while open (a page of comments does
 * not carry a form per comment), is a native modal <dialog> (the page behind
 * is inert, Escape closes it), keeps Tab inside itself, and gives focus back
 * to the button when it closes.
 */
export function ReportDialog({
  targetType,
  target,
  label = 'Report',
  buttonAriaLabel,
  subject,
  className,
  buttonClassName,
}: ReportDialogProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  // Each opening is a new modal: reopened right after Escape (before React re-rendered), the old one's <dialog> is already closed.
  const [opening, setOpening] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className={buttonClassName ?? `btn btn-ghost btn-small report-button${className ? ` ${className}` : ''}`}
        aria-haspopup="dialog"
        aria-label={buttonAriaLabel}
        // Server HTML until the page hydrates: a click then would be lost, so the button waits, disabled (issue 37).
        disabled={!hydrated}
        aria-busy={!hydrated || undefined}
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        <FlagIcon />
        {label}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportModal
            key={opening}
            targetType={targetType}
            target={target}
            subject={subject ?? DEFAULT_SUBJECT[targetType]}
            onClose={close}
          />
        </Suspense>
      )}
    </>
  );
}

function FlagIcon() {
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
      <path d="M5 21V4" />
      <path d="M5 4h11l-2 4 2 4H5" />
    </svg>
  );
}
