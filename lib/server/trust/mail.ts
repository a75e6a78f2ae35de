import 'server-only';

import { getConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { linkEmail, sendMail } from '../mail';
import { tryConsume } from '../rate-limit';

/**
 * Mail about notices and takedowns (acknowledgements, outcomes, admin
 * alerts, counter-notices forwarded): queued in the transaction that made
 * the change, so a message goes out only for what was stored, and sent by
 * the worker, so a slow mail server never holds up a notice.
 */
export const TRUST_EMAIL_JOB = 'trust-email';

export interface TrustEmail {
  to: string;
  subject: string;
  lines: string[];
  action: string;
  /** A path on this site or an absolute URL. */
  url: string;
  footer?: string;
}

/**
 * One inbox however its address is spelled: lower case, without a +tag
 * (jo+1@ and jo+2@ reach the same person), for the per-recipient limit.
 */
function recipientKey(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).split('+')[0];
  return `${local}${email.slice(at)}`.toLowerCase();
}

/**
 * Whether an acknowledgement may go to an address a visitor typed (a notice,
 * a DMCA notice, a withdrawal of consent). Anyone can type anyone's address,
 * so these mails carry only our fixed text and a reference, never what the
 * sender typed (lib/server/trust/*.ts), and each inbox gets at most
 * LIMITS.acknowledgementsPerRecipient a day, whoever sends. Counted for
 * every submission, whatever becomes of it, and the answer on screen is the
 * same when the budget is spent: the limit tells the sender nothing.
 */
export async function mayAcknowledge(email: string): Promise<boolean> {
  return tryConsume('acknowledgementsPerRecipient', recipientKey(email));
}

export async function queueTrustEmail(db: Database, email: TrustEmail): Promise<void> {
  await enqueue(db, TRUST_EMAIL_JOB, { ...email });
}

const sendTrustEmail: JobHandler = async (job) => {
  const email = job.payload as unknown as TrustEmail;
  if (typeof email?.to !== 'string' || !Array.isArray(email.lines)) return;
  const { siteUrl, siteName } = getConfig();
  await sendMail(
    linkEmail({
      to: email.to,
      subject: email.subject,
      greeting: 'Hello,',
      lines: email.lines,
      action: email.action,
      url: email.url.startsWith('/') ? `${siteUrl}${email.url}` : email.url,
      footer:
        email.footer ??
        `You receive this because of a notice or takedown on ${siteName}. Reply to this address if anything is wrong.`,
    }),
  );
};

export const TRUST_MAIL_JOB_HANDLERS: Record<string, JobHandler> = { [TRUST_EMAIL_JOB]: sendTrustEmail };
