/** "Download my data": the messages members see, shared by the settings section, the API and tests. */
import { z } from '@/lib/validation/zod';

/** How long a finished export can be downloaded. */
export const DATA_EXPORT_DAYS = 7;
/**
 * How long a ready export must be before a fresh one can replace it: a
 * member who uploaded since can get their new data the next day, while one
 * member cannot make the server copy all their originals over and over.
 */
export const DATA_EXPORT_RENEW_HOURS = 24;

export const DATA_EXPORT_MESSAGES = {
  requested: 'We are preparing your data. We will email you when it is ready to download.',
  alreadyPending: 'An export is already being prepared.',
  /** {date} is when a fresh one can be asked for (DATA_EXPORT_RENEW_HOURS after it became ready). */
  alreadyReady: 'Your data export is ready to download. You can ask for a fresh one from {date}.',
  failed: 'We could not prepare your data export. Please try again.',
  notFound: 'This download does not exist or has expired. You can ask for a new export in Settings.',
} as const;

/** The date a member reads in messages and the settings section, e.g. "2 December 2026, 14:05 UTC". */
export function exportDateText(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return `${date.toLocaleString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' })} UTC`;
}

/** `{exportId}` of /data-export/{exportId}: checked by the service, so anything that is not one of the caller's exports is the same 404. */
export const dataExportParamsSchema = z.object({ exportId: z.string() });
