import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

import { dyingWithParent } from '../../lib/parent-death';

import { killSnapshot, listeningPid, processTree, snapshotTree } from './proc';

/** The environment a production server process of the benches runs with. */
export function productionServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
}

/**
 * Starts the production server (scripts/serve.ts) as a child process that stops with its parent: on its
 * SIGINT and SIGTERM, and on its death, kill -9 included (a SIGTERM from the kernel, lib/parent-death.ts).
 * Node runs it with tsx's loader, not under the tsx command, which would be a process between the two that
 * the signal would stop instead. Benchmarks may add Node flags in BENCH_NODE_FLAGS.
 */
export function startServerProcess(env: NodeJS.ProcessEnv, stdio: StdioOptions = 'inherit'): ChildProcess {
  const nodeArgs = [...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'scripts/serve.ts'];
  const server = spawn(...dyingWithParent(process.execPath, nodeArgs, 'SIGTERM'), {
    stdio,
    env: productionServerEnv(env),
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

/**
 * Stops a server started by startServerProcess and waits until it has exited:
 * SIGTERM, then SIGKILL after the grace period. Whatever the server started
 * (ffmpeg runs of its job worker outlive it otherwise) is killed too.
 */
export async function stopServerProcess(server: ChildProcess, graceMs = 5_000): Promise<void> {
  if (server.pid === undefined) return;
  const pid = server.pid;
  const seen = new Map<string, { pid: number; start: string }>();
  const look = () => {
    for (const proc of snapshotTree(pid)) seen.set(`${proc.pid}:${proc.start}`, proc);
  };
  look();
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGTERM');
    // Keep noting the tree until the server is gone: its children are reparented once it exits.
    const watch = setInterval(look, 100);
    const timer = setTimeout(() => server.kill('SIGKILL'), graceMs);
    await exited;
    clearInterval(watch);
    clearTimeout(timer);
  }
  killSnapshot([...seen.values()].filter((proc) => proc.pid !== pid));
}

/**
 * The pid of the process that listens on port, checked to be the server's
 * own (under the tsx wrapper); throws when another program holds the port,
 * which a benchmark would otherwise measure instead.
 */
export function ownServerPid(server: ChildProcess, port: number): number {
  const pid = server.pid === undefined ? undefined : listeningPid(port, processTree(server.pid));
  if (pid === undefined)
    throw new Error(`port ${port} is not served by the server this script started (is another program using it? set BENCH_PORT)`);
  return pid;
}
