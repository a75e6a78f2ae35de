/**
 * What can be reported and why: the one list of reasons and their labels.
 * The database's column (lib/db/schema.ts), the validation schema
 * (lib/validation/community.ts), every report dialog (video, comment,
 * profile) and the admin queue all read it from here. No imports, so the
 * browser bundle pulls in neither Drizzle nor zod for it.
 */

export const REPORT_REASONS = ['underage', 'non_consensual', 'illegal', 'copyright', 'harassment', 'spam', 'other'] as const;
export const REPORT_TARGETS = ['video', 'comment', 'profile'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export type ReportTargetType = (typeof REPORT_TARGETS)[number];

/** Plain-language labels and hints for the report dialog, in the order shown. */
export const REPORT_REASON_LABELS: Record<ReportReason, { label: string; hint: string }> = {
  underage: { label: 'Involves someone under 18', hint: 'Someone who is, looks or is said to be a minor.' },
  non_consensual: {
    label: 'Without someone’s consent',
    hint: 'Someone did not agree to be filmed, to what happens, or to it being shared.',
  },
  illegal: { label: 'Something illegal', hint: 'Violence, threats, drugs for sale or other crimes.' },
  copyright: {
    label: 'Someone else’s work, used without permission',
    hint: 'Your video, picture or text, or one you represent.',
  },
  harassment: { label: 'Harassment, hate or bullying', hint: 'Targeting someone, slurs, outing or threats.' },
  spam: { label: 'Spam or scam', hint: 'Advertising, misleading links or fake accounts.' },
  other: { label: 'Something else', hint: 'Tell us what is wrong in the details box.' },
};

/** Reasons moderators look at first: possible harm to a person, and crime. */
export const URGENT_REPORT_REASONS: readonly ReportReason[] = ['underage', 'non_consensual', 'illegal'];

/**
 * Reasons that hide a video at once and must be decided within 48 hours
 * (TAKE IT DOWN Act for intimate images shared without consent; minors
 * because nothing is more urgent). One rule for in-app reports and public
 * notices (decision 016).
 */
export const HOLD_REPORT_REASONS: readonly ReportReason[] = ['non_consensual', 'underage'];
export const HOLD_DUE_HOURS = 48;
/** Reports and notices on anything else are due this many business days after they arrive. */
export const REPORT_DUE_BUSINESS_DAYS_DEFAULT = 7;

/** The reasons the public notice form offers (copyright goes to the DMCA form). */
export const NOTICE_REASONS = [
  'non_consensual',
  'underage',
  'copyright',
  'illegal',
  'other',
] as const satisfies readonly ReportReason[];
export type NoticeReason = (typeof NOTICE_REASONS)[number];
