'use client';

import { useId, useRef, useState, type FormEvent } from 'react';

import { serverMessage, StatusLine, type Status } from '@/components/account/form-parts';
import type { MyVerificationDto } from '@/lib/api-types';
import { apiRequest } from '@/lib/client/api-client';
import { LEGAL_NAME_MAX, verificationFormSchema } from '@/lib/validation/verification';

import './verification.css';

const PATH = '/api/users/me/verification';
/** The server's limit per document (lib/server/trust/documents.ts), checked here first so nobody waits for a 413. */
const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

function StateCard({ verification }: { verification: MyVerificationDto }) {
  const when = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '');
  switch (verification.status) {
    case 'approved':
      return (
        <section className="verify-state" data-state="approved" aria-labelledby="verify-state-title">
          <h2 id="verify-state-title">You are verified</h2>
          <p>
            Your identity was verified on {when(verification.reviewedAt)}. Your videos are published once they pass review.{' '}
            <a href="/upload">Upload a video</a>
          </p>
        </section>
      );
    case 'pending':
      return (
        <section className="verify-state" data-state="pending" aria-labelledby="verify-state-title">
          <h2 id="verify-state-title">Under review</h2>
          <p>
            We received your documents on {when(verification.submittedAt)}. We will tell you when they have been reviewed, usually
            within two working days.
          </p>
        </section>
      );
    case 'rejected':
      return (
        <section className="verify-state" data-state="rejected" aria-labelledby="verify-state-title">
          <h2 id="verify-state-title">Not verified yet</h2>
          <p>
            We could not verify your identity from the documents you sent. <strong>Reason:</strong> {verification.rejectionReason}
          </p>
          {verification.decisionLink && (
            <p>
              <a href={verification.decisionLink}>Read the decision and how to appeal it</a>
            </p>
          )}
          <p>You can send new documents below.</p>
        </section>
      );
    default:
      return (
        <section className="verify-state" data-state="none" aria-labelledby="verify-state-title">
          <h2 id="verify-state-title">Not verified</h2>
          <p>You can upload videos now; they are published only after you are verified.</p>
        </section>
      );
  }
}

/**
 * The member's verification: where it stands, and the form (when there is
 * nothing under review and they are not verified yet). Files go as a
 * multipart form; the server reads their type from their bytes, so the
 * accept lists only help people pick the right file.
 */
export function VerificationPanel({ initial }: { initial: MyVerificationDto }) {
  const id = useId();
  const [verification, setVerification] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const canSubmit = verification.available && (verification.status === 'none' || verification.status === 'rejected');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const found: Record<string, string> = {};
    const parsed = verificationFormSchema.safeParse({ legalName: data.get('legalName'), dateOfBirth: data.get('dateOfBirth') });
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    for (const [field, missing] of [
      ['idDocument', 'Add a photo or PDF of your government ID.'],
      ['selfie', 'Add a photo of yourself holding your ID.'],
    ] as const) {
      const file = data.get(field);
      if (!(file instanceof File) || file.size === 0) found[field] = missing;
      else if (file.size > MAX_DOCUMENT_BYTES) found[field] = 'Each document must be 10 MB or smaller.';
    }
    setErrors(found);
    if (Object.keys(found).length) return setStatus({ ok: false, text: 'Please check the highlighted fields.' });
    setBusy(true);
    setStatus({ ok: true, text: 'Sending your documents…' });
    try {
      const result = await apiRequest<{ message: string; verification: MyVerificationDto }>(PATH, { method: 'POST', form: data });
      setVerification(result.verification);
      setStatus({ ok: true, text: result.message });
      formRef.current?.reset();
    } catch (error) {
      const field = (error as { data?: { field?: unknown } }).data?.field;
      const message = serverMessage(error, 'Your documents could not be sent. Please try again.');
      if (typeof field === 'string') setErrors({ [field]: message });
      setStatus({ ok: false, text: message });
    } finally {
      setBusy(false);
    }
  }

  const described = (field: string) => ({
    'aria-invalid': Boolean(errors[field]),
    'aria-describedby': `${id}-${field}-hint ${id}-${field}-error`,
  });

  return (
    <>
      <StateCard verification={verification} />
      {!verification.available && (
        <p className="form-error" role="alert">
          Identity verification is not available on this site yet. Please try again later.
        </p>
      )}
      {canSubmit ? (
        <form
          ref={formRef}
          className="verify-form"
          onSubmit={submit}
          noValidate
          aria-labelledby={`${id}-title`}
          encType="multipart/form-data"
        >
          <h2 id={`${id}-title`}>{verification.status === 'rejected' ? 'Send new documents' : 'Verify your identity'}</h2>
          <div className="field">
            <label htmlFor={`${id}-legalName`}>Full legal name</label>
            <input
              id={`${id}-legalName`}
              name="legalName"
              autoComplete="name"
              maxLength={LEGAL_NAME_MAX}
              required
              {...described('legalName')}
            />
            <p id={`${id}-legalName-hint`} className="field-hint">
              Exactly as on your ID.
            </p>
            <p id={`${id}-legalName-error`} className="field-error">
              {errors.legalName}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-dateOfBirth`}>Date of birth</label>
            <input
              id={`${id}-dateOfBirth`}
              name="dateOfBirth"
              type="date"
              autoComplete="bday"
              required
              {...described('dateOfBirth')}
            />
            <p id={`${id}-dateOfBirth-hint`} className="field-hint">
              You must be 18 or older.
            </p>
            <p id={`${id}-dateOfBirth-error`} className="field-error">
              {errors.dateOfBirth}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-idDocument`}>Government ID</label>
            <input
              id={`${id}-idDocument`}
              name="idDocument"
              type="file"
              accept="image/jpeg,image/png,image/webp,application/pdf"
              required
              {...described('idDocument')}
            />
            <p id={`${id}-idDocument-hint`} className="field-hint">
              A passport, ID card or driving licence: a sharp photo (JPEG, PNG or WebP) or a PDF of the whole document, at most 10
              MB.
            </p>
            <p id={`${id}-idDocument-error`} className="field-error">
              {errors.idDocument}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-selfie`}>Selfie holding your ID</label>
            <input
              id={`${id}-selfie`}
              name="selfie"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              capture="user"
              required
              {...described('selfie')}
            />
            <p id={`${id}-selfie-hint`} className="field-hint">
              A photo of your face with the same ID held beside it, at most 10 MB.
            </p>
            <p id={`${id}-selfie-error`} className="field-error">
              {errors.selfie}
            </p>
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send for review'}
          </button>
          <StatusLine status={status} />
        </form>
      ) : (
        status && <StatusLine status={status} />
      )}
    </>
  );
}
