import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

import { sql } from 'drizzle-orm';
import { Client } from 'pg';

import { onAppEvent, purgePublicPages } from '@/lib/events';
import { CLUSTER_CHANNEL, ClusterBridge, clusterKey, startClusterEvents, type ClusterMessage } from '@/lib/server/cluster';
import { sealMessage } from '@/lib/server/cluster/envelope';

import { createTestDatabase, type TestDatabase } from '../helpers/db';

/**
 * The bridge between processes on one PostgreSQL database (decision 022),
 * with several bridges in this process standing in for several processes.
 * test/integration/several-web-processes.test.ts runs the real processes.
 */
const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;
if (!process.env.TEST_DATABASE_URL)
  console.warn(
    'Skipped: the LISTEN/NOTIFY bridge tests need PostgreSQL; set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them.',
  );

type Received = { message: ClusterMessage; why: 'remote' | 'reconnected' };

const SECRET = randomBytes(32).toString('hex');
const KEY = clusterKey(SECRET);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until check() holds; fails after `ms`. */
async function until(check: () => boolean, ms = 1_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(10);
  }
}

/**
 * A TCP proxy to the database whose open connections can be frozen: bytes stop
 * flowing both ways and nothing is closed, as when a network path dies
 * silently. New connections pass normally.
 */
