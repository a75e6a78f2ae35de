/** The transparency report's shape (DSA Art. 15 and 24): counts per half-year, as the page and tests read them. No imports: shared with the browser. */

export interface HalfYearReport {
  /** "2026-H2". */
  key: string;
  /** "July to December 2026". */
  label: string;
  /** ISO dates: the first day of the half-year, and the first day after it. */
  start: string;
  end: string;
  /** The half-year is still running (the counts are so far). */
  current: boolean;
  notices: { total: number; byReason: Record<string, number>; bySource: Record<string, number> | null };
  actions: { total: number; automated: number; human: number; byAction: Record<string, { automated: number; human: number }> };
  /** Median hours from a report or notice to its resolution (removed or dismissed); null when none was resolved. */
  medianHoursToAction: number | null;
  appeals: { received: number; open: number; upheld: number; reversed: number; medianHoursToDecision: number | null };
}

export interface TransparencyReport {
  generatedAt: string;
  periods: HalfYearReport[];
}

/** The half-year a moment falls in, in UTC. */
export function halfYearOf(date: Date): { year: number; half: 1 | 2 } {
  return { year: date.getUTCFullYear(), half: date.getUTCMonth() < 6 ? 1 : 2 };
}

export function halfYearBounds(year: number, half: 1 | 2): { key: string; label: string; start: Date; end: Date } {
  const start = new Date(Date.UTC(year, half === 1 ? 0 : 6, 1));
  const end = half === 1 ? new Date(Date.UTC(year, 6, 1)) : new Date(Date.UTC(year + 1, 0, 1));
  return { key: `${year}-H${half}`, label: half === 1 ? `January to June ${year}` : `July to December ${year}`, start, end };
}
