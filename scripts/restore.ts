/**
 * `npm run restore -- --from FILE [--key-file FILE] [--force]`: a backup from
 * npm run backup into an empty target (DATABASE_URL, or the embedded database
 * in DATA_DIR; media into DATA_DIR/media). The archive is checked whole
 * (decrypted and authenticated, when encrypted) before anything is written;
 * --force replaces a database or media that is already there. See
 * docs/operations.md, "Backups and restore", and lib/server/backup/.
 */
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { BackupError } from '@/lib/server/backup/archive';
import { readKeyFile } from '@/lib/server/backup/encryption';
import { restoreBackup } from '@/lib/server/backup/restore';

const USAGE =
  'Usage: npm run restore -- --from chrysalis-backup-<time>.tar[.enc] [--key-file FILE] [--force]\n' +
  '  --key-file FILE   the key an encrypted backup was made with; default BACKUP_KEY_FILE\n' +
  '  (settings: DATA_DIR, DATABASE_URL, MEDIA_S3_*, PG_BIN_DIR, BACKUP_KEY_FILE)';

async function main() {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, 'key-file': { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.from) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  const config = loadConfig();
  const keyFile = values['key-file'] ?? config.backupKeyFile;
  const key = keyFile ? await readKeyFile(keyFile, console.warn) : undefined;
  await restoreBackup({ config, from: values.from, force: values.force ?? false, key });
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
  // node-postgres and system errors (no such database, connection refused) say it all in their message.
  else if (error instanceof Error && 'code' in error) console.error(`Restore failed: ${error.message}`);
  else console.error('Restore failed:', error);
  process.exit(1);
});
