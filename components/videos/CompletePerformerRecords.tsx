'use client';

import { useState, type FormEvent } from 'react';
import useSWR from 'swr';

import { Spinner } from '@/components/shell/Spinner';
import type { OwnVideoDto } from '@/lib/api-types';
import { ApiClientError, apiRequest } from '@/lib/client/api-client';

import {
  checkPerformers,
  EMPTY_PERFORMERS,
  performerFieldId,
  PerformerFields,
  savePerformers,
  type PerformerDraft,
} from './PerformerFields';

const fetchVideo = (path: string) => apiRequest<{ video: OwnVideoDto }>(path);

/** The owner completes (or replaces, before publication) the performer records of one video. */
export function CompletePerformerRecords({ streamVideoId }: { streamVideoId: string }) {
  const { data, error, mutate } = useSWR(`/api/videos/${encodeURIComponent(streamVideoId)}`, fetchVideo, {
    revalidateOnFocus: false,
  });
  const [draft, setDraft] = useState<PerformerDraft>(EMPTY_PERFORMERS);
  const [problem, setProblem] = useState<ReturnType<typeof checkPerformers>>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  if (error)
    return (
      <p className="form-error form-card">
        {error instanceof ApiClientError ? error.message : 'This video could not be loaded.'}
      </p>
    );
  if (!data) return <Spinner label="Loading the video…" />;
  const video = data.video;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(null);
    const found = checkPerformers(draft);
    setProblem(found);
    if (found) {
      document.getElementById(performerFieldId(found.field))?.focus();
      return;
    }
    setSaving(true);
    try {
      await savePerformers(streamVideoId, draft);
      setSaved('The performer records are saved. Your video can now be reviewed.');
      await mutate();
    } catch (failure) {
      const message = failure instanceof ApiClientError ? failure.message : 'The performer records could not be saved.';
      const field = failure instanceof ApiClientError && typeof failure.data.field === 'string' ? failure.data.field : 'records';
      setProblem({ message, field });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="form-card" onSubmit={(event) => void submit(event)} noValidate aria-busy={saving}>
      <h2 className="performers-video-title">{video.title}</h2>
      <p className="performers-hint">
        {'performerRecordsComplete' in video && video.performerRecordsComplete
          ? 'Records are saved for this video. Saving again replaces them (and their documents) while the video is not yet public.'
          : 'Performer records incomplete: this video cannot be published until you complete them.'}
      </p>
      <PerformerFields
        value={draft}
        onChange={(next) => {
          setDraft(next);
          if (problem) setProblem(checkPerformers(next));
        }}
        problem={problem}
        disabled={saving}
      />
      <p role="status" className="form-success">
        {saved}
      </p>
      <div className="upload-done-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save performer records'}
        </button>
        <a className="btn btn-ghost" href="/upload#your-videos">
          Back to your videos
        </a>
      </div>
    </form>
  );
}
