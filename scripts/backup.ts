/**
 * `npm run backup -- [--out FILE]`: the database (PostgreSQL at DATABASE_URL,
 * or the embedded one in DATA_DIR, server stopped), local media and the
 * generated session key into one archive with a manifest. See
 * docs/operations.md, "Backups and restore", and lib/server/backup/.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig } from '@/lib/config/server';
import { BackupError } from '@/lib/server/backup/archive';
import { createBackup } from '@/lib/server/backup/backup';

const USAGE = 'Usage: npm run backup -- [--out chrysalis-backup-<time>.tar]   (settings: DATA_DIR, DATABASE_URL, MEDIA_S3_*, PG_BIN_DIR)';

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z');
  const out = path.resolve(values.out ?? `chrysalis-backup-${stamp}.tar`);
  const started = Date.now();
  const manifest = await createBackup({ config, out });
  console.log(
    `[backup] wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${manifest.engine}, ${manifest.counts.members} members, ` +
      `${manifest.counts.videos} videos, ${manifest.media.files} media files, ${manifest.files.length + 1} entries with checksums.`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
  // node-postgres and system errors (no such database, connection refused) say it all in their message.
  else if (error instanceof Error && 'code' in error) console.error(`Backup failed: ${error.message}`);
  else console.error('Backup failed:', error);
  process.exit(1);
});
