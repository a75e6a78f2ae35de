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

/** Resolves once the URL answers 2xx; throws after the timeout. */
export async function waitForServer(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}
