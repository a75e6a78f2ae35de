/**
 * Performer records (decision 015): the words and date rules the upload
 * form, the API and the moderators' view share. No imports: the browser
 * bundle reads it.
 */

/** The statements of the in-app release; each must be ticked. Ids are stored, the words are shown. */
export const RELEASE_STATEMENTS = [
  { id: 'adult', text: 'I am 18 or older.' },
  { id: 'filmed', text: 'I agreed to be filmed.' },
  { id: 'publication', text: 'I agree to this video being published on Chrysalis.' },
  { id: 'withdrawal', text: 'I know I can withdraw my consent at any time through the public form at /withdraw-consent.' },
] as const;
export type ReleaseStatementId = (typeof RELEASE_STATEMENTS)[number]['id'];

/** At most this many co-performers per video (each brings an ID and maybe a release: the request stays a sane size). */
export const MAX_CO_PERFORMERS = 10;

/** The documents of one save together, in bytes (the API's form cap). */
export const MAX_PERFORMER_FORM_BYTES = 40 * 1024 * 1024;

export const PERFORMER_MESSAGES = {
  nobody: 'List everyone who appears in the video: choose "Only me", add a co-performer, or both.',
  recordedOn: 'Enter the date the video was recorded.',
  recordedOnFuture: 'The recording date cannot be in the future.',
  recordedOnPast: 'Enter a recording date after 1 January 1900.',
  tooMany: `You can list up to ${MAX_CO_PERFORMERS} co-performers per video.`,
  tooLarge: 'The documents together must be 40 MB or smaller. Use smaller photos or PDFs.',
  locked:
    'This video is public, so its performer records can no longer be changed. If they are wrong, delete the video and upload it again with the right records.',
  withdrawalOpen:
    'A performer has withdrawn consent for this video. The records cannot be changed until an admin has reviewed the withdrawal.',
} as const;

/** Whether a YYYY-MM-DD string is a real calendar date. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * Whole years from a date of birth to a day, both YYYY-MM-DD, as a birthday
 * counts them: the birthday itself is the day the year is complete (someone
 * born on 29 February turns a year older on 1 March in other years, the
 * cautious reading).
 */
export function ageOn(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * The latest date that is today somewhere on Earth (UTC+14): a recording
 * made "today" by someone east of us is not in the future.
 */
export function latestToday(now = Date.now()): string {
  return new Date(now + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** How a performer is named in messages: the stage name, else the legal name, else their place in the list. */
export function performerLabel(performer: { stageName?: string | null; legalName?: string | null }, index: number): string {
  return performer.stageName?.trim() || performer.legalName?.trim() || `Co-performer ${index + 1}`;
}
