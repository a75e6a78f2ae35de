'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import { useSession } from '@/components/session/SessionProvider';
import type { OwnVideoDto, PendingTextEditDto } from '@/lib/api-types';
import { apiRequest, ApiClientError } from '@/lib/client/api-client';
import { CATEGORIES } from '@/lib/site';
import { videoFormSchema, type VideoFormInput, type VideoFormValues } from '@/lib/validation/video-form';
import { DESCRIPTION_MAX, splitTags, TAGS_MAX, TITLE_MAX } from '@/lib/validation/videos';

import { CaptionsEditor } from './CaptionsEditor';
import './video-manage.css';

/** What the edit form starts from. */
export interface ManagedVideo {
  streamVideoId: string;
  ownerId: string;
  title: string;
  description: string;
  category: string;
  tags: string[];
  /** The owner's new text waiting for review (the form goes on from it); unknown (undefined) on the public page. */
  pendingEdit?: PendingTextEditDto | null;
}

/** What PATCH /api/videos/{id} answers. */
export interface EditAnswer {
  message: string;
  video: OwnVideoDto;
}

const FIELDS = ['title', 'description', 'category', 'tags'] as const;
type FieldName = (typeof FIELDS)[number];

/**
 * Edit and Delete for a video, shown only to its owner and to admins (the
 * page around it is the same cached HTML for everyone; the session decides
 * here, the server decides again). `onSaved` and `onDeleted` let the place
 * refresh itself: the video page re-renders, "Your videos" reloads its list.
 */
export function VideoManage({
  video,
  onSaved,
  onDeleted,
}: {
  video: ManagedVideo;
  onSaved(answer: EditAnswer): void;
  onDeleted(): void;
}) {
  const { user } = useSession();
  const [open, setOpen] = useState<'edit' | 'delete' | null>(null);
  if (!user || (user._id !== video.ownerId && !user.isAdmin)) return null;
  return (
    <div className="video-manage">
      <button type="button" className="btn btn-ghost btn-small" onClick={() => setOpen('edit')} aria-haspopup="dialog">
        Edit
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-small video-manage-delete"
        onClick={() => setOpen('delete')}
        aria-haspopup="dialog"
      >
        Delete
      </button>
      {open === 'edit' && (
        <EditVideoDialog
          video={video}
          // An owner's form goes on from their waiting text; an admin edits the live text (the server does the same).
          waiting={user._id === video.ownerId && !user.isAdmin ? (video.pendingEdit ?? null) : null}
          onClose={() => setOpen(null)}
          onSaved={(answer) => {
            setOpen(null);
            onSaved(answer);
          }}
        />
      )}
      {open === 'delete' && <DeleteVideoDialog video={video} onClose={() => setOpen(null)} onDeleted={onDeleted} />}
    </div>
  );
}

/** Opens a native modal dialog on mount: focus is trapped, Escape closes it, focus returns to the button that opened it. */
function useShowModal(dialog: RefObject<HTMLDialogElement | null>) {
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    // showModal() focuses the first control; a dialog may name a safer one (Cancel, for a deletion).
    element?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => element?.close();
  }, [dialog]);
}

