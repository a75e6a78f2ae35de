'use client';

import { useEffect, useId, useRef, useState } from 'react';

interface Props {
  url: string;
  /** Without it (a playlist), the dialog offers the link alone. */
  embedCode?: string;
  title: string;
  /** The dialog's heading. */
  heading?: string;
  onClose(): void;
}

type Copied = 'link' | 'embed';
const COPIED: Record<Copied, string> = { link: 'Link copied', embed: 'Embed code copied' };
const SELECTED: Record<Copied, string> = {
  link: 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
  embed: 'The embed code is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
};

/**
 * The Share dialog: the page's link and the embed code, each with a copy
 * button (the Clipboard API; where it is refused, the text is selected in its
 * field for the keyboard), and the system share sheet where the browser has
 * one. A native modal <dialog>: the page behind is inert, Escape closes it,
 * and the Share button gets focus back.
 */
export default function ShareDialog({ url, embedCode, title, heading = 'Share this video', onClose }: Props) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const copyLink = useRef<HTMLButtonElement>(null);
  const linkField = useRef<HTMLInputElement>(null);
  const embedField = useRef<HTMLTextAreaElement>(null);
  const [status, setStatus] = useState('');
  const [canShare, setCanShare] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    copyLink.current?.focus();
    setCanShare(typeof navigator.share === 'function');
    return () => {
      if (element.open) element.close();
    };
  }, []);

  async function copy(what: Copied) {
    const text = what === 'link' ? url : (embedCode ?? '');
    try {
      await navigator.clipboard.writeText(text);
      setStatus(COPIED[what]);
    } catch {
      // No clipboard (an http page, a refused permission): select the text so Ctrl+C copies it.
      const field = what === 'link' ? linkField.current : embedField.current;
      field?.focus();
      field?.select();
      setStatus(SELECTED[what]);
    }
  }

  async function shareSheet() {
    try {
      await navigator.share({ title, url });
    } catch {
      // Cancelled, or the sheet failed: nothing to say, the other ways are right here.
    }
  }

  const titleId = `${id}-title`;
  return (
    <dialog ref={dialog} className="modal share-dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-head">
        <h2 id={titleId}>{heading}</h2>
        <button type="button" className="btn btn-quiet btn-small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>

      <div className="field share-field">
        <label htmlFor={`${id}-link`}>Link</label>
        <div className="share-row">
          <input
            ref={linkField}
            id={`${id}-link`}
            type="url"
            readOnly
            value={url}
            onFocus={(event) => event.currentTarget.select()}
          />
          <button ref={copyLink} type="button" className="btn btn-primary" onClick={() => void copy('link')}>
            Copy link
          </button>
        </div>
      </div>

      {embedCode !== undefined && (
        <div className="field share-field">
          <label htmlFor={`${id}-embed`}>
            Embed code <span className="muted">(640 × 360)</span>
          </label>
          <textarea
            ref={embedField}
            id={`${id}-embed`}
            className="share-embed"
            readOnly
            rows={4}
            value={embedCode}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="share-row share-row-end">
            <button type="button" className="btn btn-ghost" onClick={() => void copy('embed')}>
              Copy embed code
            </button>
          </div>
        </div>
      )}

      <p className="share-status" role="status" aria-live="polite">
        {status}
      </p>

      {canShare && (
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={() => void shareSheet()}>
            More ways to share…
          </button>
        </div>
      )}
    </dialog>
  );
}
