/**
 * `npm start`: validate configuration, build if needed, then serve
 * (scripts/serve.ts: Next behind the public-page cache). Migrations run inside the server at start (instrumentation.ts).
 */
import { ConfigError, loadConfig } from '@/lib/config/server';

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

buildIfNeeded();

const server = startServerProcess(process.env);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
