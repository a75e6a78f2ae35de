import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { POST as login } from '@/app/api/auth/login/route';
import { installDatabase } from '@/lib/db';
import { CLIENT_ADDRESS_HEADER, stampClientAddress } from '@/lib/front/resolve-client-address';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-client-address-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
// The default, spelled out: no proxy in front, so X-Forwarded-For is the client's own text.
process.env.TRUST_PROXY = '0';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** More failed logins than one address may make in five minutes (lib/server/rate-limit.ts). */
const OVER_THE_ADDRESS_BUDGET = 16;

describe.each(ENGINES)('the client address behind the per-address login limit, on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  });
  afterAll(() => database.destroy());

  const wrongLogin = (attempt: number, headers: Record<string, string>, ip?: string | null) =>
    call(login, '/api/auth/login', { json: { email: `spray${attempt}@example.org`, password: 'not-the-password' }, headers, ip });

  it('through the production server: a new X-Forwarded-For and a forged internal header on every request change nothing', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < OVER_THE_ADDRESS_BUDGET; attempt += 1) {
      // What scripts/serve.ts does with each request before Next sees it.
      const req = {
        headers: { 'x-forwarded-for': `203.0.113.${attempt}`, [CLIENT_ADDRESS_HEADER]: `192.0.2.${attempt}` },
        socket: { remoteAddress: '::ffff:198.51.100.50' },
      };
      stampClientAddress(req, 0);
      statuses.push((await wrongLogin(attempt, req.headers)).status);
    }
    expect(statuses.slice(0, 15)).toEqual(Array(15).fill(401));
    expect(statuses.at(-1)).toBe(429);

    // Another socket address has its own budget.
    const neighbour = { headers: { 'x-forwarded-for': '203.0.113.1' }, socket: { remoteAddress: '198.51.100.51' } };
    stampClientAddress(neighbour, 0);
    expect((await wrongLogin(99, neighbour.headers)).status).toBe(401);
  });

  it('without the production server (next dev): rotating X-Forwarded-For with TRUST_PROXY=0 does not escape either', async () => {
    let last;
    for (let attempt = 0; attempt < OVER_THE_ADDRESS_BUDGET; attempt += 1) {
      last = await wrongLogin(attempt, { 'x-forwarded-for': `203.0.113.${attempt}, 10.0.0.${attempt}` }, null);
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
