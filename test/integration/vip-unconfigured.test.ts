import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { GET as postback } from '@/app/api/payments/verotel/postback/route';
import { POST as checkout } from '@/app/api/vip/checkout/route';
import { GET as status } from '@/app/api/vip/status/route';
import { installDatabase, queryRows } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { signedPostback } from '../helpers/flexpay';
import { verifiedMemberToken } from '../helpers/members';

// A site whose operator has not connected Verotel (no VEROTEL_* variables): its own file, because configuration is read once per process.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-vip-unconfigured-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
delete process.env.VEROTEL_SHOP_ID;
delete process.env.VEROTEL_SIGNATURE_KEY;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('VIP without a payment processor on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  }, 60_000);
  afterAll(() => database.destroy());

  it('answers checkout with 503 and a clear message, storing nothing, and says so in the status', async () => {
    const token = await verifiedMemberToken(database.db, 'eager');
    expect(await call(checkout, '/api/vip/checkout', { json: { plan: 'monthly' }, bearer: token })).toMatchObject({
      status: 503,
      body: { message: 'Payments are not available on this site yet.' },
    });
    // An unknown plan is still named as such.
    expect((await call(checkout, '/api/vip/checkout', { json: { plan: 'lifetime' }, bearer: token })).status).toBe(400);
    const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM checkouts`);
    expect(row!.n).toBe(0);
    const body = (await call(status, '/api/vip/status', { bearer: token })).body;
    expect(body).toMatchObject({ paymentsAvailable: false, member: { isVIP: false, entitlements: [] } });
    expect((body.plans as unknown[]).length).toBe(3);
  });

  it('answers postbacks 503 so the processor retries once the site is configured', async () => {
    const params = signedPostback('any-key-at-all', { shopID: '1', saleID: '1', event: 'initial' });
    const answer = await call(postback, `/api/payments/verotel/postback?${new URLSearchParams(params)}`);
    expect(answer).toMatchObject({ status: 503, body: { raw: 'Verotel payments are not configured on this site.' } });
    const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM payment_events`);
    expect(row!.n).toBe(0);
  });
});
