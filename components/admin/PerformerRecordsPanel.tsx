'use client';

import { useState } from 'react';

import type { ConsentWithdrawalDto, ModerationVideoDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';
import { RELEASE_STATEMENTS } from '@/lib/trust/performers';

const CONSENT_LABEL = { release_form: 'Release form signed here', signed_pdf: 'Uploaded signed release' } as const;

/**
 * Beside a video in moderation: why it cannot be approved yet, who appears
 * in it (names, date of birth and age on the recording date, how and when
 * they consented, links to their ID and release through the admin-only,
 * audited document route), and open withdrawals of consent to resolve.
 */
export function PerformerRecordsPanel({ video, onChanged }: { video: ModerationVideoDto; onChanged?: () => void }) {
  const records = video.performerRecords;
  return (
    <section className="admin-records" aria-label={`Performer records of ${video.title}`}>
      {video.approvalBlockers.length > 0 && (
        <ul className="admin-blockers" aria-label="Why it cannot be approved yet">
          {video.approvalBlockers.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      {video.consentWithdrawals.map((withdrawal) => (
        <Withdrawal key={withdrawal._id} withdrawal={withdrawal} onChanged={onChanged} />
      ))}
      <h4 className="admin-records-title">Who appears in it</h4>
      {!records?.complete ? (
        <p className="admin-note">Not declared yet: the uploader has not saved performer records.</p>
      ) : (
        <>
          <p className="admin-records-meta">
            Recorded on <strong>{records.recordedOn}</strong>
            {records.declaredAt && <> · declared {records.declaredAt.slice(0, 10)}</>}
          </p>
          <ul className="admin-performers">
            {records.uploaderAppears && (
              <li>
                <strong>The uploader</strong> ({video.uploader.username}): identity from their verification.
              </li>
            )}
            {records.coPerformers.map((performer, index) => (
              <li key={index}>
                <strong>{performer.stageName}</strong> — legal name {performer.legalName}
                <br />
                Born {performer.dateOfBirth},{' '}
                <span
                  className={
                    performer.ageAtRecording !== null && performer.ageAtRecording < 18 ? 'admin-records-minor' : undefined
                  }
                >
                  aged {performer.ageAtRecording} when recorded
                </span>
                <br />
                {CONSENT_LABEL[performer.consent]}
                {performer.release && (
                  <>
                    : signed “{performer.release.signature}” on {performer.release.signedOn};{' '}
                    {performer.release.statements.length} of {RELEASE_STATEMENTS.length} statements ticked
                  </>
                )}
                <br />
                {performer.idDocumentUrl && (
                  <a href={performer.idDocumentUrl} target="_blank" rel="noreferrer">
                    ID document
                  </a>
                )}
                {performer.releaseDocumentUrl && (
                  <>
                    {' · '}
                    <a href={performer.releaseDocumentUrl} target="_blank" rel="noreferrer">
                      Signed release
                    </a>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Withdrawal({ withdrawal, onChanged }: { withdrawal: ConsentWithdrawalDto; onChanged?: () => void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  async function resolve(action: 'confirm' | 'dismiss') {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await apiRequest<{ message: string }>(`/api/admin/consent-withdrawals/${withdrawal._id}`, {
        json: { action },
      });
      setMessage(answer.message);
      onChanged?.();
    } catch (error) {
      setMessage(error instanceof ApiClientError ? error.message : 'The withdrawal could not be resolved. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="admin-withdrawal" role="group" aria-label="Withdrawal of consent">
      <p>
        <strong>Consent withdrawn</strong> on {new Date(withdrawal.createdAt).toLocaleString()} by {withdrawal.legalName} (born{' '}
        {withdrawal.dateOfBirth}, {withdrawal.email}):
      </p>
      <blockquote>{withdrawal.statement}</blockquote>
      <div className="admin-actions">
        <button type="button" className="btn admin-btn-reject" disabled={busy} onClick={() => void resolve('confirm')}>
          Confirm: remove the video
        </button>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void resolve('dismiss')}>
          Dismiss: not in this video
        </button>
      </div>
      <p role="status" className="admin-note">
        {message}
      </p>
    </div>
  );
}
