import 'server-only';

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { Client } from 'pg';

import { metrics } from '../metrics';

import {
  MAX_AGE_MS,
  MAX_PAYLOAD_BYTES,
  MAX_PREFIX_LENGTH,
  MAX_PREFIXES,
  openMessage,
  sealMessage,
  type Refusal,
} from './envelope';

/**
 * Carries lib/events.ts's cross-cutting messages between processes that share
 * one PostgreSQL database (decision 022): N web processes and M workers.
 *
 * One dedicated connection per process LISTENs on CLUSTER_CHANNEL and sends
 * this process's messages with pg_notify. PostgreSQL delivers a notification
 * to every listening session of the database, the sender's own included, so
 * each message names its sender and a process ignores its own. Messages sent
 * in a burst (a bulk approval purges once per video) are joined into one.
 *
 * Losing the connection loses the notifications sent meanwhile, so after
 * every (re)connection the process treats everything as changed: it purges
 * all its public pages and wakes its workers. Messages this process could not
 * send are kept (joined, so a long outage cannot grow them) and sent once the
 * connection is back. A connection that dies without the socket noticing is
 * found by a heartbeat query.
 *
 * Any database role can pg_notify any channel, so every message is signed
 * (lib/server/cluster/envelope.ts): one without the site's key, older than a
 * minute, or replayed is dropped, counted (`refused`, and the metric
 * chrysalis_cluster_messages_refused_total) and logged at most once a minute.
 */
export const CLUSTER_CHANNEL = 'chrysalis_events';

/** What one notification carries besides its sender. */
export interface ClusterMessage {
  /** Page-path prefixes whose public pages changed ('/' is everything). */
  purge: string[];
  /** A job was committed: idle workers should look now. */
  jobs: boolean;
}

export interface ClusterBridgeOptions {
  connectionString: string;
  /** Signs and checks every message (clusterKey() of the session secret, which all processes of a site share). */
  key: Buffer;
  /** Applies a message in this process: from another process, or everything after a (re)connection. */
  deliver: (message: ClusterMessage, why: 'remote' | 'reconnected') => void;
  /** This process's id in messages (default: host, pid and random bytes). */
  id?: string;
  /** First wait before reconnecting; doubles per failure up to maxRetryMs. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** How often the connection is checked with a query; a check that fails or takes longer than this reconnects. */
  heartbeatMs?: number;
  log?: (message: string) => void;
  /** Where refused messages are reported (default: log). */
  warn?: (message: string) => void;
}

/** At most one log line per this long about refused messages (a flood of forgeries must not flood the log). */
const REFUSAL_LOG_MS = 60_000;

export class ClusterBridge {
  readonly id: string;
  private client: Client | undefined;
  private listening = false;
  private stopped = false;
  private failures = 0;
  private pending: ClusterMessage = { purge: [], jobs: false };
  private flushScheduled = false;
  private flushing: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private sequence = 0;
  /** The last sequence number accepted from each sender heard from within MAX_AGE_MS, and its clock then. */
  private readonly senders = new Map<string, { seq: number; t: number }>();
  /** Messages dropped since start, by reason. */
  readonly refused: Record<Refusal | 'replayed', number> = { oversized: 0, forged: 0, malformed: 0, stale: 0, replayed: 0 };
  private refusalsUnlogged = 0;
  private refusalLoggedAt = -Infinity;
  private readonly firstListen: Promise<void>;
  private resolveFirstListen!: () => void;

