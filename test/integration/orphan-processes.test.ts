import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { isProcessAlive, processStart } from '@/lib/process-owner';
import { resetLimiters } from '@/lib/server/rate-limit';

import { buildIfNeeded } from '../../scripts/lib/build';
import { E2E_PORT, ORIGIN as E2E_ORIGIN } from '../../scripts/lib/e2e-env';
import { commandLine, commandName, killSnapshot, processTree, snapshotTree } from '../../scripts/lib/proc';
import { stopServerProcess, waitForServer } from '../../scripts/lib/server-process';
import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { mediaFixtures } from '../helpers/media';
import { verifiedMemberToken } from '../helpers/members';

/**
 * Issue 33 item 11: a process killed with kill -9 (the OOM killer, a crash) takes what it started with it.
 * Its ffmpeg stops at once instead of transcoding on for half a minute without a parent, and the server
 * under a killed `npm start` stops instead of keeping the port and the database lock, so the next
 * `npm start` right after succeeds (lib/parent-death.ts, docs/operations.md "Crashes and orphans").
 */
const BIN = path.join(process.cwd(), 'node_modules', '.bin');
const media = mediaFixtures();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs: number, detail = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${detail()}`);
    await sleep(100);
  }
}

/** A process as it runs now: its pid with its start time, so a reused pid is never taken for it. */
type Running = { pid: number; start: string };
const running = (pid: number): Running => ({ pid, start: processStart(pid) });
const stillRunning = ({ pid, start }: Running) => isProcessAlive(pid) && processStart(pid) === start;

/** A process's parent pid, from /proc (the command name may hold spaces and parentheses: fields start after the last ')'). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The Node process of a tree that runs a script (Node itself, not a shell or a wrapper in between). */
function processRunning(root: number, script: string): number | undefined {
  return processTree(root).find((pid) => {
    const [program, ...args] = (commandLine(pid) ?? '').split(' ');
    return /(^|\/)node$/.test(program ?? '') && args.includes(script);
  });
}

const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.TEST_DATABASE_URL)
  console.warn('Skipped in part: `npm run worker` needs PostgreSQL; set TEST_DATABASE_URL to run the kill -9 of a worker.');

describeOnPostgres('kill -9 of a worker in the middle of a transcode (skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let dataDir: string;
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    installDatabase(database);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-orphans-'));
    process.env.DATA_DIR = dataDir;
    process.env.SITE_URL = ORIGIN;
    resetLimiters();
  });
  afterAll(async () => {
    if (worker) await stopServerProcess(worker);
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes its ffmpeg with it', async () => {
    const token = await verifiedMemberToken(database.db, 'orphan_uploader');
    const form = new FormData();
    form.append('title', 'Orphan test');
    form.append('category', 'Beta');
    form.append('video', new Blob([readFileSync(media.slowAvi())]), 'slow.avi');
    expect((await call(upload, '/api/videos/upload', { form, bearer: token })).status).toBe(201);

    let output = '';
    worker = spawn(path.join(BIN, 'tsx'), ['--conditions=react-server', 'scripts/worker.ts'], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        NODE_ENV: 'production',
        DATABASE_URL: database.databaseUrl,
        DATA_DIR: dataDir,
        WORKER_POLL_MS: '200',
        SESSION_SECRET: randomBytes(32).toString('hex'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ffmpeg = await until(
      'the worker to start ffmpeg',
      () => {
        if (worker!.exitCode !== null) throw new Error(`the worker exited\n${output}`);
        // The transcode to the web MP4 (libx264), the long run: not a short thumbnail extraction that would end on its own.
        return processTree(worker!.pid!).find(
          (pid) => commandName(pid) === 'ffmpeg' && (commandLine(pid) ?? '').includes('libx264'),
        );
      },
      120_000,
      () => output,
    );
    const transcode = running(ffmpeg);
    // ffmpeg's parent: the worker itself (the Node process under the tsx wrapper), as the OOM killer picks it.
    const workerProcess = parentOf(ffmpeg);
    expect(commandLine(workerProcess)).toMatch(/--import \S*tsx\S*loader\.mjs .*scripts\/worker\.ts$/);

    process.kill(workerProcess, 'SIGKILL');
    try {
      await until(
        'ffmpeg to stop with its worker',
        () => !stillRunning(transcode),
        3_000,
        () => `ffmpeg ${transcode.pid} still runs: ${commandLine(transcode.pid)}`,
      );
    } finally {
      killSnapshot([transcode]);
    }
  }, 240_000);
});

describe('kill -9 of npm start', () => {
  const BUILD_ENV = { PORT: String(E2E_PORT), SITE_URL: E2E_ORIGIN, SITE_NAME: 'Chrysalis' };
  const started: ChildProcess[] = [];
  let dataDir: string;

  beforeAll(() => {
    // The e2e suite's build (as the production-start test makes it): `npm start` then serves it as it is.
    buildIfNeeded({ ...process.env, ...BUILD_ENV });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-orphan-start-'));
  }, 1_200_000);
  afterAll(async () => {
    for (const child of started) killSnapshot(snapshotTree(child.pid!));
    await Promise.all(started.map((child) => stopServerProcess(child)));
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** `npm start` as an operator types it, answering once it is up; with its start script's and its server's processes. */
  async function npmStart() {
    const npm = spawn('npm', ['start'], {
      env: {
        PATH: `${BIN}:${process.env.PATH}`,
        HOME: os.tmpdir(),
        NODE_ENV: 'production',
        ...BUILD_ENV,
        DATA_DIR: dataDir,
        SEED_DEMO: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(npm);
    let output = '';
    npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForServer(`${E2E_ORIGIN}/api/health`, 180_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
    expect(output).toMatch(/production build is up to date/);
    const start = processRunning(npm.pid!, 'scripts/start.ts');
    const server = processRunning(npm.pid!, 'scripts/serve.ts');
    expect({ start, server }).toEqual({ start: expect.any(Number), server: expect.any(Number) });
    return { npm, start: running(start!), server: running(server!), output: () => output };
  }

  const portFree = async () => {
    try {
      await fetch(`${E2E_ORIGIN}/api/health`);
      return false;
    } catch {
      return true;
    }
  };

  it('of its start script stops the server, and the next npm start right after succeeds', async () => {
    const first = await npmStart();
    process.kill(first.start.pid, 'SIGKILL');
    await until(
      'the server to stop with npm start',
      () => !stillRunning(first.server),
      10_000,
      () => `server ${first.server.pid} still runs`,
    );
    expect(await portFree()).toBe(true);

    const second = await npmStart();
    expect(second.output()).not.toMatch(/already open in another process|waiting for the lock/);
    expect((await fetch(`${E2E_ORIGIN}/api/health`)).status).toBe(200);
    await stopServerProcess(second.npm);
    await until('the second server to stop', () => !stillRunning(second.server), 10_000);
  }, 600_000);

  it('of npm itself stops the start script and the server', async () => {
    const run = await npmStart();
    process.kill(run.npm.pid!, 'SIGKILL');
    await until(
      'npm start and its server to stop with npm',
      () => !stillRunning(run.start) && !stillRunning(run.server),
      10_000,
      () => `start ${stillRunning(run.start)}, server ${stillRunning(run.server)}`,
    );
    expect(await portFree()).toBe(true);
  }, 300_000);
});
