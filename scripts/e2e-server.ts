/**
 * The server Playwright tests run against: a production build (rebuilt only
 * when inputs changed) served by scripts/serve.ts on a fresh, empty DATA_DIR.
 */
import { rmSync } from 'node:fs';

import { buildIfNeeded } from './lib/build';
import { startServerProcess } from './lib/server-process';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('e2e-server needs DATA_DIR (set by playwright.config.ts)');
rmSync(dataDir, { recursive: true, force: true });

buildIfNeeded();

const server = startServerProcess(process.env);
server.on('exit', (code) => process.exit(code ?? 0));
