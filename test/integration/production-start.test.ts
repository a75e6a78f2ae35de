import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { installDatabase } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';

import { isBuildCurrent } from '../../scripts/lib/build';
import { E2E_PORT, ORIGIN } from '../../scripts/lib/e2e-env';
import { killSnapshot, snapshotTree } from '../../scripts/lib/proc';
import { startServerProcess, stopServerProcess, waitForServer } from '../../scripts/lib/server-process';
import { copyPgliteTemplate } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

/**
 * What an operator does with a real server, in real processes: `npm start`
 * without ffmpeg, a production install without dev dependencies, and a
 * kill -9 mid-upload and mid-transcode followed by an immediate restart.
 *
 * The production build is made with the e2e suite's settings (port and
 * SITE_URL from scripts/lib/e2e-env.ts), so `npm test` builds once for both.
 */
const ROOT = process.cwd();
const BIN = path.join(ROOT, 'node_modules', '.bin');
const BUILD_ENV = { PORT: String(E2E_PORT), SITE_URL: ORIGIN, SITE_NAME: 'Chrysalis' };
const media = mediaFixtures();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** A child's stdout and stderr, as one growing text. */
function capture(child: ChildProcess): { text: () => string } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { text: () => output };
}

function serverEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: `${BIN}:${process.env.PATH}`,
    HOME: os.tmpdir(),
    NODE_ENV: 'production',
    ...BUILD_ENV,
    DATA_DIR: dataDir,
    SEED_DEMO: '0',
  };
}

