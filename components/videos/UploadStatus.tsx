'use client';

import { useEffect, useRef } from 'react';
import useSWR from 'swr';

import type { OwnVideoDto } from '@/lib/api-types';
import { videoStatusView, type VideoStatusTone } from '@/lib/client/format';
import { apiRequest } from '@/lib/client/api-client';

import { UploadProgressBar } from './UploadProgress';

/** What POST /api/videos/upload answers with (the fields this page reads). */
export type UploadedVideo = Pick<OwnVideoDto, '_id' | 'streamVideoId' | 'title' | 'status' | 'moderationStatus'> &
  Partial<Pick<OwnVideoDto, 'processingError' | 'rejectionReason'>>;

/** How often the page asks about a fresh upload until its processing has finished. */
export const STATUS_POLL_MS = 3_000;

const HELP: Record<VideoStatusTone, string> = {
  working:
    'We are preparing your video for playback. You can leave this page: processing carries on, and the video stays under Your videos.',
  waiting:
    'A moderator reviews every upload before it goes public; you will get a notification when it is decided. Meanwhile you can preview it on its page.',
  live: 'Everyone can watch it now.',
  bad: 'You can fix the problem and upload the video again.',
};

const fetchVideo = (path: string) => apiRequest<{ video: OwnVideoDto }>(path);

/** After an upload: the finished progress bar, then processing and review status, polled every 3 s until processing ends. */
export function UploadStatus({
  upload,
  bytes,
  recordsError = null,
  onUploadAnother,
}: {
  upload: UploadedVideo;
  bytes: number;
  /** Why the performer records were not saved with the upload; the video is kept and they can be completed later. */
  recordsError?: string | null;
  onUploadAnother: () => void;
}) {
  const { data, error } = useSWR(`/api/videos/${encodeURIComponent(upload.streamVideoId)}`, fetchVideo, {
    refreshInterval: (latest) => (latest && videoStatusView(latest.video).settled ? 0 : STATUS_POLL_MS),
    revalidateOnFocus: false,
  });
  const video = data?.video ?? { processingError: null, rejectionReason: null, ...upload };
  const view = videoStatusView(video);

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="form-card upload-done" aria-labelledby="upload-done-title">
      <div className="upload-done-head">
        <span className="upload-done-check" aria-hidden="true">
          ✓
        </span>
        <div>
          <h2 id="upload-done-title" ref={heading} tabIndex={-1}>
            Upload complete
          </h2>
          <p className="upload-done-name">{upload.title}</p>
        </div>
      </div>
      <UploadProgressBar loaded={bytes} total={bytes} />
      <p role="status" aria-live="polite" className={`upload-state upload-state-${view.tone}`} data-testid="upload-state">
        <span className="upload-state-dot" aria-hidden="true" />
        <span>{view.text}</span>
      </p>
      <p className="upload-done-help">{HELP[view.tone]}</p>
      {recordsError && (
        <div className="upload-records-failed" role="alert">
          <p className="form-error">Your video is uploaded, but its performer records were not saved: {recordsError}</p>
          <p>
            <a href={`/upload/performers/${upload.streamVideoId}`}>Performer records incomplete — complete them</a>
          </p>
        </div>
      )}
      {error && !data && <p className="form-error">Could not check the video’s status just now; trying again.</p>}
      <div className="upload-done-actions">
        <a className="btn btn-primary" href={`/video/${upload.streamVideoId}`}>
          Open the video page
        </a>
        <button type="button" className="btn btn-ghost" onClick={onUploadAnother}>
          Upload another
        </button>
      </div>
    </section>
  );
}
