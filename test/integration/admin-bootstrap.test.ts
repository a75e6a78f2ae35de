import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { GET as stats } from '@/app/api/admin/stats/route';
import { POST as login } from '@/app/api/auth/login/route';
import { installDatabase } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { ensureAdmin } from '@/lib/server/accounts';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-admin-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('the first admin on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
  });
  afterAll(() => database.destroy());

  it('reports a missing admin when none is configured, then creates a verified admin from ADMIN_* once', async () => {
    expect(await ensureAdmin()).toBe('missing');
    process.env.ADMIN_USERNAME = 'root_admin';
    process.env.ADMIN_EMAIL = 'Admin@Example.org';
    process.env.ADMIN_PASSWORD = 'a-long-admin-password';
    jest.resetModules();
    // A fresh module registry re-reads the configuration, as a restart would.
    const fresh = await import('@/lib/server/accounts');
    (await import('@/lib/db')).installDatabase(database);
    expect(await fresh.ensureAdmin()).toBe('created');
    expect(await fresh.ensureAdmin()).toBe('present');
    const [admin] = await database.db.select().from(users).where(eq(users.username, 'root_admin'));
    expect(admin).toMatchObject({ email: 'admin@example.org', isAdmin: true });
    expect(admin?.emailVerifiedAt).not.toBeNull();

    const loggedIn = await call(login, '/api/auth/login', {
      json: { email: 'admin@example.org', password: 'a-long-admin-password' },
      ip: '198.18.0.1',
    });
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.user).toMatchObject({ isAdmin: true });
    // It enrols in two-factor on first login like any admin: until then admin tools refuse it (decision 018).
    expect(await call(stats, '/api/admin/stats', { bearer: loggedIn.body.token as string })).toMatchObject({
      status: 403,
      body: { twoFactorRequired: true, twoFactor: 'enrol' },
    });
    for (const name of ['ADMIN_USERNAME', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) delete process.env[name];
  });
});
