'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { serverMessage } from '@/components/account/form-parts';
import { useSession } from '@/components/session/SessionProvider';
import { apiRequest } from '@/lib/client/api-client';
import {
  REPORT_DETAILS_MAX,
  REPORT_MESSAGES,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  reportSchema,
  type ReportReason,
  type ReportTargetType,
} from '@/lib/validation/community';

const URGENT_NOTE: readonly ReportReason[] = ['underage', 'non_consensual'];

/**
 * The report form in a native modal <dialog>, loaded when a Report button is first pressed (ReportDialog.tsx):
 * its checks share the API's zod schema, which stays out of the pages' first-load JavaScript.
 */
type FieldErrors = { reason?: string; details?: string };

export function ReportModal({
  targetType,
  target,
  subject,
  onClose,
}: {
  targetType: ReportTargetType;
  target: string;
  subject: string;
  onClose: () => void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const firstControl = useRef<HTMLElement | null>(null);
  const setFirstControl = (element: HTMLElement | null) => {
    firstControl.current = element;
  };
  const doneButton = useRef<HTMLButtonElement>(null);
  const details = useRef<HTMLTextAreaElement>(null);
  const { user, loading } = useSession();
  const pathname = usePathname();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const needsLogin = targetType !== 'video' && !user;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    firstControl.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);
  useEffect(() => {
    if (done) doneButton.current?.focus();
  }, [done]);

  const requestClose = () => dialog.current?.close();

  // The native modal dialog already makes the page inert; this keeps Tab cycling inside it instead of leaving for the browser's toolbar.
  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !dialog.current) return;
    // The first and last focusable elements are always buttons or links (Close at the top, Cancel or Done at the bottom).
    const focusable = dialog.current.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled])',
    );
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = reportSchema.safeParse({ targetType, target, reason: reason ?? undefined, details: text });
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'reason' || field === 'details') && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      if (found.reason) dialog.current?.querySelector<HTMLInputElement>('input[type="radio"]')?.focus();
      else if (found.details) details.current?.focus();
      if (found.reason || found.details) return;
    }
    setErrors({});
    setSending(true);
    try {
      const answer = await apiRequest<{ message: string }>('/api/reports', {
        method: 'POST',
        json: parsed.success ? parsed.data : { targetType, target, reason, details: text },
      });
      setDone(answer.message || REPORT_MESSAGES.thanks);
    } catch (error) {
      setFailure(serverMessage(error, 'The report could not be sent. Check your connection and try again.'));
    } finally {
      setSending(false);
    }
  }

  const titleId = `${id}-title`;
  const detailsRequired = reason === 'other';
  return (
    <dialog ref={dialog} className="modal report-dialog" aria-labelledby={titleId} onClose={onClose} onKeyDown={trapTab}>
      <div className="modal-head">
        <h2 id={titleId}>Report {subject}</h2>
        <button type="button" className="btn btn-quiet btn-small" onClick={requestClose}>
          Close
        </button>
      </div>

      {needsLogin ? (
        <div className="report-login">
          <p>
            {loading ? 'Checking your session…' : 'Please log in to report comments and profiles. Anyone can report a video.'}
          </p>
          <div className="modal-actions">
            <a ref={setFirstControl} className="btn btn-primary" href={`/login?next=${encodeURIComponent(pathname || '/')}`}>
              Log in
            </a>
            <button type="button" className="btn btn-ghost" onClick={requestClose}>
              Cancel
            </button>
          </div>
        </div>
      ) : done ? (
        <div className="report-done">
          <p role="status" className="report-done-message">
            {done}
          </p>
          <div className="modal-actions">
            <button ref={doneButton} type="button" className="btn btn-primary" onClick={requestClose}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <form className="report-form" onSubmit={submit} noValidate aria-describedby={`${id}-intro`}>
          <p id={`${id}-intro`} className="muted report-intro">
            Our moderators review every report. The person you report is not told who reported them.
          </p>
          <fieldset className="report-reasons" aria-describedby={`${id}-reason-error`} aria-invalid={Boolean(errors.reason)}>
            <legend>What is wrong?</legend>
            {/* Above the options, so it is in view when focus goes back to the first one. */}
            <p id={`${id}-reason-error`} className="field-error report-reason-error">
              {errors.reason}
            </p>
            {REPORT_REASONS.map((value, index) => (
              <label key={value} className="report-reason">
                <input
                  ref={index === 0 ? setFirstControl : undefined}
                  type="radio"
                  name={`${id}-reason`}
                  value={value}
                  checked={reason === value}
                  onChange={() => {
                    setReason(value);
                    setErrors((current) => ({
                      ...current,
                      reason: undefined,
                      details: value === 'other' ? current.details : undefined,
                    }));
                  }}
                />
                <span>
                  <span className="report-reason-label">{REPORT_REASON_LABELS[value].label}</span>
                  <span className="report-reason-hint">{REPORT_REASON_LABELS[value].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>

          {reason && URGENT_NOTE.includes(reason) && (
            <p className="report-note">If someone is in danger right now, contact your local emergency services as well.</p>
          )}

          <div className="field">
            <label htmlFor={`${id}-details`}>
              Details <span className="muted">{detailsRequired ? '(required)' : '(optional)'}</span>
            </label>
            <textarea
              ref={details}
              id={`${id}-details`}
              className="report-details"
              rows={4}
              maxLength={REPORT_DETAILS_MAX}
              value={text}
              required={detailsRequired}
              aria-invalid={Boolean(errors.details)}
              aria-describedby={`${id}-details-error ${id}-details-count`}
              placeholder={
                detailsRequired ? 'Tell us what is wrong' : 'Anything that helps us find the problem, such as a time in the video'
              }
              onChange={(event) => {
                setText(event.target.value);
                if (errors.details) setErrors((current) => ({ ...current, details: undefined }));
              }}
            />
            <p id={`${id}-details-count`} className="report-count">
              {text.length} / {REPORT_DETAILS_MAX}
            </p>
            <p id={`${id}-details-error`} className="field-error">
              {errors.details}
            </p>
          </div>

          <div className="report-actions">
            <p role="alert" className="form-error">
              {failure}
            </p>
            <div className="modal-actions">
              <button type="submit" className="btn btn-primary" disabled={sending}>
                {sending ? 'Sending…' : 'Send report'}
              </button>
              <button type="button" className="btn btn-ghost" onClick={requestClose}>
                Cancel
              </button>
            </div>
          </div>
        </form>
      )}
    </dialog>
  );
}
