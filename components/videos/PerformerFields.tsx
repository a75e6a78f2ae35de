'use client';

import { apiRequest } from '@/lib/client/api-client';
import { performerLabel, RELEASE_STATEMENTS, MAX_CO_PERFORMERS } from '@/lib/trust/performers';
import { idDocumentField, parsePerformerRecords, releaseDocumentField, type PerformerProblem } from '@/lib/validation/performers';

import './performers.css';

/** One co-performer as the form holds it (files stay in the browser until the records are sent). */
export interface CoPerformerDraft {
  key: number;
  legalName: string;
  stageName: string;
  dateOfBirth: string;
  consent: 'release_form' | 'signed_pdf';
  signature: string;
  signedOn: string;
  statements: string[];
  idDocument: File | null;
  releaseDocument: File | null;
}

export interface PerformerDraft {
  recordedOn: string;
  uploaderAppears: boolean;
  coPerformers: CoPerformerDraft[];
}

export const EMPTY_PERFORMERS: PerformerDraft = { recordedOn: '', uploaderAppears: false, coPerformers: [] };

let nextKey = 1;
const newCoPerformer = (): CoPerformerDraft => ({
  key: nextKey++,
  legalName: '',
  stageName: '',
  dateOfBirth: '',
  consent: 'release_form',
  signature: '',
  signedOn: '',
  statements: [],
  idDocument: null,
  releaseDocument: null,
});

/** The records as the API takes them (JSON), without the files. */
function recordsOf(draft: PerformerDraft) {
  return {
    recordedOn: draft.recordedOn,
    uploaderAppears: draft.uploaderAppears,
    coPerformers: draft.coPerformers.map((p) => ({
      legalName: p.legalName,
      stageName: p.stageName,
      dateOfBirth: p.dateOfBirth,
      consent: p.consent,
      release:
        p.consent === 'release_form' ? { signature: p.signature, signedOn: p.signedOn, statements: p.statements } : undefined,
    })),
  };
}

/** The first problem with the records, the same sentence the server would answer; null when they can be sent. */
export function checkPerformers(draft: PerformerDraft): PerformerProblem | null {
  const parsed = parsePerformerRecords(recordsOf(draft));
  if (!parsed.ok) return parsed.problem;
  for (const [index, p] of draft.coPerformers.entries()) {
    const label = performerLabel(p, index);
    if (!p.idDocument) return { message: `${label}: attach a photo or PDF of their ID document.`, field: idDocumentField(index) };
    if (p.consent === 'signed_pdf' && !p.releaseDocument)
      return { message: `${label}: attach their signed release (a PDF or a photo of it).`, field: releaseDocumentField(index) };
  }
  return null;
}

/** Sends the records and documents of a video (PUT /api/videos/{id}/performers). */
export async function savePerformers(streamVideoId: string, draft: PerformerDraft): Promise<void> {
  const form = new FormData();
  form.append('records', JSON.stringify(recordsOf(draft)));
  draft.coPerformers.forEach((p, index) => {
    if (p.idDocument) form.append(idDocumentField(index), p.idDocument, p.idDocument.name);
    if (p.consent === 'signed_pdf' && p.releaseDocument)
      form.append(releaseDocumentField(index), p.releaseDocument, p.releaseDocument.name);
  });
  await apiRequest(`/api/videos/${encodeURIComponent(streamVideoId)}/performers`, { method: 'PUT', form });
}

/** A field's element id from its API path (coPerformers.0.legalName → perf-coPerformers-0-legalName). */
export const performerFieldId = (field: string) => `perf-${field.replace(/\./g, '-')}`;

interface PerformerFieldsProps {
  value: PerformerDraft;
  onChange(next: PerformerDraft): void;
  problem: PerformerProblem | null;
  disabled?: boolean;
}

/**
 * "Who appears in this video?": the recording date, whether the uploader
 * appears, and each co-performer's names, date of birth, ID document and
 * consent (the release form here, or an uploaded signed release). Used by
 * the upload form and by the page that completes missing records.
 */
export function PerformerFields({ value, onChange, problem, disabled }: PerformerFieldsProps) {
  const invalid = (field: string) => problem?.field === field || undefined;
  const update = (index: number, patch: Partial<CoPerformerDraft>) =>
    onChange({ ...value, coPerformers: value.coPerformers.map((p, i) => (i === index ? { ...p, ...patch } : p)) });

  return (
    <fieldset className="performers" disabled={disabled} aria-describedby="performers-hint">
      <legend className="performers-legend">Who appears in this video?</legend>
      <p id="performers-hint" className="performers-hint">
        Everyone in the video must have been 18 or older on the day it was recorded and must have agreed to be filmed and to this
        upload. We keep these records privately for moderators, as the law requires (see our{' '}
        <a href="/community-standards#consent-and-age-of-everyone-shown">Community Standards</a>). A video is not published until
        they are complete.
      </p>

      <div className="field">
        <label htmlFor={performerFieldId('recordedOn')}>Recording date</label>
        <input
          id={performerFieldId('recordedOn')}
          type="date"
          value={value.recordedOn}
          aria-invalid={invalid('recordedOn')}
          onChange={(event) => onChange({ ...value, recordedOn: event.target.value })}
        />
      </div>

      <label className="performers-check">
        <input
          id={performerFieldId('uploaderAppears')}
          type="checkbox"
          checked={value.uploaderAppears}
          onChange={(event) => onChange({ ...value, uploaderAppears: event.target.checked })}
        />
        <span>I appear in this video (as the verified uploader)</span>
      </label>

      {value.coPerformers.map((performer, index) => (
        <CoPerformerFields
          key={performer.key}
          index={index}
          performer={performer}
          invalid={invalid}
          onChange={(patch) => update(index, patch)}
          onRemove={() => onChange({ ...value, coPerformers: value.coPerformers.filter((_, i) => i !== index) })}
        />
      ))}

      {value.coPerformers.length < MAX_CO_PERFORMERS && (
        <button
          type="button"
          className="btn btn-ghost performers-add"
          onClick={() => onChange({ ...value, coPerformers: [...value.coPerformers, newCoPerformer()] })}
        >
          Add a co-performer
        </button>
      )}

      <p role="alert" className="form-error performers-error">
        {problem?.message}
      </p>
    </fieldset>
  );
}

