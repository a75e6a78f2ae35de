/**
 * `npm start`: validate configuration, build if needed, then serve with
 * `next start`. Migrations run inside the server at start (instrumentation.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

import { ConfigError, loadConfig } from '@/lib/config/server';

import { buildIfNeeded } from './lib/build';

let port: number;
try {
  port = loadConfig().port;
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

buildIfNeeded();

const server = spawn(path.join(process.cwd(), 'node_modules', '.bin', 'next'), ['start', '--port', String(port)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
