import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';

/** Starts the production server (scripts/serve.ts) as a child process that stops with its parent. */
export function startServerProcess(env: NodeJS.ProcessEnv, stdio: StdioOptions = 'inherit'): ChildProcess {
  const server = spawn(path.join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['scripts/serve.ts'], {
    stdio,
    env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  return server;
}
