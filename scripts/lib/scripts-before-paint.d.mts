/** Types for scripts-before-paint.mjs (plain JavaScript, so that lighthouse-audit.mjs can run it in plain Node). */
export interface ScriptsBeforePaint {
  count: number;
  bytes: number;
  observedLcp: number;
}

export function scriptsBeforeLargestPaint(lhr: { audits: Record<string, { details?: unknown }> }): ScriptsBeforePaint | null;
