import 'server-only';

import { PASSWORD_RESET_JOB_HANDLERS } from '../accounts/password-reset';
import { PURGE_JOB_HANDLERS } from '../deletion/purge';
import { DEMO_JOB_HANDLERS } from '../demo/jobs';
import { EXPORT_JOB_HANDLERS } from '../exports';
import { MAINTENANCE_JOB_HANDLERS } from '../maintenance';
import { DECISION_EMAIL_JOB_HANDLERS } from '../trust/statements';
import { PREVIEWS_JOB_HANDLERS } from '../videos/previews-backfill';
import { JOB_HANDLERS as VIDEO_JOB_HANDLERS } from '../videos/processing';
import { SEARCH_JOB_HANDLERS } from '../videos/search-refresh';
import { THUMBNAIL_JOB_HANDLERS } from '../videos/thumbnail-backfill';
import { VERIFICATION_JOB_HANDLERS } from '../verification/retention';
import { COPYRIGHT_JOB_HANDLERS } from '../trust/copyright';
import { TRUST_MAIL_JOB_HANDLERS } from '../trust/mail';
import { VIP_JOB_HANDLERS } from '../vip/expiry';

import { RETENTION_JOB_HANDLERS } from './retention';
import type { JobHandler } from './worker';

/** Every job type the workers run, by name: the embedded server and `npm run worker` both take theirs from here. */
export const ALL_JOB_HANDLERS: Record<string, JobHandler> = {
  ...VIDEO_JOB_HANDLERS,
  ...THUMBNAIL_JOB_HANDLERS,
  ...PREVIEWS_JOB_HANDLERS,
  ...SEARCH_JOB_HANDLERS,
  ...DEMO_JOB_HANDLERS,
  ...VIP_JOB_HANDLERS,
  ...MAINTENANCE_JOB_HANDLERS,
  ...PASSWORD_RESET_JOB_HANDLERS,
  ...PURGE_JOB_HANDLERS,
  ...EXPORT_JOB_HANDLERS,
  ...TRUST_MAIL_JOB_HANDLERS,
  ...COPYRIGHT_JOB_HANDLERS,
  ...DECISION_EMAIL_JOB_HANDLERS,
  ...VERIFICATION_JOB_HANDLERS,
  ...RETENTION_JOB_HANDLERS,
};
