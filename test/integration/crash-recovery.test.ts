import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { installDatabase } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { jobs } from '@/lib/db/schema';
import { ownerTag } from '@/lib/process-owner';
import { claim, enqueue } from '@/lib/server/jobs/queue';
import { recoverAfterCrash } from '@/lib/server/recovery';
import { sweepQuarantine } from '@/lib/server/videos/quarantine';

import { ORIGIN } from '../helpers/api';
import { copyPgliteTemplate, createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { captureLogs } from '../helpers/logs';

/**
 * What a restart after kill -9 finds and clears without waiting: the
 * embedded database's lock, partial uploads, jobs held by dead workers and
 * their work folders. (test/integration/crash-restart.test.ts does the
 * same to a real server.)
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-crash-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const tsx = path.join(process.cwd(), 'node_modules', '.bin', 'tsx');

/** The pid of a process that has exited (a crashed owner). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const longAgo = new Date(Date.now() - 60_000);

describe('the embedded database lock after kill -9', () => {
  it('is taken over at once when its owner is gone', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-crash-lock-'));
    copyPgliteTemplate(directory);
    const script = path.join(directory, 'hold.ts');
    writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(path.join(process.cwd(), 'lib/db/open.ts'))};\n` +
        `openDatabase({ dataDir: ${JSON.stringify(directory)} }).then(() => console.log('holding', process.pid));\nsetInterval(() => {}, 1000);\n`,
    );
    let ownerPid = 0;
    const holder = spawn(tsx, ['--conditions=react-server', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'test' },
    });
    try {
      // The process that holds the lock is tsx's child, which says its pid.
      ownerPid = await new Promise<number>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => {
          const pid = /holding (\d+)/.exec(chunk.toString())?.[1];
          if (pid) resolve(Number(pid));
        });
        holder.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
      });
      process.kill(ownerPid, 'SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
      // As if it died right after refreshing its lock (it does every 2 s): proper-lockfile would wait 10 s for that to go stale.
      const now = new Date();
      utimesSync(path.join(directory, 'pglite.lock'), now, now);
      // proper-lockfile alone would wait until the lock is 10 s stale; the owner tag says its process is gone.
      const logs = captureLogs();
      const reopened = await openDatabase({ dataDir: directory }).finally(() => logs.restore());
      await reopened.close();
      const lines = logs.records.map((record) => record.msg);
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`lock was left by process ${ownerPid}, which is gone; taking it over`)),
      );
      expect(lines).not.toContainEqual(expect.stringMatching(/waiting for the lock/));
    } finally {
      holder.kill('SIGKILL');
      try {
        if (ownerPid) process.kill(ownerPid, 'SIGKILL');
      } catch {
        // already gone
      }
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('partial uploads of a killed server', () => {
  it('go at start when their writer is gone; uploads of live processes stay', async () => {
    const quarantine = path.join(dataDir, 'quarantine');
    mkdirSync(quarantine, { recursive: true });
    const dead = `${randomUUID()}.${ownerTag(deadPid())}.upload`;
    const mine = `${randomUUID()}.${ownerTag()}.upload`;
    const untagged = 'older-version.upload';
    for (const name of [dead, mine, untagged]) writeFileSync(path.join(quarantine, name), Buffer.alloc(1024, 1));
    expect(await sweepQuarantine()).toBe(1);
    expect(readdirSync(quarantine).sort()).toEqual([mine, untagged].sort());
  });
});

describe.each(ENGINES)('start-up recovery of jobs on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
  }, 180_000);
  afterAll(() => database.destroy());

  it('makes jobs of dead workers due at once and removes work folders no live job owns', async () => {
    const [killed, alive, none] = [randomUUID(), randomUUID(), randomUUID()];
    const killedJob = (await enqueue(database.db, 'process-video', { videoId: killed }))!;
    const aliveJob = (await enqueue(database.db, 'package-hls', { videoId: alive }))!;
    // Claimed by a worker of a server killed mid-transcode, and by a worker still running (this test's parent process).
    expect(await claim(database.db, `${os.hostname()}:${deadPid()}:deadbeef`, ['process-video'], 60_000)).toMatchObject({
      id: killedJob.id,
    });
    expect(await claim(database.db, `${os.hostname()}:${process.ppid}:a11ce000`, ['package-hls'], 60_000)).toMatchObject({
      id: aliveJob.id,
    });

    const work = path.join(dataDir, 'work');
    rmSync(work, { recursive: true, force: true });
    const folders = [killed, `${killed}-hls`, alive, `${alive}-hls`, none, 'exports', 's3-cache'];
    for (const folder of folders) {
      mkdirSync(path.join(work, folder, 'hls'), { recursive: true });
      writeFileSync(path.join(work, folder, 'hls', 'segment.ts'), 'partial');
      utimesSync(path.join(work, folder), longAgo, longAgo);
    }

    expect(await recoverAfterCrash(database.db)).toEqual({ releasedJobs: 1, removedFolders: 3 });
    expect(readdirSync(work).sort()).toEqual([alive, `${alive}-hls`, 'exports', 's3-cache'].sort());
    // Due now, not when the dead worker's 60 s lease would have run out; the live one is untouched.
    expect(await claim(database.db, 'restarted', ['process-video', 'package-hls'], 60_000)).toMatchObject({
      id: killedJob.id,
      attempts: 2,
    });
    const [stillHeld] = await database.db.select().from(jobs).where(eq(jobs.id, aliveJob.id));
    expect(stillHeld).toMatchObject({ status: 'running', lockedBy: `${os.hostname()}:${process.ppid}:a11ce000` });
  });
});
