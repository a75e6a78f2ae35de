import { request } from '@playwright/test';

import { adminToken } from './api';
import { ORIGIN } from '../scripts/lib/e2e-env';

/**
 * Runs once, after the e2e server is up and before any test: enrols the
 * bootstrap admin in two-factor and logs it in with a code (decision 018),
 * so no test pays for that under its own timeout. The state lands in the
 * e2e data dir, which the server wipes when it starts.
 */
export default async function globalSetup() {
  const context = await request.newContext({ baseURL: ORIGIN });
  try {
    await adminToken(context);
  } finally {
    await context.dispose();
  }
}