  constructor(private readonly options: ClusterBridgeOptions) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.firstListen = new Promise((resolve) => (this.resolveFirstListen = resolve));
  }

  /** Connects and listens in the background (retrying until stop()); resolves once listening the first time. */
  start(): Promise<void> {
    void this.connect();
    return this.firstListen;
  }

  /** The server process of the listening connection (pg_stat_activity.pid), for operators and tests. */
  pid: number | undefined;

  /** Whether the connection is up and listening now. */
  get connected(): boolean {
    return this.listening;
  }

  /** Sends a message to the other processes, joined with others sent in the same tick. */
  publish(message: Partial<ClusterMessage>): void {
    if (this.stopped) return;
    this.pending = join(this.pending, { purge: message.purge ?? [], jobs: message.jobs ?? false });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  /** Sends what is still pending (when connected), then disconnects for good. */
  async stop(): Promise<void> {
    if (this.listening) await this.flush();
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeatTimer);
    await this.flushing;
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    // A connection that died silently may never finish ending; do not hold up a shutdown for it.
    if (client)
      await Promise.race([client.end().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      application_name: 'chrysalis-events',
    });
    this.client = client;
    client.on('notification', (notification) => {
      if (client === this.client && notification.channel === CLUSTER_CHANNEL) this.receive(notification.payload);
    });
    // Emitted for a connection lost after connect(); without a listener it would crash the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
      this.pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (client !== this.client) return;
    const reconnected = this.failures > 0;
    this.failures = 0;
    this.listening = true;
    if (reconnected) this.options.log?.('[cluster] listening again; purging every cached public page');
    // Notifications sent while this process was not listening are lost: assume everything changed.
    this.hand({ purge: ['/'], jobs: true }, 'reconnected');
    this.resolveFirstListen();
    this.startHeartbeat(client);
    void this.flush();
  }

  private lost(client: Client, error?: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.listening = false;
    clearInterval(this.heartbeatTimer);
    // end() on a broken socket may never finish; the replacement does not wait for it.
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.failures += 1;
    const delay = Math.min((this.options.minRetryMs ?? 250) * 2 ** (this.failures - 1), this.options.maxRetryMs ?? 10_000);
    const reason = error instanceof Error ? error.message : 'the connection ended';
    this.options.log?.(`[cluster] LISTEN connection lost (${reason}); reconnecting in ${delay} ms`);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private startHeartbeat(client: Client): void {
    const every = this.options.heartbeatMs ?? 15_000;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => {
      let answered = false;
      const timer = setTimeout(() => {
        if (!answered) this.lost(client, new Error(`no answer to a heartbeat within ${every} ms`));
      }, every);
      client.query('SELECT 1').then(
        () => {
          answered = true;
          clearTimeout(timer);
        },
        (error: unknown) => {
          answered = true;
          clearTimeout(timer);
          this.lost(client, error);
        },
      );
    }, every);
    this.heartbeatTimer.unref();
  }

  private receive(payload: string | undefined): void {
    const now = Date.now();
    const opened = openMessage(this.options.key, CLUSTER_CHANNEL, payload ?? '', now);
    if (!opened.ok) return this.refuse(opened.reason);
    const { from, seq, t, purge, jobs } = opened.message;
    if (from === this.id) return;
    // PostgreSQL delivers one session's notifications in the order sent, so a number not above the last is a replay.
    const last = this.senders.get(from);
    if (last && seq <= last.seq) return this.refuse('replayed');
    this.senders.set(from, { seq, t });
    // A sender forgotten here can only be replayed with a clock older than MAX_AGE_MS, which open() refuses.
    for (const [sender, seen] of this.senders) if (seen.t < now - MAX_AGE_MS) this.senders.delete(sender);
    if (purge.length || jobs) this.hand({ purge, jobs }, 'remote');
  }

  private refuse(reason: Refusal | 'replayed'): void {
    this.refused[reason] += 1;
    metrics().clusterRefused.inc({ reason });
    this.refusalsUnlogged += 1;
    const now = Date.now();
    if (now - this.refusalLoggedAt < REFUSAL_LOG_MS) return;
    (this.options.warn ?? this.options.log)?.(
      `[cluster] dropped ${this.refusalsUnlogged} notification(s) on ${CLUSTER_CHANNEL} that failed the check (latest: ${reason}); ` +
        'another database session is sending on the channel, or this process has another SESSION_SECRET than the others',
    );
    this.refusalsUnlogged = 0;
    this.refusalLoggedAt = now;
  }

  /** Applies a message here; a listener's failure is logged, never thrown into the connection's handlers. */
  private hand(message: ClusterMessage, why: 'remote' | 'reconnected'): void {
    try {
      this.options.deliver(message, why);
    } catch (error) {
      this.options.log?.(`[cluster] applying a ${why} message failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The signed notification; prefixes too long to fit become one purge of everything. */
  private envelope(message: ClusterMessage): string {
    this.sequence += 1;
    const signed = sealMessage(this.options.key, CLUSTER_CHANNEL, {
      v: 1,
      from: this.id,
      seq: this.sequence,
      t: Date.now(),
      ...message,
    });
    if (Buffer.byteLength(signed) <= MAX_PAYLOAD_BYTES) return signed;
    return sealMessage(this.options.key, CLUSTER_CHANNEL, {
      v: 1,
      from: this.id,
      seq: this.sequence,
      t: Date.now(),
      purge: ['/'],
      jobs: message.jobs,
    });
  }

  /** Sends what is pending, one notification at a time; kept for after the reconnection if the connection is down. */
  private flush(): Promise<void> {
    // finally() runs after this assignment even when there is nothing to send.
    this.flushing ??= this.sendPending().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async sendPending(): Promise<void> {
    while (this.listening && this.client && (this.pending.purge.length || this.pending.jobs)) {
      const message = this.pending;
      this.pending = { purge: [], jobs: false };
      try {
        await this.client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, this.envelope(message)]);
      } catch (error) {
        // Sent again after the reconnection (the connection's own handlers notice the loss).
        this.pending = join(message, this.pending);
        this.options.log?.(
          `[cluster] could not send a notification (${error instanceof Error ? error.message : String(error)}); it goes out after reconnecting`,
        );
        return;
      }
    }
  }
}

/** Two messages as one: every prefix (or everything, when '/' is among them or they are too many or too long) and any wake. */
export function join(a: ClusterMessage, b: ClusterMessage): ClusterMessage {
  const prefixes = new Set([...a.purge, ...b.purge]);
  const everything =
    prefixes.has('/') || prefixes.size > MAX_PREFIXES || [...prefixes].some((prefix) => prefix.length > MAX_PREFIX_LENGTH);
  const purge = everything ? ['/'] : [...prefixes];
  return { purge, jobs: a.jobs || b.jobs };
}
