/**
 * `npm start`: validate configuration, build if needed, then serve
 * (scripts/serve.ts: Next behind the public-page cache). Migrations run inside the server at start (instrumentation.ts).
 * `npm start -- --verbose` shows the whole output of a build it makes (Next's route table); otherwise only a failed one.
 */
import { ConfigError, loadConfig } from '@/lib/config/server';
import { whenParentDies } from '@/lib/parent-death';
import { mediaToolsProblem } from '@/lib/server/media/tools';

import { buildIfNeeded } from './lib/build';
import { startServerProcess } from './lib/server-process';

try {
  loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

async function main() {
  // Every upload is probed and transcoded: without ffmpeg and ffprobe the site would take videos it can never show.
  const toolsProblem = await mediaToolsProblem();
  if (toolsProblem) {
    console.error(`npm start: ${toolsProblem}`);
    process.exit(1);
  }

  buildIfNeeded(process.env, { quiet: !process.argv.includes('--verbose') });

  const server = startServerProcess(process.env);
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // npm itself killed (kill -9 of `npm start`; package.json execs this script, so npm is its parent, not a shell): the
  // server is stopped rather than left holding the port and the database lock. This process's own death stops the
  // server through the kernel (startServerProcess).
  whenParentDies(() => {
    console.error('npm start: the process that started this one is gone; stopping the server');
    server.kill('SIGTERM');
  });
}

void main();
