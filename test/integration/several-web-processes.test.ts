import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { users } from '@/lib/db/schema';
import { KEEP_ALIVE_TIMEOUT_MS } from '@/lib/front/keep-alive';
import { hashPassword } from '@/lib/server/auth/passwords';

import { serverEnv as e2eBuildEnv } from '../../playwright.config';
import { buildIfNeeded } from '../../scripts/lib/build';
import { startServerProcess, stopServerProcess, waitForServer } from '../../scripts/lib/server-process';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, totpNow, verifiedUploader } from '../helpers/members';
import { insertVideo } from '../helpers/videos';

/**
 * Issue 13 item 6, decision 022: two production web processes (scripts/serve.ts)
 * and a separate worker (scripts/worker.ts) on one PostgreSQL database, as an
 * operator runs them behind a load balancer. What one process changes, the
 * others show within a second; limits and sessions are the same everywhere.
 *
 * The page cache is set to keep pages for a minute, so only a purge sent
 * between processes can make B show a change within a second; the worker
 * polls once a minute, so only a wake-up sent between processes makes it
 * start a job at once. The build is the e2e suite's (built here when missing
 * or stale, then reused by `npm run test:e2e`).
 */
const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.TEST_DATABASE_URL)
  console.warn(
    'Skipped: two web processes and a worker on one database need PostgreSQL; set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them.',
  );

const PORT_A = 3159;
const PORT_B = 3160;
const A = `http://127.0.0.1:${PORT_A}`;
const B = `http://127.0.0.1:${PORT_B}`;
const TITLE = 'Cluster Velvet Orchid';
const PASSWORD = 'cluster-password-2026';

