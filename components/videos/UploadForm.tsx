'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { useSession } from '@/components/session/SessionProvider';
import { Spinner } from '@/components/shell/Spinner';
import { checkVideoFile, formatBytes, percentOf, retryLabel } from '@/lib/client/format';
import { ApiClientError } from '@/lib/client/api-client';
import { UPLOAD_RETRY_DELAYS_MS, UploadCancelledError, uploadRequest, type UploadRetry } from '@/lib/client/upload-request';
import { RESUMABLE_RETRY_DELAYS_MS, resumableUpload } from '@/lib/client/resumable-upload';
import { CATEGORIES } from '@/lib/site';
import { videoFormSchema, type VideoFormInput, type VideoFormValues } from '@/lib/validation/video-form';
import { DESCRIPTION_MAX, splitTags, TAG_MAX, TAGS_MAX, TITLE_MAX } from '@/lib/validation/videos';

import { useRefreshOwnVideos } from './OwnVideos';
import {
  checkPerformers,
  EMPTY_PERFORMERS,
  performerFieldId,
  PerformerFields,
  savePerformers,
  type PerformerDraft,
} from './PerformerFields';
import { UploadDropZone } from './UploadDropZone';
import { UploadProgressBar } from './UploadProgress';
import { UploadStatus, type UploadedVideo } from './UploadStatus';

const uploadFormSchema = videoFormSchema;
type UploadFormInput = VideoFormInput;
type UploadFormValues = VideoFormValues;

const EMPTY: UploadFormInput = { title: '', description: '', category: '', tags: '' };
const TEXT_FIELDS = ['title', 'description', 'category', 'tags'] as const;
type TextFieldName = (typeof TEXT_FIELDS)[number];
const isTextField = (name: unknown): name is TextFieldName => TEXT_FIELDS.includes(name as TextFieldName);

const FILE_INPUT_ID = 'upload-video';

/** The plain upload's multipart body: the video last, so the text fields arrive before the bytes. */
function plainForm(fields: Record<string, string>, file: File): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('video', file, file.name);
  return form;
}

type Phase =
  | { name: 'editing' }
  | { name: 'uploading' }
  | { name: 'done'; video: UploadedVideo; bytes: number; recordsError: string | null };
type RetryState = Omit<UploadRetry, 'error'> & { until: number; serverError: boolean };

interface UploadLimits {
  maxUploadBytes: number;
  /** Files from this size on are sent with tus (resumable, lib/client/resumable-upload.ts); smaller ones in one POST. */
  resumableThresholdBytes: number;
}

/** The upload form (login required): fields, file, progress with Cancel, retries, server errors, then status. */
export function UploadForm(limits: UploadLimits) {
  const { loading, user } = useSession();
  if (loading) return <Spinner label="Loading the upload form…" />;
  if (!user) {
    return (
      <div className="form-card upload-login">
        <p>Log in to upload videos.</p>
        <a className="btn btn-primary" href={`/login?next=${encodeURIComponent('/upload')}`}>
          Log in
        </a>
      </div>
    );
  }
  return <MemberUploadForm {...limits} />;
}

