import 'server-only';

import { getConfig } from '@/lib/config/server';
import type { Database } from '@/lib/db';

import { enqueue } from '../jobs/queue';
import type { JobHandler } from '../jobs/worker';
import { linkEmail, sendMail } from '../mail';

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
      footer: email.footer ?? `You receive this because of a notice or takedown on ${siteName}. Reply to this address if anything is wrong.`,
    }),
  );
};

export const TRUST_MAIL_JOB_HANDLERS: Record<string, JobHandler> = { [TRUST_EMAIL_JOB]: sendTrustEmail };
