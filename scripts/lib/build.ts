/**
 * Builds the production app only when its inputs changed: the sources, the
 * lockfile, or the settings that prerendered pages bake in (SITE_URL and
 * friends). `npm start` and the e2e suite share this, so a fresh clone runs
 * with one command and a second start does not rebuild for nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { writeAppScripts } from './app-scripts';

const ROOT = process.cwd();
const STAMP = path.join(ROOT, '.next', 'chrysalis-build.json');
const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.ts',
  'package-lock.json',
  'tsconfig.json',
];
/** Settings read at build time into prerendered HTML. */
const BAKED_ENV = [
  'SITE_URL',
  'SITE_NAME',
  'TWITTER_SITE',
  'PORT',
  'NEXT_PUBLIC_API_BASE_URL',
  'VIP_PLANS',
  'OPERATOR_NAME',
  'OPERATOR_EMAIL',
  'OPERATOR_ADDRESS',
  'DMCA_AGENT_NAME',
  'DMCA_AGENT_EMAIL',
  'DMCA_AGENT_ADDRESS',
  'VERIFICATION_RETENTION_DAYS',
  'RECORDS_RETENTION_YEARS',
  'REPEAT_INFRINGER_STRIKES',
  'COUNTER_NOTICE_WAIT_BUSINESS_DAYS',
  'RECORDS_CUSTODIAN_NAME',
  'RECORDS_CUSTODIAN_ADDRESS',
];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // Files only: a directory's own mtime moves when a scratch file comes and goes.
  return readdirSync(entry)
    .filter((child) => !child.startsWith('__bench'))
    .reduce((max, child) => Math.max(max, newestMtime(path.join(entry, child))), 0);
}

export function buildFingerprint(env: NodeJS.ProcessEnv = process.env): string {
  const inputs = {
    env: BAKED_ENV.map((name) => [name, env[name] ?? '']),
    sources: SOURCES.map((entry) => [entry, newestMtime(path.join(ROOT, entry))]),
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

export function isBuildCurrent(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')) || !existsSync(STAMP)) return false;
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).fingerprint === buildFingerprint(env);
  } catch {
    return false;
  }
}

/**
 * Runs `next build` unless the existing build is current. Exits the process if the build fails. `quiet`
 * (`npm start` without --verbose): Next's output, its table of about a hundred routes, only if the build fails.
 */
export function buildIfNeeded(env: NodeJS.ProcessEnv = process.env, { quiet = false } = {}): void {
  if (isBuildCurrent(env)) {
    console.log('[build] production build is up to date');
    return;
  }
  build(env, { quiet });
}

/**
 * Runs `next build` and stamps the result with the fingerprint of the sources and settings it was made
 * from, so a later `npm start` with the same ones serves it as it is. `npm run build` (scripts/build.ts)
 * and a stale `npm start` both build here: a build made either way is trusted the same. Exits the process if the build fails.
 */
export function build(env: NodeJS.ProcessEnv = process.env, { quiet = false } = {}): void {
  // The inline scripts from their TypeScript sources first (decision 044): what ships is what the sources say.
  if (writeAppScripts()) console.log('[build] rewrote lib/app-scripts/generated.ts from its sources');
  console.log('[build] building the production app (next build)…');
  // Taken before the build: a source edited while it runs must make the next start build again.
  const fingerprint = buildFingerprint(env);
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'next'), ['build'], {
    stdio: quiet ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout}${result.stderr}`);
    console.error('[build] next build failed');
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
}