async function freezableProxy(target: URL) {
  const pairs: { client: Socket; upstream: Socket; frozen: boolean }[] = [];
  const server = createServer((client) => {
    const pair = { client, upstream: createConnection(Number(target.port || 5432), target.hostname), frozen: false };
    pairs.push(pair);
    client.on('data', (chunk) => pair.frozen || pair.upstream.write(chunk));
    pair.upstream.on('data', (chunk) => pair.frozen || client.write(chunk));
    const end = () => {
      client.destroy();
      pair.upstream.destroy();
    };
    for (const socket of [client, pair.upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    freeze: () => pairs.forEach((pair) => (pair.frozen = true)),
    close: () => {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describeOnPostgres('cluster events over LISTEN/NOTIFY (PostgreSQL only; skipped without TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let url: string;
  const bridges: ClusterBridge[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    url = database.databaseUrl!;
  });
  afterEach(async () => {
    await Promise.all(bridges.splice(0).map((bridge) => bridge.stop()));
  });
  afterAll(() => database.destroy());

  /** A bridge as one process runs it, recording what it delivers locally. */
  async function node(
    name: string,
    log?: (line: string) => void,
  ): Promise<{ bridge: ClusterBridge; got: Received[]; remote: () => ClusterMessage[] }> {
    const got: Received[] = [];
    const bridge = new ClusterBridge({
      connectionString: url,
      key: KEY,
      id: name,
      deliver: (message, why) => got.push({ message, why }),
      minRetryMs: 50,
      maxRetryMs: 200,
      log,
    });
    bridges.push(bridge);
    await bridge.start();
    return { bridge, got, remote: () => got.filter((entry) => entry.why === 'remote').map((entry) => entry.message) };
  }

  /** Every notification on the channel, as a bystander session sees it. */
  async function wiretap(): Promise<{
    raw: string[];
    payloads: unknown[];
    notify: (payload: string) => Promise<unknown>;
    close: () => Promise<void>;
  }> {
    const client = new Client({ connectionString: url });
    await client.connect();
    const raw: string[] = [];
    const payloads: unknown[] = [];
    client.on('notification', (notification) => {
      raw.push(notification.payload ?? '');
      // `<MAC>.<JSON body>`
      payloads.push(JSON.parse((notification.payload ?? '').replace(/^[^.{]*\./, '')));
    });
    await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
    return {
      raw,
      payloads,
      notify: (payload) => client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, payload]),
      close: () => client.end(),
    };
  }

  async function terminate(bridge: ClusterBridge) {
    await database.db.execute(sql`SELECT pg_terminate_backend(${bridge.pid!})`);
  }

  it('a purge published in one process reaches every other within a second, and not its sender', async () => {
    const [a, b, c] = [await node('a'), await node('b'), await node('c')];
    // Connecting counts as "everything may have changed" for the process itself.
    expect(a.got).toEqual([{ message: { purge: ['/'], jobs: true }, why: 'reconnected' }]);
    a.bridge.publish({ purge: ['/video/abc'] });
    await until(() => b.remote().length > 0 && c.remote().length > 0, 1_000, 'delivery to b and c');
    expect(b.remote()).toEqual([{ purge: ['/video/abc'], jobs: false }]);
    expect(c.remote()).toEqual([{ purge: ['/video/abc'], jobs: false }]);
    await sleep(200);
    expect(a.remote()).toEqual([]);
  });

  it('joins a burst into one notification, and too many prefixes into one purge of everything', async () => {
    const tap = await wiretap();
    try {
      const a = await node('a');
      for (const prefix of ['/video/1', '/video/2', '/video/1']) a.bridge.publish({ purge: [prefix] });
      a.bridge.publish({ jobs: true });
      await until(() => tap.payloads.length === 1);
      for (let i = 0; i < 40; i += 1) a.bridge.publish({ purge: [`/video/${i}`] });
      await until(() => tap.payloads.length === 2);
      await sleep(200);
      expect(tap.payloads).toEqual([
        expect.objectContaining({ from: 'a', purge: ['/video/1', '/video/2'], jobs: true }),
        expect.objectContaining({ from: 'a', purge: ['/'], jobs: false }),
      ]);
    } finally {
      await tap.close();
    }
  });

  it('purges everything when the prefixes would not fit in one notification (PostgreSQL refuses 8000 bytes or more)', async () => {
    const [a, b] = [await node('a'), await node('b')];
    for (let i = 0; i < 30; i += 1) a.bridge.publish({ purge: [`/category/${String(i).padStart(2, '0')}${'x'.repeat(900)}`] });
    await until(() => b.remote().length === 1, 2_000, 'the oversized burst');
    expect(b.remote()).toEqual([{ purge: ['/'], jobs: false }]);
  });

  it('after losing its connection, a process purges everything once listening again, and sends what it could not send meanwhile', async () => {
    const [a, b] = [await node('a'), await node('b')];
    const firstPid = b.bridge.pid;
    await terminate(b.bridge);
    await until(() => b.got.length === 2 && b.bridge.connected, 3_000, 'b listening again');
    expect(b.got[1]).toEqual({ message: { purge: ['/'], jobs: true }, why: 'reconnected' });
    expect(b.bridge.pid).not.toBe(firstPid);

    // a's connection goes while it has something to say: it is said once a is back.
    await terminate(a.bridge);
    a.bridge.publish({ purge: ['/category/Beta'] });
    await until(() => b.remote().length === 1, 3_000, 'the message sent across a reconnection');
    expect(b.remote()).toEqual([{ purge: ['/category/Beta'], jobs: false }]);
  });

  it('notices a connection that stopped answering without closing (heartbeat), and purges everything once listening again', async () => {
    const proxy = await freezableProxy(new URL(url));
    try {
      const got: Received[] = [];
      const bridge = new ClusterBridge({
        connectionString: proxy.url,
        key: KEY,
        id: 'behind-proxy',
        deliver: (message, why) => got.push({ message, why }),
        minRetryMs: 50,
        heartbeatMs: 200,
      });
      bridges.push(bridge);
      await bridge.start();
      const firstPid = bridge.pid;
      const sender = await node('sender');
      proxy.freeze();
      // Sent while the path is dead: never arrives, so the reconnection must stand in for it.
      sender.bridge.publish({ purge: ['/video/lost'] });
      await until(() => got.length === 2, 3_000, 'reconnection after a silent failure');
      expect(got.map((entry) => entry.why)).toEqual(['reconnected', 'reconnected']);
      expect(got[1]!.message).toEqual({ purge: ['/'], jobs: true });
      expect(bridge.pid).not.toBe(firstPid);
      sender.bridge.publish({ purge: ['/video/after'] });
      await until(() => got.length === 3);
      expect(got[2]).toEqual({ message: { purge: ['/video/after'], jobs: false }, why: 'remote' });
    } finally {
      await Promise.all(bridges.splice(0).map((bridge) => bridge.stop()));
      await proxy.close();
    }
  });

  it('connects the process bus both ways: local purges and wake-ups go out, remote ones come in, nothing comes back', async () => {
    const remote = await node('elsewhere');
    const cluster = startClusterEvents(url, SECRET, () => undefined);
    try {
      await until(() => cluster.bridge.connected, 3_000, 'the process bridge listening');
      const purged: string[] = [];
      let woken = 0;
      const off = [
        onAppEvent('public-content-changed', (prefix) => purged.push(prefix)),
        onAppEvent('jobs-enqueued', () => (woken += 1)),
      ];
      try {
        purgePublicPages('/category/Sissy');
        await until(() => remote.remote().length === 1);
        expect(remote.remote()).toEqual([{ purge: ['/category/Sissy'], jobs: false }]);

        remote.bridge.publish({ purge: ['/video/q'], jobs: true });
        await until(() => woken === 1);
        expect(purged).toEqual(['/category/Sissy', '/video/q']);
        // Replayed locally, not sent out again.
        await sleep(300);
        expect(remote.remote()).toHaveLength(1);
      } finally {
        for (const unsubscribe of off) unsubscribe();
      }
    } finally {
      await cluster.stop();
    }
  });

  it('drops what another database session sends on the channel without the key, and replayed or stale messages; logs once, counts each', async () => {
    const logged: string[] = [];
    const [a, b] = [await node('a'), await node('b', (line) => logged.push(line))];
    const tap = await wiretap();
    try {
      // Any role that can connect may NOTIFY: the old unsigned form, a MAC under another key, garbage.
      await tap.notify(JSON.stringify({ from: 'mallory', purge: ['/'], jobs: true }));
      await tap.notify(
        sealMessage(randomBytes(32), CLUSTER_CHANNEL, { v: 1, from: 'mallory', seq: 1, t: Date.now(), purge: ['/'], jobs: true }),
      );
      await tap.notify(`${'A'.repeat(43)}.{"v":1}`);
      // The right key, but a clock ten minutes old (a message recorded then).
      await tap.notify(
        sealMessage(KEY, CLUSTER_CHANNEL, { v: 1, from: 'old', seq: 1, t: Date.now() - 600_000, purge: ['/'], jobs: true }),
      );

      // A real message, then the same bytes sent again by the eavesdropper.
      a.bridge.publish({ purge: ['/video/real'] });
      await until(() => b.remote().length === 1 && tap.raw.length === 5, 2_000, 'the real message');
      await tap.notify(tap.raw[4]!);
      // A process holding the key, sending now: accepted (the check refuses the others, not every stranger).
      await tap.notify(
        sealMessage(KEY, CLUSTER_CHANNEL, {
          v: 1,
          from: 'other-process',
          seq: 7,
          t: Date.now(),
          purge: ['/category/Beta'],
          jobs: false,
        }),
      );
      await until(() => b.remote().length === 2, 2_000, 'the message of another key holder');
      await sleep(200);

      expect(b.remote()).toEqual([
        { purge: ['/video/real'], jobs: false },
        { purge: ['/category/Beta'], jobs: false },
      ]);
      expect(b.bridge.refused).toEqual({ forged: 3, malformed: 0, stale: 1, replayed: 1, oversized: 0 });
      // Five refusals, one line: a flood of forgeries does not flood the log.
      expect(logged.filter((line) => line.includes('dropped'))).toEqual([
        expect.stringMatching(/dropped 1 notification\(s\) .* failed the check \(latest: forged\)/),
      ]);
    } finally {
      await tap.close();
    }
  });
});
