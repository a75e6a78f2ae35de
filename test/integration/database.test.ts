import { eq, sql } from 'drizzle-orm';

import { users } from '@/lib/db/schema';

import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';

const member = (suffix: string) => ({
  username: `Member${suffix}`,
  email: `member${suffix}@example.org`,
  passwordHash: 'not-a-real-hash',
  dateOfBirth: '1990-05-17',
});

describe.each(ENGINES)('database on %s', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(() => database.destroy());

  it('reports its engine', () => {
    expect(database.engine).toBe(engine);
  });

  it('stores a user with the documented defaults', async () => {
    const [created] = await database.db.insert(users).values(member('A')).returning();
    expect(created).toMatchObject({
      username: 'MemberA',
      isAdmin: false,
      vipUntil: null,
      autoPlayVideos: true,
      tasks: 0,
      tokenVersion: 0,
      emailVerifiedAt: null,
      lastTaskCompleted: null,
      dateOfBirth: '1990-05-17',
    });
    expect(created!.id).toMatch(/^[0-9a-f-]{36}$/);
    const [found] = await database.db.select().from(users).where(eq(users.id, created!.id));
    expect(found?.email).toBe('memberA@example.org');
  });

  it('refuses a username or email that differs only in case, and keeps the original row', async () => {
    await database.db.insert(users).values(member('B'));
    await expect(
      database.db.insert(users).values({ ...member('B'), username: 'MEMBERB', email: 'other@example.org' }),
    ).rejects.toThrow();
    await expect(
      database.db.insert(users).values({ ...member('B'), username: 'someoneElse', email: 'MEMBERB@EXAMPLE.ORG' }),
    ).rejects.toThrow();
    const rows = await database.db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = 'memberb'`);
    expect(rows).toHaveLength(1);
  });

  it('opens again on the same data without re-applying migrations, and keeps the rows', async () => {
    await database.db.insert(users).values(member('C'));
    const reopened = await database.reopen();
    const rows = await reopened.db.select().from(users).where(eq(users.username, 'MemberC'));
    expect(rows).toHaveLength(1);
  });
});