function EditVideoDialog({
  video,
  waiting,
  onClose,
  onSaved,
}: {
  video: ManagedVideo;
  waiting: PendingTextEditDto | null;
  onClose(): void;
  onSaved(answer: EditAnswer): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useShowModal(dialog);
  const id = useId();
  const [status, setStatus] = useState<Status>(null);
  const { register, handleSubmit, setError, formState, control } = useForm<VideoFormInput, unknown, VideoFormValues>({
    resolver: zodResolver(videoFormSchema),
    defaultValues: {
      title: waiting?.title ?? video.title,
      description: waiting?.description ?? video.description,
      category: video.category,
      tags: (waiting?.tags ?? video.tags).join(', '),
    },
  });
  const title = useWatch({ control, name: 'title' }) ?? '';
  const description = useWatch({ control, name: 'description' }) ?? '';
  const onSubmit = handleSubmit(async (values) => {
    setStatus(null);
    try {
      const answer = await apiRequest<EditAnswer>(`/api/videos/${encodeURIComponent(video.streamVideoId)}`, {
        method: 'PATCH',
        json: { ...values, tags: splitTags(values.tags) },
      });
      onSaved(answer);
    } catch (error) {
      const field = error instanceof ApiClientError ? error.data.field : undefined;
      if (FIELDS.includes(field as FieldName))
        setError(field as FieldName, { type: 'server', message: (error as Error).message }, { shouldFocus: true });
      else setStatus({ ok: false, text: serverMessage(error, 'Failed to save the video.') });
    }
  });
  const e = formState.errors;
  const fieldId = (name: FieldName) => `${id}-field-${name}`;
  return (
    <dialog ref={dialog} className="modal video-manage-dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <div className="modal-head">
        <h2 id={`${id}-title`}>Edit video</h2>
        <button type="button" className="btn btn-quiet" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <form onSubmit={onSubmit} noValidate className="video-manage-form">
        <div className="field">
          <div className="upload-label-row">
            <label htmlFor={fieldId('title')}>Title</label>
            <span className={`upload-count${title.length > TITLE_MAX ? ' is-over' : ''}`} id={`${fieldId('title')}-count`}>
              {title.length}/{TITLE_MAX}
            </span>
          </div>
          <input
            id={fieldId('title')}
            aria-invalid={Boolean(e.title)}
            aria-describedby={`${fieldId('title')}-count ${fieldId('title')}-error`}
            {...register('title')}
          />
          <p id={`${fieldId('title')}-error`} className="field-error">
            {e.title?.message}
          </p>
        </div>
        <div className="field">
          <div className="upload-label-row">
            <label htmlFor={fieldId('description')}>
              Description <span className="upload-optional">(optional)</span>
            </label>
            <span
              className={`upload-count${description.length > DESCRIPTION_MAX ? ' is-over' : ''}`}
              id={`${fieldId('description')}-count`}
            >
              {description.length}/{DESCRIPTION_MAX}
            </span>
          </div>
          <textarea
            id={fieldId('description')}
            rows={4}
            className="upload-textarea"
            aria-invalid={Boolean(e.description)}
            aria-describedby={`${fieldId('description')}-count ${fieldId('description')}-error`}
            {...register('description')}
          />
          <p id={`${fieldId('description')}-error`} className="field-error">
            {e.description?.message}
          </p>
        </div>
        <div className="field">
          <label htmlFor={fieldId('category')}>Category</label>
          <select
            id={fieldId('category')}
            className="upload-select"
            aria-invalid={Boolean(e.category)}
            aria-describedby={`${fieldId('category')}-error`}
            {...register('category')}
          >
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
          <p id={`${fieldId('category')}-error`} className="field-error">
            {e.category?.message}
          </p>
        </div>
        <div className="field">
          <label htmlFor={fieldId('tags')}>
            Tags <span className="upload-optional">(comma-separated, at most {TAGS_MAX})</span>
          </label>
          <input
            id={fieldId('tags')}
            aria-invalid={Boolean(e.tags)}
            aria-describedby={`${fieldId('tags')}-error`}
            {...register('tags')}
          />
          <p id={`${fieldId('tags')}-error`} className="field-error">
            {e.tags?.message}
          </p>
        </div>
        {waiting ? (
          <p className="video-manage-note" role="note">
            Your new text from {new Date(waiting.proposedAt).toLocaleDateString()} is waiting for review; the video shows its
            approved text until then. Saving again replaces it; saving the approved text withdraws it.
          </p>
        ) : (
          <p className="video-manage-note">
            New titles, descriptions and tags of an approved video are shown once an admin approves them; the video stays public
            with its approved text meanwhile. A category change is live at once.
          </p>
        )}
        <div className="modal-actions">
          <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : 'Save changes'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
      <StatusLine status={status} />
      <CaptionsEditor streamVideoId={video.streamVideoId} />
    </dialog>
  );
}

function DeleteVideoDialog({ video, onClose, onDeleted }: { video: ManagedVideo; onClose(): void; onDeleted(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useShowModal(dialog);
  const id = useId();
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    setStatus(null);
    try {
      await apiRequest(`/api/videos/${encodeURIComponent(video.streamVideoId)}`, { method: 'DELETE' });
      onDeleted();
    } catch (error) {
      setStatus({ ok: false, text: serverMessage(error, 'Failed to delete the video.') });
      setBusy(false);
    }
  }
  return (
    <dialog
      ref={dialog}
      className="modal video-manage-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={onClose}
    >
      <h2 id={`${id}-title`}>Delete this video?</h2>
      <p id={`${id}-text`}>“{video.title}” will be removed for good, with its likes and comments. This cannot be undone.</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? 'Deleting…' : 'Delete video'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => dialog.current?.close()} data-autofocus>
          Cancel
        </button>
      </div>
      <StatusLine status={status} />
    </dialog>
  );
}