function MemberUploadForm({ maxUploadBytes, resumableThresholdBytes }: UploadLimits) {
  const refreshOwnVideos = useRefreshOwnVideos();
  const [phase, setPhase] = useState<Phase>({ name: 'editing' });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [progress, setProgress] = useState({ loaded: 0, total: 0 });
  const [attempt, setAttempt] = useState(1);
  /** The percentage a resumed upload continued from (shown until the member starts another). */
  const [resumedAt, setResumedAt] = useState<number | null>(null);
  const [retry, setRetry] = useState<RetryState | null>(null);
  const [performers, setPerformers] = useState<PerformerDraft>(EMPTY_PERFORMERS);
  const [performerProblem, setPerformerProblem] = useState<ReturnType<typeof checkPerformers>>(null);
  const [now, setNow] = useState(() => Date.now());
  const controller = useRef<AbortController | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    control,
    formState: { errors },
  } = useForm<UploadFormInput, unknown, UploadFormValues>({
    resolver: zodResolver(uploadFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const [title = '', description = '', tagsText = ''] = useWatch({ control, name: ['title', 'description', 'tags'] });
  const tags = splitTags(tagsText);
  const uploading = phase.name === 'uploading';
  const limitText = formatBytes(maxUploadBytes, { trim: true });
  const maxAttempts =
    (file && file.size >= resumableThresholdBytes ? RESUMABLE_RETRY_DELAYS_MS : UPLOAD_RETRY_DELAYS_MS).length + 1;

  // Leaving the page cancels the upload; while it runs, the browser asks first.
  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);
  // The retry countdown ticks while the client waits.
  useEffect(() => {
    if (!retry) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [retry]);
  useEffect(() => {
    if (uploading) cancelButton.current?.focus();
  }, [uploading]);

  function chooseFile(chosen: File | null) {
    setNotice(null);
    setFile(chosen);
    setFileError(chosen ? checkVideoFile(chosen, maxUploadBytes) : null);
  }

  /** The file's check, shown beside the picker; true when it may be sent. */
  function fileIsFine(): boolean {
    const problem = checkVideoFile(file, maxUploadBytes);
    setFileError(problem);
    return problem === null;
  }

  /** The performer records' check (the server's own sentences), shown in their section; true when they may be sent. */
  function performersAreFine(focus: boolean): boolean {
    const problem = checkPerformers(performers);
    setPerformerProblem(problem);
    if (problem && focus) document.getElementById(performerFieldId(problem.field))?.focus();
    return problem === null;
  }

  const send = async (values: UploadFormValues) => {
    setFormError(null);
    setNotice(null);
    if (!fileIsFine() || !file) {
      fileInput.current?.focus();
      return;
    }
    // Checked before the video is sent: a long upload should not end in a refusal of its records.
    if (!performersAreFine(true)) return;
    const fields = {
      title: values.title,
      description: values.description,
      category: values.category,
      tags: splitTags(values.tags).join(','),
    };
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ loaded: 0, total: file.size });
    setAttempt(1);
    setRetry(null);
    setResumedAt(null);
    setPhase({ name: 'uploading' });
    const onProgress = (bytes: { loaded: number; total: number }) => {
      setRetry(null);
      if (bytes.total > 0) setProgress(bytes);
    };
    const onRetry = ({ error, ...next }: UploadRetry) => {
      setAttempt(next.attempt);
      setNow(Date.now());
      setRetry({ ...next, until: Date.now() + next.delayMs, serverError: error.status !== undefined });
    };
    try {
      const { video } =
        file.size >= resumableThresholdBytes
          ? // Large files: a dropped connection or a reload continues where the server stands.
            await resumableUpload<{ video: UploadedVideo }>(file, fields, {
              signal: abort.signal,
              onProgress,
              onRetry,
              onResume: (offset, total) => {
                setResumedAt(percentOf(offset, total));
                setProgress({ loaded: offset, total });
              },
            })
          : await uploadRequest<{ video: UploadedVideo }>('/api/videos/upload', plainForm(fields, file), {
              signal: abort.signal,
              onProgress: (_fraction, bytes) => onProgress(bytes),
              onRetry: (retry) => {
                // A plain upload starts again from its first byte.
                setProgress({ loaded: 0, total: file.size });
                onRetry(retry);
              },
            });
      // The video is kept even if its records fail to save: Your videos then offers to complete them.
      let recordsError: string | null = null;
      try {
        await savePerformers(video.streamVideoId, performers);
      } catch (error) {
        recordsError = error instanceof ApiClientError ? error.message : 'The performer records could not be saved.';
      }
      setPhase({ name: 'done', video, bytes: file.size, recordsError });
      refreshOwnVideos();
    } catch (error) {
      setPhase({ name: 'editing' });
      setRetry(null);
      showFailure(error);
    } finally {
      controller.current = null;
    }
  };

  function showFailure(error: unknown) {
    if (error instanceof UploadCancelledError) {
      setNotice('Upload cancelled.');
      return;
    }
    if (error instanceof ApiClientError && error.status) {
      const field = error.data.field;
      if (isTextField(field)) return setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
      if (field === 'video' || error.status === 413 || error.status === 415) {
        setFileError(error.message);
        fileInput.current?.focus();
        return;
      }
      return setFormError(error.status >= 500 ? `Upload failed after ${maxAttempts} attempts: ${error.message}` : error.message);
    }
    // No answer after every attempt (network down, timeout): the client's own words.
    setFormError(
      error instanceof ApiClientError
        ? `Upload failed after ${maxAttempts} attempts. ${error.message}`
        : 'The upload failed. Please try again.',
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    void handleSubmit(send, () => {
      // Field errors are shown and focused by the form; the file's and the records' problems show beside them at the same time.
      fileIsFine();
      performersAreFine(false);
    })(event);

  function uploadAnother() {
    reset(EMPTY);
    setFile(null);
    setFileError(null);
    setFormError(null);
    setNotice(null);
    setProgress({ loaded: 0, total: 0 });
    setPerformers(EMPTY_PERFORMERS);
    setPerformerProblem(null);
    setPhase({ name: 'editing' });
    // After the form is back on screen.
    setTimeout(() => setFocus('title'), 0);
  }

  if (phase.name === 'done')
    return (
      <UploadStatus upload={phase.video} bytes={phase.bytes} recordsError={phase.recordsError} onUploadAnother={uploadAnother} />
    );

  const secondsLeft = retry ? Math.max(0, Math.ceil((retry.until - now) / 1000)) : 0;
  return (
    <form className="form-card upload-form" onSubmit={onSubmit} noValidate aria-busy={uploading}>
      <fieldset className="upload-fields" disabled={uploading}>
        <legend className="visually-hidden">Video details</legend>
        <div className="upload-grid">
          <div className="upload-col upload-col-file">
            <UploadDropZone
              id={FILE_INPUT_ID}
              file={file}
              error={fileError}
              disabled={uploading}
              limitText={limitText}
              onChoose={chooseFile}
              inputRef={fileInput}
            />
          </div>

          <div className="upload-col">
            <div className="field">
              <div className="upload-label-row">
                <label htmlFor="upload-title">Title</label>
                <span id="upload-title-count" className={`upload-count${title.length > TITLE_MAX ? ' is-over' : ''}`}>
                  {title.length}/{TITLE_MAX}
                </span>
              </div>
              <input
                id="upload-title"
                type="text"
                autoComplete="off"
                aria-invalid={Boolean(errors.title)}
                aria-describedby="upload-title-count upload-title-error"
                {...register('title')}
              />
              <p id="upload-title-error" className="field-error">
                {errors.title?.message}
              </p>
            </div>

            <div className="field">
              <div className="upload-label-row">
                <label htmlFor="upload-description">
                  Description <span className="upload-optional">(optional)</span>
                </label>
                <span
                  id="upload-description-count"
                  className={`upload-count${description.length > DESCRIPTION_MAX ? ' is-over' : ''}`}
                >
                  {description.length}/{DESCRIPTION_MAX}
                </span>
              </div>
              <textarea
                id="upload-description"
                rows={4}
                className="upload-textarea"
                aria-invalid={Boolean(errors.description)}
                aria-describedby="upload-description-count upload-description-error"
                {...register('description')}
              />
              <p id="upload-description-error" className="field-error">
                {errors.description?.message}
              </p>
            </div>

            <div className="field">
              <label htmlFor="upload-category">Category</label>
              <select
                id="upload-category"
                className="upload-select"
                aria-invalid={Boolean(errors.category)}
                aria-describedby="upload-category-error"
                {...register('category')}
              >
                <option value="">Choose a category</option>
                {CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </select>
              <p id="upload-category-error" className="field-error">
                {errors.category?.message}
              </p>
            </div>

            <div className="field">
              <div className="upload-label-row">
                <label htmlFor="upload-tags">
                  Tags <span className="upload-optional">(optional)</span>
                </label>
                <span className={`upload-count${tags.length > TAGS_MAX ? ' is-over' : ''}`}>
                  {tags.length}/{TAGS_MAX}
                </span>
              </div>
              <input
                id="upload-tags"
                type="text"
                autoComplete="off"
                placeholder="makeover, heels, first time"
                aria-invalid={Boolean(errors.tags)}
                aria-describedby="upload-tags-hint upload-tags-error"
                {...register('tags')}
              />
              <div id="upload-tags-hint" className="upload-tags-hint">
                {tags.length === 0 ? (
                  <span>
                    Separate tags with commas: up to {TAGS_MAX}, each up to {TAG_MAX} characters.
                  </span>
                ) : (
                  <ul className="upload-tags" aria-label="Your tags">
                    {tags.map((tag) => (
                      <li key={tag} className={`upload-tag${tag.length > TAG_MAX ? ' is-over' : ''}`}>
                        #{tag}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              <p id="upload-tags-error" className="field-error">
                {errors.tags?.message}
              </p>
            </div>
          </div>
        </div>
      </fieldset>

      <PerformerFields
        value={performers}
        onChange={(next) => {
          setPerformers(next);
          if (performerProblem) setPerformerProblem(checkPerformers(next));
        }}
        problem={performerProblem}
        disabled={uploading}
      />

      {uploading && file && (
        <div className="upload-sending">
          <div className="upload-sending-head">
            <p className="upload-sending-name">
              Uploading <strong>{file.name}</strong>
            </p>
            <button ref={cancelButton} type="button" className="btn btn-ghost" onClick={() => controller.current?.abort()}>
              Cancel
            </button>
          </div>
          <UploadProgressBar loaded={progress.loaded} total={progress.total || file.size} />
          <p role="status" aria-live="polite" className={retry ? 'upload-retry' : 'upload-attempt'}>
            {retry
              ? retryLabel({
                  secondsLeft,
                  attempt: retry.attempt,
                  maxAttempts: retry.maxAttempts,
                  serverError: retry.serverError,
                })
              : resumedAt !== null
                ? `Resuming from ${resumedAt} %. Keep this page open until the upload finishes.`
                : attempt > 1
                  ? `Attempt ${attempt} of ${maxAttempts}`
                  : 'Keep this page open until the upload finishes.'}
          </p>
        </div>
      )}

      <p role="alert" className="form-error upload-form-error">
        {formError}
      </p>
      {!uploading && (
        <div className="upload-submit">
          <p role="status" aria-live="polite" className="upload-notice">
            {notice}
          </p>
          <p className="upload-terms">
            By uploading you confirm that the people listed above are everyone in the video, that each was an adult when it was
            recorded and agreed to be filmed and to this upload, as our <a href="/community-standards">Community Standards</a>{' '}
            require. Every video is reviewed before it goes public.
          </p>
          <button type="submit" className="btn btn-primary upload-submit-button">
            Upload video
          </button>
        </div>
      )}
    </form>
  );
}
