/**
 * The site behind nginx for e2e/nginx.smoke.ts (playwright.nginx.config.ts):
 * the production build (the e2e suite's, rebuilt only if stale) served by
 * scripts/serve.ts with MEDIA_OFFLOAD=x-accel on a fresh DATA_DIR, and
 * nginx in the foreground on deploy/nginx.conf made concrete
 * (scripts/lib/nginx-conf.ts). Stops both when it is stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { buildIfNeeded } from './lib/build';
import { NGINX_BINARY, nginxArgs, renderNginxConf } from './lib/nginx-conf';
import { startServerProcess, stopServerProcess, waitForServer } from './lib/server-process';

const { DATA_DIR: dataDir, PORT, NGINX_PORT, MAX_UPLOAD_BYTES, NGINX_WORK_DIR: workDir } = process.env;
if (!dataDir || !PORT || !NGINX_PORT || !MAX_UPLOAD_BYTES || !workDir) {
  throw new Error(
    'e2e-nginx-server needs DATA_DIR, PORT, NGINX_PORT, MAX_UPLOAD_BYTES and NGINX_WORK_DIR (set by playwright.nginx.config.ts)',
  );
}
for (const dir of [dataDir, workDir]) rmSync(dir, { recursive: true, force: true });
mkdirSync(path.join(dataDir, 'media'), { recursive: true });
mkdirSync(workDir, { recursive: true });

buildIfNeeded();

writeFileSync(
  path.join(workDir, 'nginx.conf'),
  renderNginxConf({
    listenPort: Number(NGINX_PORT),
    appPort: Number(PORT),
    mediaDir: path.join(dataDir, 'media'),
    maxUploadBytes: Number(MAX_UPLOAD_BYTES),
    workDir,
  }),
);

const app = startServerProcess(process.env);
let nginx: ChildProcess | undefined;

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  nginx?.kill('SIGQUIT');
  await stopServerProcess(app);
  process.exit(code);
}
app.on('exit', (code) => void stop(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

// nginx once the app answers, so its log shows no refused connections from the start-up wait.
waitForServer(`http://127.0.0.1:${PORT}/robots.txt`, 300_000).then(
  () => {
    nginx = spawn(NGINX_BINARY, nginxArgs(workDir), { stdio: 'inherit' });
    nginx.on('exit', (code) => {
      if (!stopping) console.error(`[e2e-nginx] nginx exited (${code}); see its errors above`);
      void stop(code ?? 1);
    });
  },
  (error: unknown) => {
    console.error('[e2e-nginx]', error);
    void stop(1);
  },
);
