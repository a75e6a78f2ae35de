import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { asc, sql } from 'drizzle-orm';

import { POST as login } from '@/app/api/auth/login/route';
import { loadConfig } from '@/lib/config/server';
import { installDatabase, queryRows } from '@/lib/db';
import { openDatabase, type DatabaseHandle, type Engine } from '@/lib/db/open';
import { users, videos } from '@/lib/db/schema';
import { ArchiveWriter, extractAndVerify } from '@/lib/server/backup/archive';
import { readKeyFile } from '@/lib/server/backup/encryption';
import { restoreBackup } from '@/lib/server/backup/restore';
import { resetLimiters } from '@/lib/server/rate-limit';
import { setMediaStorage } from '@/lib/server/storage';
import { LocalMediaStorage } from '@/lib/server/storage/local';

import { call, ORIGIN } from '../helpers/api';
import { createScratchDatabase, createTestDatabase, dropScratchDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken, verifiedUploader } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

process.env.SITE_URL = ORIGIN;

const bin = path.join(process.cwd(), 'node_modules', '.bin');

/**
 * Runs npm run backup / restore's entry point as npm does (Node 24 from
 * node_modules/.bin), asynchronously: this process may hold the embedded
 * database's lock, whose refresh must keep running meanwhile.
 */
