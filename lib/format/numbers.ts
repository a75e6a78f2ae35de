const COMPACT_UNITS = ['', 'K', 'M', 'B', 'T'] as const;

/**
 * 1234 → "1.2K", 2500000 → "2.5M": compact counts for cards, exactly as
 * `Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })` writes whole numbers (a property test
 * holds them equal). By hand because a card's first count would build that formatter, whose compact-notation data
 * cost 60 ms of home's hydration on a phone (Lighthouse's 4x CPU slow-down); integer arithmetic so that halves
 * round up as Intl's decimal arithmetic does (1150 is "1.2K", where 1.15 in binary is just below).
 */
export function compactCount(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0 || value * 10 > Number.MAX_SAFE_INTEGER) return compactIntl(value);
  let unit = 0;
  while (unit < COMPACT_UNITS.length - 1 && value >= 1000 ** (unit + 1)) unit += 1;
  let tenths = Math.floor((value * 10 + 1000 ** unit / 2) / 1000 ** unit);
  // 999,950 rounds to 1000.0K, which Intl writes as the next unit: 1M.
  if (tenths >= 10_000 && unit < COMPACT_UNITS.length - 1) {
    unit += 1;
    tenths = Math.floor((value * 10 + 1000 ** unit / 2) / 1000 ** unit);
  }
  const whole = Math.floor(tenths / 10);
  return `${unit === 0 ? value : tenths % 10 ? `${whole}.${tenths % 10}` : whole}${COMPACT_UNITS[unit]}`;
}

let compactFormat: Intl.NumberFormat | undefined;
/** Fractions, negatives and the unsafe range (never a count of ours), by Intl itself. */
function compactIntl(value: number): string {
  compactFormat ??= new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  return compactFormat.format(value);
}

// Made on first use and kept: building an Intl formatter costs about a millisecond of a phone's main thread.
let exact: Intl.NumberFormat | undefined;

/** 12345 → "12,345": exact counts for admins. */
export function formatCount(value: number): string {
  exact ??= new Intl.NumberFormat('en-US');
  return exact.format(value);
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
