/**
 * The server Playwright tests run against: a production build (rebuilt only
 * when inputs changed) served by scripts/serve.ts on a fresh, empty DATA_DIR.
 * Everything the server writes goes to E2E_LOG_FILE (under the data dir),
 * which e2e/global-teardown.ts searches for secrets after the run; the
 * console shows the rest of the output but not its routine JSON lines.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { buildIfNeeded } from './lib/build';
import { startServerProcess } from './lib/server-process';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('e2e-server needs DATA_DIR (set by playwright.config.ts)');
rmSync(dataDir, { recursive: true, force: true });

buildIfNeeded();

const logFile = process.env.E2E_LOG_FILE;
const server = startServerProcess(process.env, logFile ? ['inherit', 'pipe', 'pipe'] : 'inherit');
if (logFile) {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  // The console (and so the CI log) gets what is not routine: the build, warnings and errors; request and info lines only go to the file.
  let partial = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    log.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (!/^\{"level":(10|20|30),/.test(line)) process.stdout.write(`${line}\n`);
  });
  server.stderr!.on('data', (chunk: Buffer) => {
    log.write(chunk);
    process.stderr.write(chunk);
  });
}
server.on('exit', (code) => process.exit(code ?? 0));