const PROCESSES = ['web-a', 'web-b', 'worker'];
// One key for every process, as production requires; this process seals the test admin's two-factor secret with it.
const SESSION_SECRET = randomBytes(32).toString('hex');
process.env.SESSION_SECRET = SESSION_SECRET;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until check() accepts an answer; resolves with it and the time it took. Fails after `ms`. */
async function within<T>(
  ms: number,
  ask: () => Promise<T>,
  check: (answer: T) => boolean,
): Promise<{ answer: T; tookMs: number }> {
  const started = Date.now();
  for (;;) {
    const answer = await ask();
    if (check(answer)) return { answer, tookMs: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms; last answer: ${JSON.stringify(answer).slice(0, 300)}`);
    await sleep(25);
  }
}

async function page(origin: string, pathname: string) {
  const response = await fetch(`${origin}${pathname}`);
  return { status: response.status, cache: response.headers.get('x-chrysalis-cache'), html: await response.text() };
}

/** A JSON API call as a client makes it; `address` is the client address (the test stands in for one trusted proxy). */
async function api(
  origin: string,
  pathname: string,
  {
    method = 'GET',
    json,
    bearer,
    address = '198.18.0.1',
  }: { method?: string; json?: unknown; bearer?: string; address?: string } = {},
) {
  const headers: Record<string, string> = { 'x-forwarded-for': address };
  if (json !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(`${origin}${pathname}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
}

describeOnPostgres('several web processes and a worker on one PostgreSQL database (skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let dataDir: string;
  const children: ChildProcess[] = [];
  let adminToken: string;
  let streamVideoId: string;
  const member = { email: 'cluster-member@example.org', id: '' };

  beforeAll(async () => {
    // The e2e suite's build, so CI builds once for both (a current build is reused as it is).
    buildIfNeeded({ ...process.env, ...e2eBuildEnv });
    database = await createTestDatabase('postgres');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-cluster-'));
    const { db } = database;

    const passwordHash = await hashPassword(PASSWORD);
    const insert = async (username: string, email: string) =>
      (
        await db
          .insert(users)
          .values({ username, email, passwordHash, dateOfBirth: '1990-01-01', emailVerifiedAt: new Date() })
          .returning({ id: users.id })
      )[0]!.id;
    const uploaderId = await insert('cluster_uploader', 'cluster-uploader@example.org');
    await verifiedUploader(db, uploaderId);
    const adminId = await insert('cluster_admin', 'cluster-admin@example.org');
    await promoteToAdmin(db, adminId);
    member.id = await insert('cluster_member', member.email);
    const video = await insertVideo(db, uploaderId, {
      title: TITLE,
      category: 'Sissy',
      moderationStatus: 'pending',
      publishedAt: null,
    });
    streamVideoId = video.streamVideoId;

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...e2eBuildEnv,
      NODE_OPTIONS: '',
      DATABASE_URL: database.databaseUrl,
      SESSION_SECRET,
      DATA_DIR: dataDir,
      // Pages stay fresh for a minute and the worker polls once a minute: only messages between processes are faster.
      PUBLIC_PAGE_CACHE_SECONDS: '60',
      WORKER_POLL_MS: '60000',
      ADMIN_USERNAME: '',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
    };
    const logOf = (name: string) =>
      existsSync(path.join(dataDir, `${name}.log`)) ? readFileSync(path.join(dataDir, `${name}.log`), 'utf8') : '';
    const logTo = (child: ChildProcess, name: string) => {
      const log = createWriteStream(path.join(dataDir, `${name}.log`));
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      children.push(child);
    };
    logTo(startServerProcess({ ...env, PORT: String(PORT_A) }, 'pipe'), 'web-a');
    logTo(startServerProcess({ ...env, PORT: String(PORT_B) }, 'pipe'), 'web-b');
    const worker = spawn(
      path.join(process.cwd(), 'node_modules', '.bin', 'tsx'),
      ['--conditions=react-server', 'scripts/worker.ts'],
      { env: { ...env, NODE_ENV: 'production' }, stdio: 'pipe' },
    );
    logTo(worker, 'worker');
    try {
      await Promise.all([waitForServer(`${A}/robots.txt`, 120_000), waitForServer(`${B}/robots.txt`, 120_000)]);
      // Every process listens before the test starts changing things.
      await within(
        30_000,
        async () => PROCESSES.map(logOf),
        (logs) => logs.every((log) => log.includes('[cluster]')),
      );
    } catch (error) {
      for (const name of PROCESSES) console.error(`--- ${name}\n${logOf(name).slice(-3000)}`);
      throw error;
    }

    // The admin logs in through web A with password and code (decision 018).
    const first = await api(A, '/api/auth/login', {
      method: 'POST',
      json: { email: 'cluster-admin@example.org', password: PASSWORD },
    });
    const second = await api(A, '/api/auth/login/two-factor', {
      method: 'POST',
      json: { challenge: first.body.challenge, code: totpNow() },
    });
    expect({ first: first.status, second }).toMatchObject({ first: 200, second: { status: 200 } });
    adminToken = second.body.token as string;
  }, 15 * 60_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => stopServerProcess(child)));
    await database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('an approval through web A is on web B within a second, though B had the pages cached without it', async () => {
    for (const pathname of ['/', '/category/Sissy']) {
      await page(B, pathname);
      const cached = await page(B, pathname);
      expect(cached.cache).toBe('HIT');
      expect(cached.html).not.toContain(TITLE);
    }
    // B's search has ranked the query (kept for 10 s) without it, too.
    expect((await api(B, '/api/videos/search?q=velvet')).body.videos).toEqual([]);

    expect(
      (await api(A, `/api/admin/videos/${streamVideoId}`, { method: 'PATCH', json: { action: 'approve' }, bearer: adminToken }))
        .status,
    ).toBe(200);

    const category = await within(
      1_000,
      () => page(B, '/category/Sissy'),
      (answer) => answer.html.includes(TITLE),
    );
    expect(category.answer.cache).toBe('MISS');
    await within(
      1_000,
      () => page(B, '/'),
      (answer) => answer.html.includes(TITLE),
    );
    await within(
      1_000,
      () => api(B, '/api/videos/search?q=velvet'),
      (answer) => Array.isArray(answer.body.videos) && answer.body.videos.length === 1,
    );
  });

  it('a removal through web A is gone from web B within a second', async () => {
    await page(B, '/category/Sissy');
    const cached = await page(B, '/category/Sissy');
    expect(cached.cache).toBe('HIT');
    expect(cached.html).toContain(TITLE);

    expect((await api(A, `/api/videos/${streamVideoId}`, { method: 'DELETE', bearer: adminToken })).status).toBe(200);

    await within(
      1_000,
      () => page(B, '/category/Sissy'),
      (answer) => !answer.html.includes(TITLE),
    );
    await within(
      1_000,
      () => page(B, `/video/${streamVideoId}`),
      // 410 Gone: an admin deleted it (decision 057).
      (answer) => answer.status === 410,
    );
  });

  it('shares the login limit: failures through A and B count together', async () => {
    const address = '198.18.7.7';
    const wrong = (origin: string, attempt: number) =>
      api(origin, '/api/auth/login', {
        method: 'POST',
        json: { email: `nobody${attempt}@example.org`, password: 'not-the-password' },
        address,
      });
    const statuses: number[] = [];
    // 15 failures per address in five minutes (lib/server/rate-limit.ts), alternating between the processes.
    for (let attempt = 0; attempt < 15; attempt += 1) statuses.push((await wrong(attempt % 2 ? B : A, attempt)).status);
    expect(statuses).toEqual(Array(15).fill(401));
    expect((await wrong(B, 15)).status).toBe(429);
    expect((await wrong(A, 16)).status).toBe(429);
  });

  it('shares sessions: a token from A works on B, and a logout on A ends it on B', async () => {
    const login = await api(A, '/api/auth/login', {
      method: 'POST',
      json: { email: member.email, password: PASSWORD },
      address: '198.18.8.8',
    });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const me = await api(B, '/api/auth/me', { bearer: token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ username: 'cluster_member' });

    expect((await api(A, '/api/auth/logout', { method: 'POST', bearer: token })).status).toBe(200);
    expect((await api(B, '/api/auth/me', { bearer: token })).status).toBe(401);
  });

  it('a job committed through a web process starts on the separate worker at once, not at its next poll', async () => {
    const outbox = path.join(dataDir, 'outbox');
    const mails = () => (existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')) : []);
    const before = mails().length;
    // The worker polls once a minute; it has been idle since it started.
    await sleep(1_500);
    expect(
      (await api(A, '/api/auth/forgot-password', { method: 'POST', json: { email: member.email }, address: '198.18.9.9' }))
        .status,
    ).toBe(200);
    const { tookMs } = await within(
      3_000,
      async () => mails(),
      (names) => names.length > before,
    );
    expect(tookMs).toBeLessThan(3_000);
    const [user] = await database.db.select({ email: users.email }).from(users).where(eq(users.id, member.id));
    expect(
      mails()
        .map((name) => readFileSync(path.join(outbox, name), 'utf8'))
        .some((mail) => mail.includes(user!.email)),
    ).toBe(true);
  });

  it('keeps an idle keep-alive connection open longer than the proxy in front of it would, so a reused connection is never cut under a request', async () => {
    // One connection, reused as nginx reuses its upstream connections (deploy/nginx.conf: keepalive).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string | undefined; reused: boolean }>((resolve, reject) => {
        const req = httpGet(`${A}/robots.txt`, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive']?.toString(), reused: req.reusedSocket }),
          );
        });
        req.on('error', reject);
      });
    try {
      const first = await get();
      expect(first).toMatchObject({ status: 200, reused: false, keepAlive: `timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}` });
      // Longer than Node's default (5 s), after which the server used to close the connection as a client sent on it.
      await sleep(6_000);
      expect(await get()).toEqual({ status: 200, keepAlive: first.keepAlive, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
