import 'server-only';

import { ConfigError, getConfig } from '@/lib/config/server';
import { getDatabaseHandle } from '@/lib/db';
import { DatabaseLockedError } from '@/lib/db/open';

/** Start-up checks for the web process; exits the process when they fail. */
export async function startServer(): Promise<void> {
  try {
    const config = getConfig();
    const { engine } = await getDatabaseHandle();
    const where = engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
    console.log(`[chrysalis] ${config.siteName} ready: ${config.siteUrl} · database: ${where}, migrations applied`);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
      console.error(`[chrysalis] ${error.message}`);
    } else {
      console.error('[chrysalis] start-up failed:', error);
    }
    process.exit(1);
  }
}
