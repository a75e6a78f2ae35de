/** 1234 → "1.2K", 2500000 → "2.5M": compact counts for cards. */
export function compactCount(value: number): string {
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

/** 12345 → "12,345": exact counts for admins. */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('en-US').format(value);
}

/** "1 view" / "1.2K views". */
export function countLabel(value: number, singular: string, plural = `${singular}s`): string {
  return `${compactCount(value)} ${value === 1 ? singular : plural}`;
}

/** 75.4 → "1:15", 3725 → "1:02:05". */
export function formatDuration(totalSeconds: number | null): string | null {
  if (totalSeconds === null || !Number.isFinite(totalSeconds) || totalSeconds < 0) return null;
  const seconds = Math.round(totalSeconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** 75.4 → "PT1M15S" (ISO 8601, for VideoObject.duration). */
export function isoDuration(totalSeconds: number | null): string | undefined {
  if (totalSeconds === null || !Number.isFinite(totalSeconds)) return undefined;
  const seconds = Math.max(1, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}