function runScript(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(bin, 'tsx'),
      ['--conditions=react-server', `scripts/${script}.ts`, ...args],
      { env: { PATH: `${bin}:${process.env.PATH}`, HOME: os.tmpdir(), NODE_ENV: 'test', ...env }, timeout: 180_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Every file under a folder, relative path → SHA-256. */
function checksums(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  if (!existsSync(root)) return result;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    result[path.relative(root, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return result;
}

const SLOW = 300_000;

/** restoreBackup() as the CLI calls it, in this process (the refusals that need no child process). */
function restoreInProcess(from: string, env: Record<string, string | undefined>) {
  return restoreBackup({ config: loadConfig({ ...env, NODE_ENV: 'test' }), from, log: () => undefined });
}

describe.each(ENGINES)('npm run backup and npm run restore on %s', (engine: Engine) => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-backup-'));
  const archive = path.join(work, 'site.tar');
  let source: TestDatabase;
  let sourceOpen = true;
  const scratch: string[] = [];
  let restored: DatabaseHandle | undefined;
  let before: { videos: { id: string; title: string; moderationStatus: string }[]; members: string[] };
  let mediaFile: Buffer;

  /** An empty target: a fresh DATA_DIR, and for PostgreSQL an empty database. */
  async function emptyTarget(name: string) {
    const dataDir = path.join(work, name);
    const databaseUrl = engine === 'postgres' ? await createScratchDatabase('empty') : undefined;
    if (databaseUrl) scratch.push(databaseUrl);
    return { dataDir, databaseUrl, env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } };
  }

  beforeAll(async () => {
    source = await createTestDatabase(engine);
    installDatabase(source);
    resetLimiters();
    const storage = new LocalMediaStorage(source.dataDir);
    setMediaStorage(storage);
    await verifiedMemberToken(source.db, 'bk_alice');
    await verifiedMemberToken(source.db, 'bk_bob');
    const alice = await userId(source.db, 'bk_alice');
    await verifiedUploader(source.db, alice);
    const published = await insertVideo(source.db, alice, { title: 'Velvet morning' });
    const pending = await insertVideo(source.db, alice, { title: 'Quiet hours', moderationStatus: 'pending', publishedAt: null });
    // Media as the pipeline leaves them: the original, the web MP4 and the thumbnail of each video.
    for (const video of [published, pending]) {
      for (const key of [`originals/${video.sourceKey}`, video.webMp4Key!, video.thumbnailKey!]) {
        const file = path.join(work, 'upload.tmp');
        mediaFile = randomBytes(64 * 1024 + 123);
        writeFileSync(file, mediaFile);
        await storage.putFile(key, file);
      }
    }
    writeFileSync(path.join(source.dataDir, 'session-secret'), randomBytes(32).toString('hex'));
    before = {
      videos: await source.db
        .select({ id: videos.id, title: videos.title, moderationStatus: videos.moderationStatus })
        .from(videos)
        .orderBy(asc(videos.id)),
      members: (await source.db.select({ username: users.username }).from(users).orderBy(asc(users.username))).map(
        (row) => row.username,
      ),
    };
  }, SLOW);

  afterAll(async () => {
    await restored?.close();
    setMediaStorage(null);
    if (sourceOpen) await source.destroy();
    for (const url of scratch) await dropScratchDatabase(url);
    rmSync(source.dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }, SLOW);

  if (engine === 'pglite') {
    it(
      'refuses to back up the embedded database while a server holds it, and says what to do',
      async () => {
        // This process has the database open, as a running server would.
        const run = await runScript('backup', ['--out', archive], { DATA_DIR: source.dataDir });
        expect(run.output).toMatch(/in use by a running Chrysalis process/);
        expect(run.output).toMatch(/Stop the server, run npm run backup, and start it again/);
        expect(run.output).not.toMatch(/at .*\.ts:\d+/);
        expect(run.status).toBe(1);
        expect(existsSync(archive)).toBe(false);
        expect(readdirSync(work).filter((name) => name.startsWith('.chrysalis-backup-') || name.endsWith('.partial'))).toEqual(
          [],
        );
      },
      SLOW,
    );
  }

  it(
    'backs the site up and restores it into an empty target: same members (who can log in), videos and media',
    async () => {
      if (engine === 'pglite') {
        await source.close(); // the server stops for the backup
        sourceOpen = false;
      }
      const backup = await runScript('backup', ['--out', archive], {
        DATA_DIR: source.dataDir,
        DATABASE_URL: source.databaseUrl,
      });
      expect(backup.output).toMatch(/wrote .*site\.tar/);
      expect(backup.output).toMatch(/2 members, 2 videos, 6 media files/);
      expect(backup.status).toBe(0);

      const target = await emptyTarget('restored');
      const restore = await runScript('restore', ['--from', archive], target.env);
      expect(restore.output).toMatch(/checksums match/);
      expect(restore.status).toBe(0);

      // A second restore onto it is refused: it is not empty any more.
      await expect(restoreInProcess(archive, target.env)).rejects.toThrow(
        /is not empty\. Restore into an empty target, or add --force/,
      );

      // Open the restored site as its next start would (migrations included) and look around.
      restored = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      installDatabase(restored);
      resetLimiters(); // they hold the database they were made with
      setMediaStorage(new LocalMediaStorage(target.dataDir));
      const after = {
        videos: await restored.db
          .select({ id: videos.id, title: videos.title, moderationStatus: videos.moderationStatus })
          .from(videos)
          .orderBy(asc(videos.id)),
        members: (await restored.db.select({ username: users.username }).from(users).orderBy(asc(users.username))).map(
          (row) => row.username,
        ),
      };
      expect(after).toEqual(before);
      const loggedIn = await call(login, '/api/auth/login', {
        json: { email: 'bk_alice@example.org', password: 'bk_alice-password-1' },
        ip: '198.18.44.1',
      });
      expect(loggedIn.status).toBe(200);
      expect(loggedIn.body.token).toEqual(expect.any(String));

      const media = checksums(path.join(target.dataDir, 'media'));
      expect(Object.keys(media)).toHaveLength(6);
      expect(media).toEqual(checksums(path.join(source.dataDir, 'media')));
      expect(readFileSync(path.join(target.dataDir, 'session-secret'), 'utf8')).toBe(
        readFileSync(path.join(source.dataDir, 'session-secret'), 'utf8'),
      );
      // No staging left behind.
      expect(readdirSync(target.dataDir).filter((name) => name.startsWith('.restore-'))).toEqual([]);
    },
    SLOW,
  );

  it(
    'encrypts with --key-file: no secret or media byte in clear; restores with the key, and refuses a missing or wrong key, a flipped byte or a cut, restoring nothing',
    async () => {
      const sessionKey = readFileSync(path.join(source.dataDir, 'session-secret'), 'utf8');
      // The plain archive shows them, so the checks below have teeth.
      const plain = readFileSync(archive);
      expect(plain.includes(sessionKey)).toBe(true);
      expect(plain.includes(mediaFile.subarray(0, 64))).toBe(true);

      const keyFile = path.join(work, 'backup.key');
      writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
      const encrypted = path.join(work, 'site.tar.enc');
      const backup = await runScript('backup', ['--encrypt', '--key-file', keyFile, '--out', encrypted], {
        DATA_DIR: source.dataDir,
        DATABASE_URL: source.databaseUrl,
      });
      expect(backup.output).toMatch(/2 members, 2 videos, 6 media files, .* encrypted with/);
      expect(backup.status).toBe(0);
      const bytes = readFileSync(encrypted);
      expect(bytes.includes(sessionKey)).toBe(false);
      expect(bytes.includes(mediaFile.subarray(0, 64))).toBe(false);
      for (const clear of ['manifest.json', 'ustar', 'secrets/session-secret', 'database/'])
        expect(bytes.includes(clear)).toBe(false);

      const target = await emptyTarget('from-encrypted');
      const restore = await runScript('restore', ['--from', encrypted, '--key-file', keyFile], target.env);
      expect(restore.output).toMatch(/checksums match/);
      expect(restore.status).toBe(0);
      const handle = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, migrate: false });
      try {
        expect({
          videos: await handle.db
            .select({ id: videos.id, title: videos.title, moderationStatus: videos.moderationStatus })
            .from(videos)
            .orderBy(asc(videos.id)),
          members: (await handle.db.select({ username: users.username }).from(users).orderBy(asc(users.username))).map(
            (row) => row.username,
          ),
        }).toEqual(before);
      } finally {
        await handle.close();
      }
      expect(checksums(path.join(target.dataDir, 'media'))).toEqual(checksums(path.join(source.dataDir, 'media')));
      expect(readFileSync(path.join(target.dataDir, 'session-secret'), 'utf8')).toBe(sessionKey);

      const refusals: [string, Buffer, RegExp, string?][] = [];
      refusals.push(['no key', bytes, /is encrypted: give the key it was made with \(--key-file FILE/]);
      const wrongKey = path.join(work, 'wrong.key');
      writeFileSync(wrongKey, randomBytes(32).toString('hex'), { mode: 0o600 });
      refusals.push(['wrong key', bytes, /The key file does not open .*: it was encrypted with another key/, wrongKey]);
      const flipped = Buffer.from(bytes);
      flipped[Math.floor(bytes.length / 2)]! ^= 0x01;
      refusals.push(['flipped byte', flipped, /is damaged or was altered \(chunk \d+ fails its authentication\)/]);
      const header = 85;
      const chunk = 64 * 1024 + 16;
      refusals.push([
        'cut at a chunk boundary',
        bytes.subarray(0, header + 3 * chunk),
        /is truncated \(it ends before its last chunk\)/,
      ]);
      refusals.push(['cut inside a chunk', bytes.subarray(0, bytes.length - 100), /is damaged or was altered|is truncated/]);
      refusals.push(['plain archive given a key', plain, /is not encrypted, but a key was given/]);
      for (const [what, content, message, key = keyFile] of refusals) {
        const file = path.join(work, `${what.replace(/\W+/g, '-')}.enc`);
        writeFileSync(file, content);
        const empty = await emptyTarget(`from-${what.replace(/\W+/g, '-')}`);
        const config = loadConfig({ ...empty.env, NODE_ENV: 'test' });
        const restoring = restoreBackup({
          config,
          from: file,
          key: what === 'no key' ? undefined : await readKeyFile(key),
          log: () => undefined,
        });
        await expect(restoring).rejects.toThrow(message);
        await expectNothingRestored(empty);
      }

      // Production writes no archive in clear unless told to.
      const refused = path.join(work, 'production.tar');
      const production = await runScript('backup', ['--out', refused], {
        NODE_ENV: 'production',
        DATA_DIR: source.dataDir,
        DATABASE_URL: source.databaseUrl,
        SESSION_SECRET: sessionKey,
      });
      expect(production.output).toMatch(
        /Refusing to write an unencrypted backup with NODE_ENV=production.*--key-file FILE.*--no-encrypt/s,
      );
      expect(production.status).toBe(1);
      expect(existsSync(refused)).toBe(false);
    },
    SLOW,
  );

  it(
    'refuses a truncated or altered archive with a clear message, and restores nothing',
    async () => {
      const bytes = readFileSync(archive);
      const truncated = path.join(work, 'truncated.tar');
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      const target = await emptyTarget('from-truncated');
      const run = await runScript('restore', ['--from', truncated], target.env);
      expect(run.output).toMatch(/is damaged or truncated|has no manifest\.json: it is truncated/);
      expect(run.output).not.toMatch(/at .*\.ts:\d+/);
      expect(run.status).toBe(1);
      await expectNothingRestored(target);

      // One flipped byte inside a media file: caught by its checksum, in-process this time.
      const altered = Buffer.from(bytes);
      const at = altered.indexOf(mediaFile.subarray(0, 64));
      expect(at).toBeGreaterThan(0);
      altered[at + 1000]! ^= 0xff;
      const alteredPath = path.join(work, 'altered.tar');
      writeFileSync(alteredPath, altered);
      const second = await emptyTarget('from-altered');
      await expect(restoreInProcess(alteredPath, second.env)).rejects.toThrow(
        /media\/.* does not match its checksum: the archive is damaged/,
      );
      await expectNothingRestored(second);
    },
    SLOW,
  );

  it(
    'refuses a backup made by a newer version (an unknown migration) or of the other engine, and restores nothing',
    async () => {
      // The real archive, re-packed with one migration this code does not have.
      const unpacked = path.join(work, 'unpacked');
      mkdirSync(unpacked);
      const manifest = await extractAndVerify(archive, unpacked);
      const newer = new ArchiveWriter(path.join(work, 'newer.tar'));
      for (const file of manifest.files) await newer.addFile(file.path, path.join(unpacked, file.path));
      const { files: _files, filesSha256: _sum, ...rest } = manifest;
      await newer.finish({
        ...rest,
        migrations: {
          ...manifest.migrations,
          applied: manifest.migrations.applied + 1,
          latestTag: null,
          latestCreatedAt: 4_102_444_800_000,
          createdAt: [...manifest.migrations.createdAt, 4_102_444_800_000],
        },
      });
      const target = await emptyTarget('from-newer');
      await expect(restoreInProcess(newer.out, target.env)).rejects.toThrow(/made by a newer version of Chrysalis/);
      await expectNothingRestored(target);

      // The other engine: PostgreSQL needs a server to point at (TEST_DATABASE_URL); without it only the PostgreSQL run checks this.
      if (engine === 'pglite' && !process.env.TEST_DATABASE_URL) return;
      const otherEngine = path.join(work, 'other-engine');
      const other =
        engine === 'pglite'
          ? { DATA_DIR: otherEngine, DATABASE_URL: await createScratchDatabase('empty') }
          : { DATA_DIR: otherEngine };
      if (other.DATABASE_URL) scratch.push(other.DATABASE_URL);
      await expect(restoreInProcess(archive, other)).rejects.toThrow(/restore it with the same engine/);
      await expectNothingRestored({ dataDir: otherEngine, databaseUrl: other.DATABASE_URL });
    },
    SLOW,
  );

  async function expectNothingRestored(target: { dataDir: string; databaseUrl?: string }) {
    // The data dir holds nothing (no database, media, staging or lock) …
    expect(existsSync(target.dataDir) ? readdirSync(target.dataDir) : []).toEqual([]);
    // … and the PostgreSQL database has no tables.
    if (target.databaseUrl) {
      const handle = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, migrate: false });
      try {
        const [tables] = await queryRows<{ n: number }>(
          handle.db,
          sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
        );
        expect(tables!.n).toBe(0);
      } finally {
        await handle.close();
      }
    }
    mkdirSync(target.dataDir, { recursive: true });
  }
});
