import 'server-only';

import { ConfigError, getConfig } from '@/lib/config/server';
import { getDatabaseHandle } from '@/lib/db';
import { DatabaseLockedError } from '@/lib/db/open';

import { ensureAdmin } from './accounts';

/** Start-up checks for the web process; exits the process when they fail. */
export async function startServer(): Promise<void> {
  try {
    const config = getConfig();
    const { engine } = await getDatabaseHandle();
    const where = engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
    console.log(`[chrysalis] ${config.siteName} ready: ${config.siteUrl} · database: ${where}, migrations applied`);
    const admin = await ensureAdmin();
    if (admin === 'created' || admin === 'promoted') console.log(`[chrysalis] admin account ${config.admin!.email} ${admin}`);
    if (admin === 'missing') {
      console.log(
        '[chrysalis] there is no admin account yet. To create one, start with ADMIN_USERNAME, ADMIN_EMAIL and ' +
          'ADMIN_PASSWORD (12+ characters) set, e.g. ADMIN_USERNAME=admin ADMIN_EMAIL=you@example.org ADMIN_PASSWORD=… npm start',
      );
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
      console.error(`[chrysalis] ${error.message}`);
    } else {
      console.error('[chrysalis] start-up failed:', error);
    }
    process.exit(1);
  }
}
