import { percentOf, progressLabel } from '@/lib/client/format';

/** The upload's progress bar with its words: "12.3 MB of 80.0 MB · 15%". */
export function UploadProgressBar({
  loaded,
  total,
  label = 'Upload progress',
}: {
  loaded: number;
  total: number;
  label?: string;
}) {
  const percent = percentOf(loaded, total);
  const text = progressLabel(loaded, total);
  return (
    <div className="upload-progress">
      <progress className="upload-bar" max={100} value={percent} aria-label={label} aria-valuetext={text} />
      <p className="upload-progress-text">{text}</p>
    </div>
  );
}
