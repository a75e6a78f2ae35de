import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';

import { DELETE as unblock, POST as block } from '@/app/api/users/[username]/block/route';
import { GET as myBlocks } from '@/app/api/users/me/blocks/route';
import type { BlockDto } from '@/lib/api-types';
import { installDatabase } from '@/lib/db';
import { blocks, follows } from '@/lib/db/schema';
import { eitherBlocked, hasBlocked } from '@/lib/server/community/blocks';
import { resetLimiters } from '@/lib/server/rate-limit';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-blocks-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(ENGINES)('blocks on %s', (engine) => {
  let database: TestDatabase;
  let aliceToken: string;
  let bobToken: string;
  let alice: string;
  let bob: string;
  let carol: string;

  const post = (
    username: string,
    bearer?: string,
    extra: { json?: unknown; cookie?: string; headers?: Record<string, string> } = {},
  ) => call(block, `/api/users/${username}/block`, { method: 'POST', bearer, params: { username }, ...extra });
  const remove = (username: string, bearer?: string) =>
    call(unblock, `/api/users/${username}/block`, { method: 'DELETE', bearer, params: { username } });
  const list = async (bearer: string) => (await call(myBlocks, '/api/users/me/blocks', { bearer })).body.blocks as BlockDto[];

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    aliceToken = await verifiedMemberToken(database.db, 'Alice');
    bobToken = await verifiedMemberToken(database.db, 'bob');
    await verifiedMemberToken(database.db, 'carol');
    alice = await userId(database.db, 'Alice');
    bob = await userId(database.db, 'bob');
    carol = await userId(database.db, 'carol');
  });
  afterAll(() => database.destroy());
  beforeEach(async () => {
    await database.db.delete(blocks);
    await database.db.delete(follows);
  });

  it('needs a login for all three calls', async () => {
    expect((await post('bob')).status).toBe(401);
    expect((await remove('bob')).status).toBe(401);
    expect((await call(myBlocks, '/api/users/me/blocks')).status).toBe(401);
  });

  it('blocks, lists, unblocks; both directions are idempotent', async () => {
    const first = await post('BOB', aliceToken);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ blocked: true, block: { _id: bob, username: 'bob' } });
    const again = await post('bob', aliceToken);
    expect(again.status).toBe(200);
    expect((again.body.block as BlockDto).createdAt).toBe((first.body.block as BlockDto).createdAt);
    expect(await database.db.select().from(blocks)).toHaveLength(1);
    expect(await hasBlocked(database.db, alice, bob)).toBe(true);
    expect(await hasBlocked(database.db, bob, alice)).toBe(false);
    expect(await eitherBlocked(database.db, bob, alice)).toBe(true);

    await post('carol', aliceToken);
    const blocked = await list(aliceToken);
    expect(blocked.map((b) => b.username)).toEqual(['carol', 'bob']);
    expect(blocked[1]).toEqual({ _id: bob, username: 'bob', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(await list(bobToken)).toEqual([]);

    const lifted = await remove('bob', aliceToken);
    expect(lifted).toMatchObject({ status: 200, body: { blocked: false, username: 'bob' } });
    expect((await remove('bob', aliceToken)).status).toBe(200);
    expect((await list(aliceToken)).map((b) => b.username)).toEqual(['carol']);
    expect(await hasBlocked(database.db, alice, bob)).toBe(false);
  });

  it('refuses blocking yourself (400) and unknown members (404)', async () => {
    for (const name of ['Alice', 'alice']) {
      const self = await post(name, aliceToken);
      expect(self).toMatchObject({ status: 400, body: { message: 'You cannot block yourself.' } });
    }
    expect((await remove('alice', aliceToken)).status).toBe(400);
    expect(await post('nobody_here', aliceToken)).toMatchObject({ status: 404, body: { message: 'Member not found' } });
    expect((await remove('nobody_here', aliceToken)).status).toBe(404);
    expect((await post('not a name!', aliceToken)).status).toBe(404);
    expect((await post('x'.repeat(300), aliceToken)).status).toBe(404);
    expect(await database.db.select().from(blocks)).toHaveLength(0);
  });

  it("stops the blocked member following the blocker, in the same step, and keeps the blocker's own follow", async () => {
    await database.db.insert(follows).values([
      { followerId: bob, followeeId: alice },
      { followerId: alice, followeeId: bob },
      { followerId: bob, followeeId: carol },
    ]);
    expect((await post('bob', aliceToken)).status).toBe(201);
    const remaining = await database.db.select({ followerId: follows.followerId, followeeId: follows.followeeId }).from(follows);
    expect(remaining).toHaveLength(2);
    expect(remaining).toEqual(
      expect.arrayContaining([
        { followerId: alice, followeeId: bob },
        { followerId: bob, followeeId: carol },
      ]),
    );

    // Unblocking does not bring the follow back.
    await remove('bob', aliceToken);
    expect(
      await database.db
        .select()
        .from(follows)
        .where(and(eq(follows.followerId, bob), eq(follows.followeeId, alice))),
    ).toHaveLength(0);
  });

  it('only ever blocks for the caller: nobody can make a block for someone else', async () => {
    // Whatever the body claims, the block is the caller's.
    const response = await post('carol', bobToken, { json: { blockerId: alice, blocker: 'Alice', username: 'Alice' } });
    expect(response.status).toBe(201);
    expect(await database.db.select({ blockerId: blocks.blockerId, blockedId: blocks.blockedId }).from(blocks)).toEqual([
      { blockerId: bob, blockedId: carol },
    ]);
    expect(await list(aliceToken)).toEqual([]);

    // Bob cannot lift Alice's block either: his DELETE only touches his own.
    await post('carol', aliceToken);
    await remove('carol', bobToken);
    expect((await list(aliceToken)).map((b) => b.username)).toEqual(['carol']);

    // A cookie-authenticated block from another site is refused (CSRF); from ours it works.
    const crossSite = await post('bob', undefined, {
      cookie: `chrysalis_session=${aliceToken}`,
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(await hasBlocked(database.db, alice, bob)).toBe(false);
    const sameSite = await post('bob', undefined, { cookie: `chrysalis_session=${aliceToken}`, headers: { origin: ORIGIN } });
    expect(sameSite.status).toBe(201);
  });

  it('survives concurrent blocks of the same member', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => post('carol', bobToken)));
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await database.db.select().from(blocks)).toHaveLength(1);
  });
});
