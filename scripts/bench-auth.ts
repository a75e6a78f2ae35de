/**
 * npm run bench:auth
 *
 * Serves the production build on a fresh DATA_DIR, creates verified members
 * through the real API (register → link from the outbox → verify), then
 * measures in one run:
 * - login latency (p50, p95) with 10 logins in flight at once;
 * - GET /api/auth/me throughput (req/s) and latency with a bearer token;
 * - one argon2id hash alone, for scale.
 * Each login comes from its own client address (X-Forwarded-For), so the
 * per-address rate limit measures nothing here.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { argon2Sync, randomBytes } from 'node:crypto';

import autocannon from 'autocannon';

import { buildIfNeeded } from './lib/build';
import { startServerProcess, waitForServer } from './lib/server-process';

const PORT = 3201;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const MEMBERS = 10;
const LOGINS = Number(process.env.BENCH_LOGINS ?? 200);
const CONCURRENCY = 10;
const PASSWORD = 'bench-velvet-password-1';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

function linkFor(dataDir: string, email: string): string {
  const outbox = path.join(dataDir, 'outbox');
  for (const file of readdirSync(outbox).sort().reverse()) {
    const raw = readFileSync(path.join(outbox, file), 'utf8');
    if (!raw.includes(`To: ${email}`)) continue;
    const link = /(http:\/\/127\.0\.0\.1:3201\/api\/auth\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(
      raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
    )?.[1];
    if (link) return link;
  }
  throw new Error(`no verification email for ${email}`);
}

async function createMember(dataDir: string, i: number): Promise<string> {
  const email = `bench${i}@example.org`;
  const form = new FormData();
  for (const [key, value] of Object.entries({
    username: `bench_${i}`,
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    dateOfBirth: '1990-01-01',
  }))
    form.append(key, value);
  const response = await fetch(`${ORIGIN}/api/auth/register`, {
    method: 'POST',
    body: form,
    headers: { 'x-forwarded-for': nextAddress() },
  });
  if (response.status !== 201) throw new Error(`register ${response.status}: ${await response.text()}`);
  const verified = await fetch(linkFor(dataDir, email), { redirect: 'manual' });
  if (!verified.headers.get('location')?.endsWith('/email-verified')) throw new Error('verification failed');
  return email;
}

async function login(email: string): Promise<{ ms: number; token: string }> {
  const started = performance.now();
  const response = await fetch(`${ORIGIN}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await response.json()) as { token?: string; message?: string };
  if (response.status !== 200 || !body.token) throw new Error(`login ${response.status}: ${body.message}`);
  return { ms: performance.now() - started, token: body.token };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-auth-'));
  // SEED_DEMO=0: demo seeding would run ffmpeg in the background.
  // TRUST_PROXY=1: the bench stands in for one proxy, so each request's X-Forwarded-For is its client address (per-address limits).
  const env = {
    ...process.env,
    PORT: String(PORT),
    SITE_URL: ORIGIN,
    DATA_DIR: dataDir,
    NODE_ENV: 'production' as const,
    SEED_DEMO: '0',
    TRUST_PROXY: '1',
  };
  buildIfNeeded(env);
  const server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
  try {
    await waitForServer(`${ORIGIN}/api/health`);
    const emails: string[] = [];
    for (let i = 0; i < MEMBERS; i += 1) emails.push(await createMember(dataDir, i));

    for (let i = 0; i < 20; i += 1) await login(emails[i % MEMBERS]!); // warm-up
    const latencies: number[] = [];
    let next = 0;
    let token = '';
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < LOGINS) {
          const i = next++;
          const result = await login(emails[i % MEMBERS]!);
          latencies.push(result.ms);
          token = result.token;
        }
      }),
    );
    const loginSeconds = (performance.now() - started) / 1000;

    const me = await autocannon({
      url: `${ORIGIN}/api/auth/me`,
      connections: 10,
      duration: Number(process.env.BENCH_DURATION ?? 10),
      headers: { authorization: `Bearer ${token}` },
    });
    if (me.non2xx) throw new Error(`/api/auth/me answered ${me.non2xx} non-2xx`);

    const hashTimes: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const t = performance.now();
      argon2Sync('argon2id', {
        message: 'password',
        nonce: randomBytes(16),
        memory: 19_456,
        passes: 2,
        parallelism: 1,
        tagLength: 32,
      });
      hashTimes.push(performance.now() - t);
    }

    console.log(
      `\nbench:auth — Node ${process.version}, ${os.cpus().length} cores, argon2id m=19456 KiB t=2 p=1, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
    );
    console.log(
      `login, ${CONCURRENCY} in flight, ${LOGINS} logins: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ${(LOGINS / loginSeconds).toFixed(1)} logins/s`,
    );
    console.log(
      `GET /api/auth/me, 10 connections: ${me.requests.average.toFixed(0)} req/s, p50 ${me.latency.p50} ms, p99 ${me.latency.p99} ms`,
    );
    console.log(`one argon2id hash alone: median ${percentile(hashTimes, 50).toFixed(1)} ms`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
