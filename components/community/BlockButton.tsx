'use client';

import { useEffect, useId, useRef, useState } from 'react';
import useSWR from 'swr';

import { serverMessage } from '@/components/account/form-parts';
import { useSession } from '@/components/session/SessionProvider';
import type { BlockDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';

export const MY_BLOCKS_KEY = '/api/users/me/blocks';
/** SWR key of a member's block list (per member, so another login never sees it); `mutate(myBlocksKey(id))` after blocking elsewhere. */
export const myBlocksKey = (memberId: string) => [MY_BLOCKS_KEY, memberId] as const;

export interface BlockButtonProps {
  /** The member to block or unblock. */
  username: string;
  /** Called after a block or unblock went through. */
  onChange?: (blocked: boolean) => void;
  className?: string;
}

/**
 * Block / Unblock for a member's profile, with a confirmation dialog that
 * says what blocking does. Renders nothing for visitors, while the session
 * is loading, and on the member's own profile. Whether the member is
 * already blocked comes from GET /api/users/me/blocks (shared through SWR).
 */
export function BlockButton({ username, onChange, className }: BlockButtonProps) {
  const { user, loading } = useSession();
  const isSelf = Boolean(user && user.username.toLowerCase() === username.toLowerCase());
  const { data, error, mutate } = useSWR(user && !isSelf ? myBlocksKey(user._id) : null, () =>
    apiRequest<{ blocks: BlockDto[] }>(MY_BLOCKS_KEY),
  );
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  if (loading || !user || isSelf) return null;
  const blocked = data?.blocks.some((block) => block.username.toLowerCase() === username.toLowerCase()) ?? false;

  async function apply(): Promise<void> {
    const next = !blocked;
    await apiRequest(`/api/users/${encodeURIComponent(username)}/block`, { method: next ? 'POST' : 'DELETE' });
    await mutate();
    setStatus(next ? `You blocked ${username}.` : `You unblocked ${username}.`);
    onChange?.(next);
  }

  return (
    <span className={`block-control${className ? ` ${className}` : ''}`}>
      <button
        ref={button}
        type="button"
        className={`btn btn-small ${blocked ? 'btn-quiet' : 'btn-ghost'} block-button`}
        aria-haspopup="dialog"
        disabled={!data && !error}
        onClick={() => {
          setStatus(null);
          setConfirming(true);
        }}
      >
        {blocked ? 'Unblock' : 'Block'}
      </button>
      <span role="status" className="visually-hidden">
        {status}
      </span>
      {confirming && (
        <ConfirmBlock
          username={username}
          blocking={!blocked}
          onConfirm={apply}
          onClose={() => {
            setConfirming(false);
            button.current?.focus();
          }}
        />
      )}
    </span>
  );
}

function ConfirmBlock({
  username,
  blocking,
  onConfirm,
  onClose,
}: {
  username: string;
  blocking: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    // Cancel first: the safe choice has the focus.
    cancel.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  async function confirm() {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (error) {
      setFailure(serverMessage(error, blocking ? 'Could not block. Please try again.' : 'Could not unblock. Please try again.'));
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      className="modal block-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>{blocking ? `Block ${username}?` : `Unblock ${username}?`}</h2>
      {blocking ? (
        <ul id={`${id}-what`} className="block-effects">
          <li>They stop following you and cannot follow you again.</li>
          <li>They cannot comment on your videos, and you no longer see their comments.</li>
          <li>They are not told that you blocked them. You can unblock them at any time.</li>
        </ul>
      ) : (
        <p id={`${id}-what`}>
          They will be able to follow you and comment on your videos again. If they followed you before, that follow is not
          restored.
        </p>
      )}
      <p role="alert" className="form-error">
        {failure}
      </p>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={confirm}>
          {busy ? 'Saving…' : blocking ? 'Block' : 'Unblock'}
        </button>
        <button ref={cancel} type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
