'use client';

import { useRef, useState, type DragEvent, type Ref } from 'react';

import { formatBytes } from '@/lib/client/format';

const UploadCloudIcon = () => (
  <svg
    width={40}
    height={40}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="M7 18a4.5 4.5 0 0 1-.9-8.9A6 6 0 0 1 17.7 8 4.5 4.5 0 0 1 17 18" />
    <path d="M12 12v9M8.5 15.5 12 12l3.5 3.5" />
  </svg>
);

const FilmIcon = () => (
  <svg
    width={22}
    height={22}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M7 3v18M17 3v18M3 8h4M3 16h4M17 8h4M17 16h4" />
  </svg>
);

/**
 * The video picker: a native file input (so keyboards, screen readers and
 * Playwright use it as usual) under a large drop zone; the zone's label opens
 * the picker on click, and a dragged file lands here. Shows the chosen file's
 * name and size, with Remove.
 */
export function UploadDropZone({
  id,
  file,
  error,
  disabled,
  limitText,
  onChoose,
  inputRef,
}: {
  id: string;
  file: File | null;
  error: string | null;
  disabled: boolean;
  limitText: string;
  onChoose: (file: File | null) => void;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child the pointer crosses; count them so the highlight does not flicker.
  const depth = useRef(0);

  const onDragEnter = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault(); // allows the drop
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault(); // never let the browser open the dropped file instead
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const dropped = event.dataTransfer.files[0];
    if (dropped) onChoose(dropped);
  };

  const className = [
    'upload-drop',
    dragging && 'is-dragging',
    error && 'has-error',
    file && 'has-file',
    disabled && 'is-disabled',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field upload-file-field">
      <span className="upload-field-label" id={`${id}-label`}>
        Video file
      </span>
      <div className={className} onDragEnter={onDragEnter} onDragOver={onDragOver} onDragLeave={onDragLeave} onDrop={onDrop}>
        <input
          ref={inputRef}
          id={id}
          name="video"
          type="file"
          accept="video/*"
          className="upload-file-input"
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint ${id}-chosen ${id}-error`}
          aria-invalid={Boolean(error)}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            // Cleared at once, so picking the same file again after Remove still counts as a change.
            event.target.value = '';
            if (chosen) onChoose(chosen);
          }}
        />
        <label htmlFor={id} className="upload-drop-target">
          <span className="upload-drop-icon">
            <UploadCloudIcon />
          </span>
          <span className="upload-drop-title">
            <span className="upload-drop-pointer">
              {dragging
                ? 'Drop the video to add it'
                : file
                  ? 'Drag another video here to replace it'
                  : 'Drag and drop a video here'}
            </span>
            <span className="upload-drop-touch">{file ? 'Tap to choose a different video' : 'Tap to choose a video'}</span>
          </span>
          <span className="upload-drop-or upload-drop-pointer">
            or <span className="upload-drop-button">{file ? 'choose a different file' : 'choose a file'}</span>
          </span>
          <span id={`${id}-hint`} className="upload-drop-hint">
            MP4, MOV, WebM, MKV and more · up to {limitText}
          </span>
        </label>
        <div id={`${id}-chosen`} className="upload-chosen" hidden={!file}>
          {file && (
            <>
              <span className="upload-chosen-icon">
                <FilmIcon />
              </span>
              <span className="upload-chosen-text">
                <span className="visually-hidden">Chosen file: </span>
                <span className="upload-chosen-name">{file.name}</span>
                <span className="upload-chosen-size">{formatBytes(file.size)}</span>
              </span>
              <button
                type="button"
                className="btn btn-quiet upload-chosen-remove"
                disabled={disabled}
                onClick={() => onChoose(null)}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </button>
            </>
          )}
        </div>
      </div>
      <p id={`${id}-error`} className="field-error">
        {error}
      </p>
    </div>
  );
}
