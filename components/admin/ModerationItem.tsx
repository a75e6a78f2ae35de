'use client';

import type { DecisionGround } from '@/lib/trust/grounds';
import { useId, useRef, useState, type Ref } from 'react';

import { VideoIcon } from '@/components/icons';
import type { ModerationVideoDto, OwnVideoDto } from '@/lib/api-types';
import { formatDuration } from '@/lib/format/numbers';
import { relativeTime } from '@/lib/format/relative-time';

import { VideoManage } from '@/components/videos/VideoManage';

import { PerformerRecordsPanel } from './PerformerRecordsPanel';
import { RejectForm } from './RejectForm';

export type ModerationStatus = OwnVideoDto['moderationStatus'];

const VERIFICATION_BADGES: Record<ModerationVideoDto['uploaderVerification'], { label: string; className: string }> = {
  approved: { label: 'Uploader verified', className: 'admin-badge admin-badge-ok' },
  pending: { label: 'ID under review', className: 'admin-badge admin-badge-warn' },
  rejected: { label: 'ID rejected', className: 'admin-badge admin-badge-banned' },
  none: { label: 'Uploader not verified', className: 'admin-badge admin-badge-banned' },
};

/** Whether the uploader's identity is verified: approval is refused until it is, so admins see it before clicking. */
function VerificationBadge({ state }: { state: ModerationVideoDto['uploaderVerification'] }) {
  const badge = VERIFICATION_BADGES[state] ?? VERIFICATION_BADGES.none;
  return (
    <span className={badge.className} data-testid="uploader-verification">
      {badge.label}
    </span>
  );
}

/** Long descriptions start folded so the queue stays scannable; one click shows all of it. */
const DESCRIPTION_PREVIEW = 320;

/** The player when a playable MP4 exists (admins may load it before approval), else where processing is. */
function Preview({ video }: { video: ModerationVideoDto }) {
  const mp4 = video.playback?.mp4Url;
  if (mp4) {
    return (
      <video
        key={mp4}
        className="admin-player"
        src={mp4}
        poster={video.thumbnailUrl ?? undefined}
        controls
        preload="metadata"
        playsInline
        aria-label={`Preview of ${video.title}`}
      />
    );
  }
  const failed = video.status === 'failed';
  return (
    <div className={`admin-player admin-player-state${failed ? ' admin-player-failed' : ''}`}>
      <VideoIcon size={32} />
      <p>
        {failed
          ? `Processing failed: ${video.processingError ?? 'unknown error'}`
          : video.status === 'ready'
            ? 'No preview available.'
            : 'Processing…'}
      </p>
      {failed && video.processingDetail ? (
        <details className="admin-processing-detail">
          <summary>What ffmpeg said</summary>
          <pre>{video.processingDetail}</pre>
        </details>
      ) : null}
    </div>
  );
}

function Description({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!text.trim()) return <p className="admin-description muted">No description.</p>;
  const long = text.length > DESCRIPTION_PREVIEW;
  return (
    <div className="admin-description-wrap">
      {/* Plain text: React escapes it, and pre-line keeps the uploader's line breaks. */}
      <p id={id} className="admin-description">
        {long && !open ? `${text.slice(0, DESCRIPTION_PREVIEW).trimEnd()}…` : text}
      </p>
      {long && (
        <button
          type="button"
          className="admin-link-button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show full description'}
        </button>
      )}
    </div>
  );
}

export interface ModerationItemProps {
  video: ModerationVideoDto;
  /** The list it is in: decides which actions apply. */
  listStatus: ModerationStatus;
  error: string | null;
  onApprove(): void;
  onReject(reason: string, ground: DecisionGround): void;
  /** After an admin edited or deleted the video here: reload the queue. */
  onChanged?(): void;
  /** Bulk selection: present when the list allows deciding several videos at once. */
  selected?: boolean;
  onSelect?(selected: boolean): void;
  ref?: Ref<HTMLElement>;
}

/**
 * One video under review: preview, thumbnail, details and the decision.
 * Pending videos can be approved or rejected; admins correct mistakes from
 * the other lists (reject an approved video, approve a rejected one).
 */
