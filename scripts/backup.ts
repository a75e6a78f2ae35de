/**
 * `npm run backup -- [--out FILE] [--key-file FILE | --no-encrypt]`: the
 * database (PostgreSQL at DATABASE_URL, or the embedded one in DATA_DIR,
 * server stopped), local media and the generated session key into one
 * archive with a manifest, encrypted with the key file when one is given
 * (--key-file or BACKUP_KEY_FILE). With NODE_ENV=production an unencrypted
 * archive is written only with --no-encrypt. See docs/operations.md,
 * "Backups and restore", and lib/server/backup/.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

import { ConfigError, loadConfig, type ServerConfig } from '@/lib/config/server';
import { BackupError } from '@/lib/server/backup/archive';
import { createBackup } from '@/lib/server/backup/backup';
import { readKeyFile } from '@/lib/server/backup/encryption';

const USAGE =
  'Usage: npm run backup -- [--out chrysalis-backup-<time>.tar] [--encrypt] [--key-file FILE | --no-encrypt]\n' +
  '  --key-file FILE   encrypt with the key in FILE (64 hex characters: openssl rand -hex 32); default BACKUP_KEY_FILE\n' +
  '  --encrypt         insist on encryption (fails without a key file)\n' +
  '  --no-encrypt      write a plain tar even with NODE_ENV=production or BACKUP_KEY_FILE set\n' +
  '  (settings: DATA_DIR, DATABASE_URL, MEDIA_S3_*, PG_BIN_DIR, BACKUP_KEY_FILE)';

interface Flags {
  encrypt?: boolean;
  'no-encrypt'?: boolean;
  'key-file'?: string;
}

/** The key file to encrypt with, or undefined for a plain archive; refuses a plain one in production unless asked for. */
function chooseKeyFile(flags: Flags, config: ServerConfig): string | undefined {
  if (flags['no-encrypt']) {
    if (flags.encrypt || flags['key-file'])
      throw new BackupError('--no-encrypt contradicts --encrypt and --key-file: give one or the other.');
    return undefined;
  }
  const keyFile = flags['key-file'] ?? config.backupKeyFile;
  if (keyFile) return keyFile;
  if (flags.encrypt)
    throw new BackupError(
      '--encrypt needs a key: add --key-file FILE (or set BACKUP_KEY_FILE); make one with: (umask 077; openssl rand -hex 32 > FILE)',
    );
  if (config.nodeEnv === 'production') {
    throw new BackupError(
      'Refusing to write an unencrypted backup with NODE_ENV=production: it would hold the session key (which seals sessions and ' +
        "two-factor secrets), password hashes and every member's personal data in clear. Give --key-file FILE (or set BACKUP_KEY_FILE), " +
        'or --no-encrypt if the archive goes straight into storage that encrypts it.',
    );
  }
  return undefined;
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      encrypt: { type: 'boolean' },
      'no-encrypt': { type: 'boolean' },
      'key-file': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const keyFile = chooseKeyFile(values, config);
  const key = keyFile ? await readKeyFile(keyFile, console.warn) : undefined;
  const stamp = new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z');
  const out = path.resolve(values.out ?? `chrysalis-backup-${stamp}.tar${key ? '.enc' : ''}`);
  const started = Date.now();
  const manifest = await createBackup({ config, out, key });
  console.log(
    `[backup] wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${manifest.engine}, ${manifest.counts.members} members, ` +
      `${manifest.counts.videos} videos, ${manifest.media.files} media files, ${manifest.files.length + 1} entries with checksums, ` +
      (key
        ? `encrypted with ${keyFile}.`
        : 'NOT encrypted: it holds the session key, password hashes and personal data in clear.'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
  // node-postgres and system errors (no such database, connection refused) say it all in their message.
  else if (error instanceof Error && 'code' in error) console.error(`Backup failed: ${error.message}`);
  else console.error('Backup failed:', error);
  process.exit(1);
});
