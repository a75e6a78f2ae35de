/**
 * `npm run restore -- --from FILE [--force]`: a backup from npm run backup
 * into an empty target (DATABASE_URL, or the embedded database in DATA_DIR;
 * media into DATA_DIR/media). The archive is checked whole before anything is
 * written; --force replaces a database or media that is already there. See
 * docs/operations.md, "Backups and restore", and lib/server/backup/.
 */
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { BackupError } from '@/lib/server/backup/archive';
import { restoreBackup } from '@/lib/server/backup/restore';

const USAGE = 'Usage: npm run restore -- --from chrysalis-backup-<time>.tar [--force]   (settings: DATA_DIR, DATABASE_URL, MEDIA_S3_*, PG_BIN_DIR)';

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help || !values.from) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  await restoreBackup({ config: loadConfig(), from: values.from, force: values.force ?? false });
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
  // node-postgres and system errors (no such database, connection refused) say it all in their message.
  else if (error instanceof Error && 'code' in error) console.error(`Restore failed: ${error.message}`);
  else console.error('Restore failed:', error);
  process.exit(1);
});