export function ModerationItem({
  video,
  listStatus,
  error,
  onApprove,
  onReject,
  onChanged,
  selected,
  onSelect,
  ref,
}: ModerationItemProps) {
  const titleId = useId();
  const [rejecting, setRejecting] = useState(false);
  const rejectButton = useRef<HTMLButtonElement>(null);
  const duration = formatDuration(video.durationSeconds);
  const canApprove = listStatus !== 'approved' && video.status !== 'failed';
  const canReject = listStatus !== 'rejected';
  const dated = listStatus === 'approved' ? 'Published' : 'Uploaded';

  function cancelReject() {
    setRejecting(false);
    requestAnimationFrame(() => rejectButton.current?.focus());
  }

  return (
    <article className="admin-item" ref={ref} tabIndex={-1} aria-labelledby={titleId} data-stream-id={video.streamVideoId}>
      <div className="admin-media">
        <Preview video={video} />
      </div>
      <div className="admin-body">
        <div className="admin-item-head">
          <figure className="admin-thumb">
            {video.thumbnailUrl ? (
              // Thumbnails are small JPEGs from our pipeline; the image optimiser would only add work.
              // eslint-disable-next-line @next/next/no-img-element
              <img
                src={video.thumbnailUrl}
                alt={`Thumbnail of ${video.title}`}
                width={160}
                height={90}
                loading="lazy"
                decoding="async"
              />
            ) : (
              <span className="admin-thumb-placeholder" data-testid="thumbnail-placeholder">
                <VideoIcon size={24} />
                <span>No thumbnail</span>
              </span>
            )}
          </figure>
          <div className="admin-heading">
            <h3 id={titleId} className="admin-title">
              {video.title}
            </h3>
            {onSelect && (
              <label className="admin-select">
                <input
                  type="checkbox"
                  checked={Boolean(selected)}
                  onChange={(event) => onSelect(event.target.checked)}
                  aria-label={`Select ${video.title}`}
                />
                Select
              </label>
            )}
            <p className="admin-byline">
              by <a href={`/profile/${encodeURIComponent(video.uploader.username)}`}>{video.uploader.username}</a>
              <span aria-hidden="true"> · </span>
              <time dateTime={video.createdAt} title={new Date(video.createdAt).toLocaleString()}>
                {dated} {relativeTime(video.createdAt)}
              </time>
              <span aria-hidden="true"> · </span>
              <VerificationBadge state={video.uploaderVerification} />
            </p>
          </div>
        </div>

        <dl className="admin-facts">
          <div>
            <dt>Category</dt>
            <dd>{video.category}</dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{duration ?? 'Unknown'}</dd>
          </div>
          {video.width && video.height ? (
            <div>
              <dt>Size</dt>
              <dd>
                {video.width}×{video.height}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Processing</dt>
            <dd className={`admin-state admin-state-${video.status}`}>{video.status}</dd>
          </div>
        </dl>

        {video.tags.length > 0 && (
          <ul className="admin-tags" aria-label="Tags">
            {video.tags.map((tag) => (
              <li key={tag}>#{tag}</li>
            ))}
          </ul>
        )}

        <Description text={video.description} />

        {video.captions.length > 0 && (
          <p className="admin-captions">
            <strong>Captions:</strong>{' '}
            {video.captions.map((track, index) => (
              <span key={track.language}>
                {index > 0 && ', '}
                <a
                  href={track.url}
                  target="_blank"
                  rel="noopener"
                  aria-label={`Read the ${track.label} captions of ${video.title}`}
                >
                  {track.label}
                </a>
              </span>
            ))}
          </p>
        )}

        <PerformerRecordsPanel video={video} onChanged={onChanged} />

        {listStatus === 'rejected' && video.rejectionReason && (
          <p className="admin-verdict">
            <strong>Rejected:</strong> {video.rejectionReason}
          </p>
        )}

        {error && <p className="form-error admin-item-error">{error}</p>}

        {!rejecting && (
          <div className="admin-actions">
            {canApprove && (
              <button type="button" className="btn btn-primary" aria-label={`Approve ${video.title}`} onClick={onApprove}>
                Approve
              </button>
            )}
            {canReject && (
              <button
                type="button"
                ref={rejectButton}
                className="btn admin-btn-reject"
                aria-label={`Reject ${video.title}`}
                onClick={() => setRejecting(true)}
              >
                Reject…
              </button>
            )}
            {onChanged && (
              <VideoManage
                video={{
                  streamVideoId: video.streamVideoId,
                  ownerId: video.uploader._id,
                  title: video.title,
                  description: video.description,
                  category: video.category,
                  tags: video.tags,
                }}
                onSaved={() => onChanged()}
                onDeleted={onChanged}
              />
            )}
            {!canApprove && listStatus !== 'approved' && (
              <p className="admin-note">This video could not be processed, so it cannot be approved.</p>
            )}
          </div>
        )}
        {rejecting && (
          <RejectForm
            title={video.title}
            onCancel={cancelReject}
            onSubmit={(reason, ground) => {
              setRejecting(false);
              onReject(reason, ground);
            }}
          />
        )}
      </div>
    </article>
  );
}