function CoPerformerFields({
  index,
  performer,
  invalid,
  onChange,
  onRemove,
}: {
  index: number;
  performer: CoPerformerDraft;
  invalid(field: string): true | undefined;
  onChange(patch: Partial<CoPerformerDraft>): void;
  onRemove(): void;
}) {
  const field = (name: string) => `coPerformers.${index}.${name}`;
  const id = (name: string) => performerFieldId(field(name));
  const title = `Co-performer ${index + 1}`;
  return (
    <section className="performer-card" aria-label={title}>
      <div className="performer-card-head">
        <h3>{title}</h3>
        <button type="button" className="btn btn-ghost" onClick={onRemove} aria-label={`Remove ${title.toLowerCase()}`}>
          Remove
        </button>
      </div>
      <div className="performer-grid">
        <div className="field">
          <label htmlFor={id('legalName')}>Legal name</label>
          <input
            id={id('legalName')}
            type="text"
            autoComplete="off"
            value={performer.legalName}
            aria-invalid={invalid(field('legalName'))}
            onChange={(e) => onChange({ legalName: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={id('stageName')}>Stage name</label>
          <input
            id={id('stageName')}
            type="text"
            autoComplete="off"
            value={performer.stageName}
            aria-invalid={invalid(field('stageName'))}
            onChange={(e) => onChange({ stageName: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={id('dateOfBirth')}>Date of birth</label>
          <input
            id={id('dateOfBirth')}
            type="date"
            value={performer.dateOfBirth}
            aria-invalid={invalid(field('dateOfBirth'))}
            onChange={(e) => onChange({ dateOfBirth: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={id('idDocument')}>ID document (photo or PDF)</label>
          <input
            id={id('idDocument')}
            type="file"
            accept="image/jpeg,image/png,image/webp,application/pdf"
            aria-invalid={invalid(field('idDocument'))}
            onChange={(e) => onChange({ idDocument: e.target.files?.[0] ?? null })}
          />
        </div>
      </div>

      <fieldset className="performer-consent">
        <legend>How did they consent?</legend>
        <label className="performers-check">
          <input
            type="radio"
            name={`consent-${performer.key}`}
            checked={performer.consent === 'release_form'}
            onChange={() => onChange({ consent: 'release_form' })}
          />
          <span>They sign the release form here</span>
        </label>
        <label className="performers-check">
          <input
            type="radio"
            name={`consent-${performer.key}`}
            checked={performer.consent === 'signed_pdf'}
            onChange={() => onChange({ consent: 'signed_pdf' })}
          />
          <span>I upload their signed release</span>
        </label>
      </fieldset>

      {performer.consent === 'release_form' ? (
        <div className="performer-release">
          <p className="performers-hint">
            Release: the co-performer reads and ticks each statement, then types their full legal name as their signature.
          </p>
          {RELEASE_STATEMENTS.map((statement) => (
            <label key={statement.id} className="performers-check">
              <input
                type="checkbox"
                aria-invalid={invalid(field('release.statements'))}
                checked={performer.statements.includes(statement.id)}
                onChange={(e) =>
                  onChange({
                    statements: e.target.checked
                      ? [...performer.statements, statement.id]
                      : performer.statements.filter((s) => s !== statement.id),
                  })
                }
              />
              <span>{statement.text}</span>
            </label>
          ))}
          <div className="performer-grid">
            <div className="field">
              <label htmlFor={id('release-signature')}>Signature (their full legal name)</label>
              <input
                id={id('release-signature')}
                type="text"
                autoComplete="off"
                value={performer.signature}
                aria-invalid={invalid(field('release.signature'))}
                onChange={(e) => onChange({ signature: e.target.value })}
              />
            </div>
            <div className="field">
              <label htmlFor={id('release-signedOn')}>Date signed</label>
              <input
                id={id('release-signedOn')}
                type="date"
                value={performer.signedOn}
                aria-invalid={invalid(field('release.signedOn'))}
                onChange={(e) => onChange({ signedOn: e.target.value })}
              />
            </div>
          </div>
        </div>
      ) : (
        <div className="field">
          <label htmlFor={id('releaseDocument')}>Signed release (PDF or photo)</label>
          <input
            id={id('releaseDocument')}
            type="file"
            accept="application/pdf,image/jpeg,image/png,image/webp"
            aria-invalid={invalid(field('releaseDocument'))}
            onChange={(e) => onChange({ releaseDocument: e.target.files?.[0] ?? null })}
          />
        </div>
      )}
    </section>
  );
}