describe('npm start without ffmpeg', () => {
  it('stops before building and says what to install', () => {
    // node_modules/.bin has Node and tsx but no ffmpeg, as on a machine where it was never installed.
    const run = spawnSync(path.join(BIN, 'tsx'), ['--conditions=react-server', 'scripts/start.ts'], {
      env: { PATH: BIN, HOME: os.tmpdir(), NODE_ENV: 'production', DATA_DIR: path.join(os.tmpdir(), 'chrysalis-no-ffmpeg') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(/ffmpeg and ffprobe are not installed .*apt-get install ffmpeg/);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/next build/);
  });
});

describe('a production server', () => {
  let builtByNpmRunBuild = false;
  beforeAll(() => {
    // The build every test here serves, made by `npm run build` (as docs/operations.md tells an operator) when the one
    // on disk is missing or stale, as on every CI run: one build, which the test below checks `npm start` trusts.
    if (isBuildCurrent({ ...process.env, ...BUILD_ENV })) return;
    const build = spawnSync('npm', ['run', 'build'], {
      env: { ...process.env, ...BUILD_ENV },
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 1_200_000,
    });
    expect(build.status).toBe(0);
    builtByNpmRunBuild = true;
  }, 1_200_000);

  it('trusts the build `npm run build` made: its stamp matches, so npm start serves it without building again', () => {
    // A current build on disk from an earlier run (a developer's second run) says nothing about `npm run build`; CI always builds here.
    if (!builtByNpmRunBuild)
      return console.warn(
        'The build on disk was current already: `npm run build` was not run this time (it is on a fresh checkout, as in CI).',
      );
    expect(isBuildCurrent({ ...process.env, ...BUILD_ENV })).toBe(true);
  });

  it('installs without dev dependencies and starts: npm ci --omit=dev && npm start', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-prod-install-'));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-prod-data-'));
    let server: ChildProcess | null = null;
    try {
      // The tracked files as a clean clone has them (modification times kept, which the build's fingerprint reads)…
      const tracked = spawnSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
        .stdout.split('\0')
        .filter((file) => file && existsSync(file));
      expect(spawnSync('cp', ['-p', '--parents', '-t', copy, ...tracked]).status).toBe(0);
      // …plus the build made above from the same files and settings, as an operator builds once and deploys it.
      const built = path.join(ROOT, '.next');
      cpSync(built, path.join(copy, '.next'), {
        recursive: true,
        preserveTimestamps: true,
        filter: (source) => source !== path.join(built, 'cache'),
      });
      const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: copy,
        // NODE_ENV=production alone makes npm omit dev dependencies too.
        env: { ...process.env, NODE_ENV: 'production' },
        encoding: 'utf8',
        timeout: 600_000,
      });
      expect(install.status).toBe(0);
      expect(existsSync(path.join(copy, 'node_modules', 'jest'))).toBe(false);
      expect(existsSync(path.join(copy, 'node_modules', 'tsx'))).toBe(true);

      server = spawn('npm', ['start'], {
        cwd: copy,
        env: { ...serverEnv(dataDir), PATH: process.env.PATH },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = capture(server);
      await waitForServer(`${ORIGIN}/api/health`, 180_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${output.text()}`);
      });
      const health = await fetch(`${ORIGIN}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(output.text()).toMatch(/production build is up to date/);
      // Not a terminal: JSON lines, one of them the address to open; no route table (that is for --verbose and `npm run build`).
      await until('the ready line', () => /"msg":"Chrysalis is ready: http:\/\/localhost:\d+"/.test(output.text()), 30_000);
      expect(output.text()).not.toMatch(/Route \(app\)/);
      // Ready too: migrations, media storage, ffmpeg and the embedded server's own worker.
      await until('/api/ready', async () => (await fetch(`${ORIGIN}/api/ready`)).status === 200, 30_000);
    } finally {
      if (server) await stopServerProcess(server);
      rmSync(copy, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 900_000);

  it('after kill -9 mid-upload and mid-transcode, starts again at once, clears what was cut off and finishes the job', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-crash-restart-'));
    const slowAvi = media.slowAvi();
    let server: ChildProcess | null = null;
    try {
      // A member, made in the database before the server opens it (the session key is kept in DATA_DIR).
      process.env.DATA_DIR = dataDir;
      process.env.SITE_URL = ORIGIN;
      copyPgliteTemplate(dataDir);
      const handle = await openDatabase({ dataDir });
      installDatabase(handle);
      const token = await verifiedMemberToken(handle.db, 'crash_uploader');
      await handle.close();

      server = startServerProcess(serverEnv(dataDir), ['ignore', 'pipe', 'pipe']);
      await waitForServer(`${ORIGIN}/api/health`, 180_000);

      // A whole upload, whose transcode is running when the server dies…
      const form = new FormData();
      form.set('title', 'Crash test');
      form.set('category', 'Sissy');
      form.set('video', new Blob([readFileSync(slowAvi)], { type: 'video/x-msvideo' }), 'slow.avi');
      const uploaded = await fetch(`${ORIGIN}/api/videos/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(uploaded.status).toBe(201);
      const work = path.join(dataDir, 'work');
      await until(
        'the transcode to start',
        () => existsSync(work) && readdirSync(work).some((name) => /^[0-9a-f-]{36}$/.test(name)),
      );

      // …and one still arriving: half its bytes are in the quarantine folder.
      const quarantine = path.join(dataDir, 'quarantine');
      const boundary = `----chrysalis${Date.now()}`;
      const bytes = readFileSync(slowAvi);
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut off\r\n--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nBeta\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="cut.avi"\r\nContent-Type: video/x-msvideo\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const partial = httpRequest(`${ORIGIN}/api/videos/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes.length + tail.length,
        },
      });
      partial.on('error', () => undefined); // the server dies under it
      partial.write(head);
      partial.write(bytes.subarray(0, bytes.length >> 1));
      await until(
        'the partial upload on disk',
        () =>
          existsSync(quarantine) &&
          readdirSync(quarantine).some((name) => name.endsWith('.upload') && statSync(path.join(quarantine, name)).size > 0),
      );

      // kill -9 of the whole server (its ffmpeg too), as the OOM killer or a power cut does.
      killSnapshot(snapshotTree(server.pid!));
      await new Promise((resolve) =>
        server!.exitCode !== null || server!.signalCode !== null ? resolve(null) : server!.once('exit', resolve),
      );
      partial.destroy();

      // Started again at once: the embedded database's lock is taken over instead of refusing to start.
      server = startServerProcess(serverEnv(dataDir), ['ignore', 'pipe', 'pipe']);
      const output = capture(server);
      await waitForServer(`${ORIGIN}/api/health`, 180_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${output.text()}`);
      });
      expect(server.exitCode).toBeNull();
      // Taken over from the dead owner at once, or (on a slow machine, when Next took over 10 s to open it) as stale: never refused.
      expect(output.text()).not.toMatch(/already open in another process|waiting for the lock/);
      // Recovery is a start-up task of its own (decision 036), and log lines reach stdout at the end of their event-loop turn (decision 040).
      const recovered =
        /recovered after an unclean stop: (\d+) job\(s\) of dead workers due again, (\d+) stale work folder\(s\) removed/;
      const report = await until('the recovery report', () => recovered.exec(output.text()) ?? undefined, 30_000).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${output.text()}`);
        },
      );
      expect(report.slice(1)).toEqual(['1', '1']);

      // The partial upload is gone; the transcode starts over and the video gets its MP4 and its HLS ladder.
      await until('the partial upload removed', () => !readdirSync(quarantine).some((name) => name.endsWith('.upload')), 30_000);
      const video = await until(
        'the video processed',
        async () => {
          const mine = (await (
            await fetch(`${ORIGIN}/api/videos/mine`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as {
            videos: { title: string; status: string; playback: { hlsUrl: string | null } | null }[];
          };
          return mine.videos.find((one) => one.status === 'ready' && one.playback?.hlsUrl);
        },
        300_000,
      );
      expect(video.title).toBe('Crash test');
      // Nothing left in the work folder: the dead transcode's folder was swept, the new one removed after its job.
      await until('no work folders left', () => !readdirSync(work).some((name) => /^[0-9a-f-]{36}(-hls)?$/.test(name)), 30_000);
    } finally {
      if (server) await stopServerProcess(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 900_000);
});
