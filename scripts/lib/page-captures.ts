/**
 * The bare-Node baseline of `npm run bench:pages`: pages captured from the
 * running server, one answer per encoding, and the separate process that
 * serves them (scripts/lib/bare-page-server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';

import { productionServerEnv } from './server-process';

/** One answer as captured: flat header list (name, value, name, value…) and the body in base64. */
export interface CapturedAnswer {
  status: number;
  headers: string[];
  body: string;
}

/** A page's answers for each encoding the page cache can send. */
export interface CapturedPage {
  path: string;
  br: CapturedAnswer;
  gzip: CapturedAnswer;
  identity: CapturedAnswer;
}

/** Response headers Node writes itself on every answer, or that describe one connection: left out of captures. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function capture(url: string, headers: Record<string, string>): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        const kept: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!PER_CONNECTION_HEADERS.has(res.rawHeaders[i]!.toLowerCase()))
            kept.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode, headers: kept, body: Buffer.concat(chunks).toString('base64') });
      });
    }).on('error', reject);
  });
}

/**
 * Each page as the server answers it with Brotli, gzip and no compression (requests otherwise carry
 * `headers`), written to `file` for the bare server. Call it once the pages are in the page cache.
 */
export async function capturePages(
  origin: string,
  paths: string[],
  headers: Record<string, string>,
  file: string,
): Promise<void> {
  const { 'accept-encoding': _ignored, ...rest } = headers;
  const pages: CapturedPage[] = [];
  for (const pagePath of paths) {
    const url = `${origin}${pagePath}`;
    pages.push({
      path: pagePath,
      br: await capture(url, { ...rest, 'accept-encoding': 'br' }),
      gzip: await capture(url, { ...rest, 'accept-encoding': 'gzip' }),
      identity: await capture(url, rest),
    });
  }
  writeFileSync(file, JSON.stringify(pages));
}

/**
 * Starts the bare server on the captures in `file`, or with `inApp` (the environment of a production
 * server, with a DATA_DIR of its own) its twin inside the prepared Next app; resolves with the process
 * and its origin once it listens.
 */
export function startBareServer(
  file: string,
  inApp?: { env: NodeJS.ProcessEnv },
): Promise<{ process: ChildProcess; origin: string }> {
  const args = ['scripts/lib/bare-page-server.ts', file, ...(inApp ? ['--in-app'] : [])];
  const env = inApp ? productionServerEnv(inApp.env) : process.env;
  const child = spawn(path.join(process.cwd(), 'node_modules', '.bin', 'tsx'), args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the bare page server exited (${code}) before listening`)));
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /^bare-page-server listening (\d+)$/m.exec(output)?.[1];
      if (!port) return;
      // Later output (the app's log lines, in-app) is drained, not kept.
      child.stdout!.off('data', onOutput).resume();
      resolve({ process: child, origin: `http://127.0.0.1:${port}` });
    };
    child.stdout!.on('data', onOutput);
  });
}
