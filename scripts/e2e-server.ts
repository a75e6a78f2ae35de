/**
 * The server Playwright tests run against: a production build (rebuilt only
 * when inputs changed) served by `next start` on a fresh, empty DATA_DIR.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { buildIfNeeded } from './lib/build';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('e2e-server needs DATA_DIR (set by playwright.config.ts)');
rmSync(dataDir, { recursive: true, force: true });

buildIfNeeded();

const server = spawn(path.join(process.cwd(), 'node_modules', '.bin', 'next'), ['start', '--port', process.env.PORT ?? '3100'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
