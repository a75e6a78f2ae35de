import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { GET as me } from '@/app/api/auth/me/route';
import { DELETE as revoke, POST as grant } from '@/app/api/admin/users/[id]/vip/route';
import { installDatabase, queryRows } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-admin-vip-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MISSING_ID = '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c';
const DAY = 86_400_000;

describe.each(ENGINES)('admin VIP grants on %s', (engine) => {
  let database: TestDatabase;
  let adminToken: string;
  let memberToken: string;
  let member: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    memberToken = await verifiedMemberToken(database.db, 'vipcandidate');
    adminToken = await verifiedMemberToken(database.db, 'vipadmin');
    await promoteToAdmin(database.db, await userId(database.db, 'vipadmin'));
    member = await userId(database.db, 'vipcandidate');
  }, 60_000);
  afterAll(() => database.destroy());

  const grantDays = (days: unknown, token = adminToken, id = member) =>
    call(grant, `/api/admin/users/${id}/vip`, { json: { days, note: 'support ticket 42' }, bearer: token, params: { id } });
  const isVip = async () => ((await call(me, '/api/auth/me', { bearer: memberToken })).body.user as { isVIP: boolean }).isVIP;

  it('refuses members (403 with the spec message) and visitors (401)', async () => {
    expect(await grantDays(30, memberToken)).toMatchObject({
      status: 403,
      body: { message: 'Forbidden: Admin access required' },
    });
    const anonymous = await call(grant, `/api/admin/users/${member}/vip`, { json: { days: 30 }, params: { id: member } });
    expect(anonymous.status).toBe(401);
    expect(await isVip()).toBe(false);
  });

  it('refuses bad input with a message and changes nothing', async () => {
    for (const days of [0, -3, 1.5, 'many', 3651]) {
      const response = await grantDays(days);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('Days must be a whole number from 1 to 3650.');
    }
    expect((await grantDays(30, adminToken, 'not-a-uuid')).body).toMatchObject({ message: 'That is not a valid member id.' });
    expect((await grantDays(30, adminToken, MISSING_ID)).status).toBe(404);
    const [count] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM entitlements`);
    expect(count!.n).toBe(0);
  });

  it('grants VIP, extends it on a second grant, and records both in the payment log and the audit log', async () => {
    const first = await grantDays(30);
    expect(first.status).toBe(200);
    const firstUntil = Date.parse(first.body.vipUntil as string);
    expect(Math.abs(firstUntil - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    expect(await isVip()).toBe(true);

    const second = await grantDays(10);
    expect(Date.parse(second.body.vipUntil as string) - firstUntil).toBeGreaterThan(10 * DAY - 60_000);

    const events = await queryRows<{ event: string; outcome: string }>(
      database.db,
      sql`SELECT event, outcome FROM payment_events WHERE user_id = ${member}`,
    );
    expect(events).toEqual([
      { event: 'grant', outcome: 'applied' },
      { event: 'grant', outcome: 'applied' },
    ]);
    const audit = await queryRows<{ action: string; summary: string; admin_username: string }>(
      database.db,
      sql`SELECT action, summary, admin_username FROM admin_audit_log WHERE target_id = ${member} ORDER BY created_at`,
    );
    expect(audit.map((row) => row.action)).toEqual(['member.vip_grant', 'member.vip_grant']);
    expect(audit[0]).toMatchObject({
      admin_username: 'vipadmin',
      summary: 'Granted vipcandidate 30 days of VIP: support ticket 42',
    });
  });

  it('revokes VIP at once, and a second revoke is a 409', async () => {
    const revoked = await call(revoke, `/api/admin/users/${member}/vip`, {
      method: 'DELETE',
      bearer: adminToken,
      params: { id: member },
    });
    expect(revoked).toMatchObject({ status: 200, body: { revoked: 2 } });
    expect(await isVip()).toBe(false);
    const again = await call(revoke, `/api/admin/users/${member}/vip`, {
      method: 'DELETE',
      bearer: adminToken,
      params: { id: member },
    });
    expect(again).toMatchObject({ status: 409, body: { message: 'vipcandidate does not have VIP.' } });
    const [row] = await queryRows<{ vip_until: unknown }>(database.db, sql`SELECT vip_until FROM users WHERE id = ${member}`);
    expect(row!.vip_until).toBeNull();
  });
});
