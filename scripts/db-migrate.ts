/** `npm run db:migrate`: apply pending migrations to the configured database and exit. */
import { ConfigError, loadConfig } from '@/lib/config/server';
import { DatabaseLockedError, openDatabase } from '@/lib/db/open';

async function main() {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await handle.close();
  const where = handle.engine === 'pglite' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`Migrations applied to ${where}.`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) console.error(error.message);
  else console.error('Migration failed:', error);
  process.exit(1);
});
