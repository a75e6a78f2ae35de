import { addBusinessDays } from '@/lib/format/business-days';
import { HOLD_DUE_HOURS, HOLD_REPORT_REASONS, REPORT_DUE_BUSINESS_DAYS_DEFAULT, type ReportReason } from '@/lib/report-reasons';
import type { DecisionGround } from '@/lib/trust/grounds';

/*
 * What a report's reason sets in motion on the server: the rule a decision
 * on it rests on, whether it hides a video at once, and when it is due
 * (decision 016). A leaf, like keys.ts: filing and deciding both read it.
 */

/**
 * The rule a removal after a report rests on, from the report's reason, when
 * the admin names none: the statement of reasons cites it (DSA Art. 17).
 */
export const REPORT_REASON_GROUNDS: Record<ReportReason, DecisionGround> = {
  underage: 'law-child-protection',
  non_consensual: 'law-take-it-down',
  illegal: 'law-illegal-content',
  copyright: 'law-copyright-dmca',
  harassment: 'standards-behaviour',
  spam: 'standards-what-you-can-share',
  other: 'standards-prohibited-content',
};

export const isHoldReason = (reason: ReportReason) => HOLD_REPORT_REASONS.includes(reason);

/** When a report is due: 48 hours for holds, otherwise 7 business days. */
export function dueAtFor(reason: ReportReason, now: Date): Date {
  return isHoldReason(reason) ? new Date(now.getTime() + HOLD_DUE_HOURS * 3_600_000) : addBusinessDays(now, REPORT_DUE_BUSINESS_DAYS_DEFAULT);
}
