/**
 * npm run bench:community
 *
 * Likes, notifications and the following feed over HTTP against the
 * production server, on `npm run seed` catalogues: scratch PostgreSQL
 * databases `chrysalis_benchc_<size>` on BENCH_PG_URL's server (dropped at
 * the end unless BENCH_KEEP_DB=1) for BENCH_SIZES, and the embedded PGlite
 * for BENCH_PGLITE_SIZES. Each catalogue is prepared before its server
 * starts (PGlite allows one process at a time), by the bench itself with
 * SQL: BENCH_MEMBERS members who like, a reader with BENCH_NOTIFICATIONS
 * notifications (all unread, the worst case for the unread count), and a
 * fan who follows BENCH_CREATORS creators picked at random among the
 * seeded owners. Everyone logs in through POST /api/auth/login (each from
 * its own X-Forwarded-For address, so the per-address limit stays out of
 * it) and sends the real bearer token. Sections (BENCH_ONLY=likes,notifications,feed):
 *
 * - likes: one member alone (no queueing), then BENCH_MEMBERS members at once, each liking then unliking
 *   BENCH_LIKE_ROUNDS videos drawn from BENCH_LIKE_VIDEOS public ones
 *   (POST and DELETE /api/videos/{id}/like); then all of them on one video
 *   (the video row's lock is the contended part). p50/p95 of like and
 *   unlike separately and requests/s, against GET /api/videos/{id}/like by
 *   the same members at the same concurrency (the baseline: session, video
 *   lookup and JSON without the write). Afterwards every touched video's
 *   count must be back where it started.
 * - notifications: GET /api/notifications (20 a page, with the unread count)
 *   at page 1 and at pages 10, 100 and the last by cursor (the cursors come
 *   from walking the list); PUT /api/notifications/{id}/read.
 * - feed: GET /api/feed/following for the fan at page 1, page 2 by number
 *   and pages 10, 100 and 1000 by cursor (target p95 ≤ 50 ms).
 * Sequential measures are compared with GET /api/auth/me by the same token.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';

import { queryRows, type Database } from '@/lib/db';
import { openDatabase } from '@/lib/db/open';
import { PUBLIC_VIDEO } from '@/lib/db/schema';
import { hashPassword } from '@/lib/server/auth/passwords';
import { WATCH_HISTORY_MAX } from '@/lib/validation/history';

import { count, createSummary, percentile, secs, seedCatalogue, withPostgres } from './lib/bench';
import { buildIfNeeded } from './lib/build';
import { ownServerPid, startServerProcess, stopServerProcess, waitForServer } from './lib/server-process';

// Off the ports other checkouts use (3100-3209); PORT is baked into the build.
const PORT = Number(process.env.BENCH_PORT ?? 3300);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SECTIONS = ['likes', 'notifications', 'feed', 'history'] as const;
type Section = (typeof SECTIONS)[number];
const ONLY = new Set(
  (process.env.BENCH_ONLY || SECTIONS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const sizesOf = (value: string) =>
  value
    .split(',')
    .map((s) => Number(s.replace(/[_\s]/g, '')))
    .filter((n) => Number.isInteger(n) && n > 0);
const SIZES = sizesOf(process.env.BENCH_SIZES ?? '1000000');
const PGLITE_SIZES = sizesOf(process.env.BENCH_PGLITE_SIZES ?? '10000');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const KEEP_DATABASES = process.env.BENCH_KEEP_DB === '1';
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50);
const LIKE_ROUNDS = Number(process.env.BENCH_LIKE_ROUNDS ?? 20);
const LIKE_VIDEOS = Number(process.env.BENCH_LIKE_VIDEOS ?? 500);
const HOT_ROUNDS = Number(process.env.BENCH_HOT_ROUNDS ?? 10);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);
const CREATORS = Number(process.env.BENCH_CREATORS ?? 1000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const HISTORY_MEMBERS = Number(process.env.BENCH_HISTORY_MEMBERS ?? 1_000_000);
const HISTORY_ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 2);
const PROGRESS_ROUNDS = Number(process.env.BENCH_PROGRESS_ROUNDS ?? 40);
/** Saves per video before a member moves to the next: the player saves every 10 s, so ten is under two minutes of one video. */
const SAVES_PER_VIDEO = 10;
const HISTORY_PER_PAGE = 12;
/** A slow request gets fewer samples (at least 20) rather than taking minutes. */
const QUERY_BUDGET_MS = Number(process.env.BENCH_QUERY_SECONDS ?? 30) * 1000;
const FEED_TARGET_MS = 50;
const NOTIFICATIONS_PER_PAGE = 20;
const FEED_PER_PAGE = 12;
const PASSWORD = `bench-${randomBytes(12).toString('hex')}`;

// ---------------------------------------------------------------------------------------------- reporting

const summary = createSummary();
const { note } = summary;
const say = (line: string) => console.log(line);
const progress = (line: string) => console.error(`[bench:community] ${line}`);
const fixed = (ms: number) => ms.toFixed(1);

interface Latency {
  p50: number;
  p95: number;
  n: number;
  /** Requests per second, for concurrent runs. */
  rps?: number;
}
const stats = (times: number[], wallMs?: number): Latency => ({
  p50: percentile(times, 50),
  p95: percentile(times, 95),
  n: times.length,
  ...(wallMs ? { rps: (times.length / wallMs) * 1000 } : {}),
});

function table(title: string, rows: { what: string; result: Latency; baseline?: Latency }[]) {
  say(`\n${title}`);
  say(
    `${'request'.padEnd(50)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(9)}${'n'.padStart(7)}${'req/s'.padStart(9)}${'p50 ×base'.padStart(11)}`,
  );
  for (const { what, result, baseline } of rows) {
    say(
      `${what.padEnd(50)}${fixed(result.p50).padStart(8)}${fixed(result.p95).padStart(9)}${String(result.n).padStart(7)}` +
        `${(result.rps === undefined ? '' : result.rps.toFixed(0)).padStart(9)}${(baseline ? (result.p50 / baseline.p50).toFixed(2) : '').padStart(11)}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------- HTTP

interface Answer<T> {
  ms: number;
  body: T;
}

async function call<T>(method: string, pathname: string, token: string, expect = 200): Promise<Answer<T>> {
  const started = performance.now();
  const response = await fetch(`${ORIGIN}${pathname}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== expect) throw new Error(`${method} ${pathname} answered ${response.status}: ${text.slice(0, 200)}`);
  return { ms, body: JSON.parse(text) as T };
}

/** Sequential GETs after 10 warm-ups: p50/p95 in ms. */
async function sequential(pathname: string, token: string): Promise<Latency> {
  for (let i = 0; i < 10; i += 1) await call('GET', pathname, token);
  const times: number[] = [];
  const started = performance.now();
  while (times.length < REQUESTS && (times.length < 20 || performance.now() - started < QUERY_BUDGET_MS))
    times.push((await call('GET', pathname, token)).ms);
  return stats(times);
}

/** Each worker runs its steps one after the other, all workers at once; times by step label, and the wall time. */
async function concurrently(workers: number, steps: (worker: number) => { label: string; run: () => Promise<number> }[]) {
  const times = new Map<string, number[]>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (const step of steps(worker)) {
        const ms = await step.run();
        const list = times.get(step.label) ?? [];
        list.push(ms);
        times.set(step.label, list);
      }
    }),
  );
  return { times, wallMs: performance.now() - started };
}

let forwardedFor = 0;
/** Logs in through the API from an address of its own (a header value only: the request goes to 127.0.0.1). */
async function login(email: string): Promise<string> {
  forwardedFor += 1;
  const response = await fetch(`${ORIGIN}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `127.${(forwardedFor >> 16) & 255}.${(forwardedFor >> 8) & 255}.${forwardedFor & 255}`,
    },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await response.json()) as { token?: string; message?: string };
  if (!response.ok || !body.token) throw new Error(`login of ${email} answered ${response.status}: ${body.message}`);
  return body.token;
}

/** The cursors that lead to the given pages, by following nextCursor from page 1 (null where the list ends first). */
async function walkCursors(
  firstPage: string,
  token: string,
  pages: number[],
  next: (body: unknown) => string | null,
): Promise<Map<number, string | null>> {
  const found = new Map<number, string | null>();
  const last = Math.max(...pages);
  let cursor = next((await call('GET', firstPage, token)).body);
  for (let page = 2; page <= last && cursor; page += 1) {
    if (pages.includes(page)) found.set(page, cursor);
    cursor = next(
      (await call('GET', `${firstPage}${firstPage.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`, token)).body,
    );
  }
  for (const page of pages) if (!found.has(page)) found.set(page, null);
  return found;
}

// ---------------------------------------------------------------------------------------------- catalogues

interface Catalogue {
  engine: 'PostgreSQL' | 'PGlite';
  size: number;
  /** Scratch database name (PostgreSQL only). */
  database: string | null;
  databaseUrl: string;
  dataDir: string;
  label: string;
}

interface Prepared {
  likers: string[];
  fan: string;
  reader: string;
  /** Public videos likes go to, with their like count before the bench. */
  pool: { streamVideoId: string; likes: number }[];
  creators: number;
  fanVideos: number;
  /** watch_history rows in all, and the table's size with its indexes (0 without the history section). */
  historyRows: number;
  historyBytes: number;
  prepareMs: number;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bench-community-'));

const baseEnv = (): NodeJS.ProcessEnv => ({ ...process.env, PORT: String(PORT), SITE_URL: ORIGIN, NODE_ENV: 'production' });

function serverEnv(catalogue: Catalogue, sessionSecret: string): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    SEED_DEMO: '0', // demo seeding would run ffmpeg in the background
    TRUST_PROXY: '1', // the bench stands in for one proxy: each login's X-Forwarded-For is its client address
    DATABASE_URL: catalogue.databaseUrl, // empty counts as unset: the embedded database in DATA_DIR
    DATA_DIR: catalogue.dataDir,
    ...(catalogue.databaseUrl ? { SESSION_SECRET: sessionSecret } : {}),
  };
}

/**
 * The bench's own rows, written with SQL before the server starts: members
 * (one password hash, verified), the fan's follows, the reader's
 * notifications; then VACUUM ANALYZE, as autovacuum would soon after a bulk
 * load (visibility map for index-only scans, statistics for the planner).
 */
async function prepare(catalogue: Catalogue): Promise<Prepared> {
  const started = performance.now();
  const handle = await openDatabase({
    databaseUrl: catalogue.databaseUrl || undefined,
    dataDir: catalogue.dataDir,
    migrate: false,
  });
  try {
    const { db } = handle;
    const run = randomBytes(3).toString('hex');
    const prefix = `benchc_${run}_`;
    const passwordHash = await hashPassword(PASSWORD);
    const people = MEMBERS + 2;
    await db.execute(sql`
      INSERT INTO users (username, email, password_hash, date_of_birth, email_verified_at)
      SELECT ${prefix} || g, 'benchc-' || ${run} || '-' || g || '@example.org', ${passwordHash}, DATE '1990-01-01', now()
      FROM generate_series(1, ${people}::int) g`);
    const emailOf = (n: number) => `benchc-${run}-${n}@example.org`;
    const idOf = async (n: number) =>
      (await queryRows<{ id: string }>(db, sql`SELECT id FROM users WHERE lower(username) = ${`${prefix}${n}`}`))[0]!.id;
    const fanId = await idOf(MEMBERS + 1);
    const readerId = await idOf(MEMBERS + 2);

    // The fan follows creators with public videos, picked at random.
    await db.execute(sql`
      INSERT INTO follows (follower_id, followee_id, created_at)
      SELECT ${fanId}, u.id, now() - random() * interval '300 days'
      FROM users u
      WHERE u.username LIKE 'seed\\_%' AND EXISTS (SELECT 1 FROM videos WHERE owner_id = u.id AND ${PUBLIC_VIDEO})
      ORDER BY random()
      LIMIT ${CREATORS}`);
    const [followed] = await queryRows<{ creators: number; videos: number }>(
      db,
      sql`SELECT count(DISTINCT f.followee_id)::int AS creators, count(v.id)::int AS videos
          FROM follows f LEFT JOIN videos v ON v.owner_id = f.followee_id AND ${PUBLIC_VIDEO}
          WHERE f.follower_id = ${fanId}`,
    );

    // The reader's notifications: the spec's five types from seeded members, one every few minutes back in time.
    await db.execute(sql`
      WITH senders AS (
        SELECT array_agg(id) AS ids, array_agg(username) AS names
        FROM (SELECT id, username FROM users WHERE username LIKE 'seed\\_%' ORDER BY random() LIMIT 500) s
      ), shaped AS (
        SELECT g, (ARRAY['like', 'follow', 'comment', 'like', 'video_approved', 'video_rejected'])[1 + g % 6] AS type,
               1 + (g * 7919) % cardinality(senders.ids) AS k, senders.ids, senders.names
        FROM generate_series(1, ${NOTIFICATIONS}::int) g CROSS JOIN senders
      )
      INSERT INTO notifications (recipient_id, sender_id, type, link, message, created_at)
      SELECT ${readerId},
             CASE WHEN type LIKE 'video\\_%' THEN NULL ELSE ids[k] END,
             type,
             CASE WHEN type = 'follow' THEN '/profile/' || names[k] ELSE '/video/bench' || lpad((g % 1000)::text, 7, '0') END,
             CASE WHEN type = 'like' THEN names[k] || ' liked your video "Velvet makeover"' END,
             now() - g * interval '5 minutes' - random() * interval '4 minutes'
      FROM shaped`);

    const pool = await queryRows<{ stream_video_id: string; likes_count: number }>(
      db,
      sql`SELECT stream_video_id, likes_count FROM videos WHERE ${PUBLIC_VIDEO} ORDER BY random() LIMIT ${LIKE_VIDEOS}`,
    );
    const history = ONLY.has('history') ? await prepareHistory(db, run, passwordHash, readerId) : { rows: 0, bytes: 0 };
    await db.execute(sql`VACUUM (ANALYZE) videos, users, follows, notifications, video_likes, watch_history`);
    return {
      likers: Array.from({ length: MEMBERS }, (_, i) => emailOf(i + 1)),
      fan: emailOf(MEMBERS + 1),
      reader: emailOf(MEMBERS + 2),
      pool: pool.map((row) => ({ streamVideoId: row.stream_video_id, likes: Number(row.likes_count) })),
      creators: Number(followed?.creators ?? 0),
      fanVideos: Number(followed?.videos ?? 0),
      historyRows: history.rows,
      historyBytes: history.bytes,
      prepareMs: performance.now() - started,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The history section's rows: HISTORY_MEMBERS members (no logins: they only fill the table and its indexes), each with
 * HISTORY_ROWS rows on public videos picked by a cheap hash of (member, row) over a numbered list of them, watched at
 * random times in the last year; and the reader's full history (WATCH_HISTORY_MAX rows), the /history list measured.
 */
async function prepareHistory(db: Database, run: string, passwordHash: string, readerId: string) {
  const started = performance.now();
  progress(`history: ${count(HISTORY_MEMBERS)} members with ${HISTORY_ROWS} rows each…`);
  await db.execute(sql`
    INSERT INTO users (username, email, password_hash, date_of_birth, email_verified_at)
    SELECT 'benchh_' || ${run} || '_' || g, 'benchh-' || ${run} || '-' || g || '@example.org', ${passwordHash}, DATE '1990-01-01', now()
    FROM generate_series(1, ${HISTORY_MEMBERS}::int) g`);
  // The public videos numbered, so a hash picks one in a join (a CTE in each statement: the pool's connections share no temp table).
  const numbered = sql`SELECT row_number() OVER () AS n, id, duration_seconds FROM videos WHERE ${PUBLIC_VIDEO}`;
  const [{ videos: publicVideos } = { videos: 0 }] = await queryRows<{ videos: number }>(
    db,
    sql`SELECT count(*)::int AS videos FROM videos WHERE ${PUBLIC_VIDEO}`,
  );
  await db.execute(sql`
    WITH p AS (${numbered})
    INSERT INTO watch_history (user_id, video_id, position_seconds, finished, updated_at)
    SELECT u.id, p.id, coalesce(p.duration_seconds, 600) * random(), random() < 0.3, now() - random() * interval '365 days'
    FROM users u
    CROSS JOIN generate_series(1, ${HISTORY_ROWS}::int) r
    JOIN p ON p.n = 1 + (abs(hashtext(u.id::text || r)) % ${publicVideos})
    WHERE u.username LIKE ${`benchh\\_${run}\\_%`}
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`
    WITH p AS (${numbered})
    INSERT INTO watch_history (user_id, video_id, position_seconds, finished, updated_at)
    SELECT ${readerId}, p.id, coalesce(p.duration_seconds, 600) * random(), random() < 0.3, now() - p.n * interval '1 minute'
    FROM p WHERE p.n <= ${WATCH_HISTORY_MAX}`);
  const [size] = await queryRows<{ rows: number; bytes: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM watch_history)::int AS rows, pg_total_relation_size('watch_history')::bigint AS bytes`,
  );
  progress(`history rows in ${secs(performance.now() - started)}`);
  return { rows: Number(size?.rows ?? 0), bytes: Number(size?.bytes ?? 0) };
}

// ---------------------------------------------------------------------------------------------- sections

interface Tokens {
  likers: string[];
  fan: string;
  reader: string;
}

type LikeAnswer = { liked: boolean; likes: number };

async function sectionLikes(catalogue: Catalogue, prepared: Prepared, tokens: Tokens) {
  const { pool } = prepared;
  const members = tokens.likers.length;
  // Each member's videos: distinct for that member, spread over the pool (members overlap on videos, as people do).
  const videoOf = (member: number, round: number) => pool[(member * 7 + round * 13) % pool.length]!.streamVideoId;
  const likeStep = (label: string, token: string, id: string, method: 'POST' | 'DELETE') => ({
    label,
    run: async () => {
      const answer = await call<LikeAnswer>(method, `/api/videos/${id}/like`, token);
      if (answer.body.liked !== (method === 'POST'))
        throw new Error(`${method} like of ${id} answered liked: ${answer.body.liked}`);
      return answer.ms;
    },
  });
  // Warm-up: every member likes and unlikes twice, and reads a like state.
  await concurrently(members, (m) =>
    [0, 1].flatMap((r) => [
      likeStep('like', tokens.likers[m]!, videoOf(m, LIKE_ROUNDS + r), 'POST'),
      likeStep('unlike', tokens.likers[m]!, videoOf(m, LIKE_ROUNDS + r), 'DELETE'),
    ]),
  );
  // One member alone, one request at a time: the time a like takes without queueing behind the others.
  const aloneRounds = Math.max(10, Math.min(LIKE_ROUNDS * 5, Math.floor(REQUESTS / 2)));
  const alone = await concurrently(1, () =>
    Array.from({ length: aloneRounds }, (_, r) => {
      const id = pool[(r * 17 + 3) % pool.length]!.streamVideoId;
      return [likeStep('like', tokens.likers[0]!, id, 'POST'), likeStep('unlike', tokens.likers[0]!, id, 'DELETE')];
    }).flat(),
  );
  const baseline = await concurrently(members, (m) =>
    Array.from({ length: LIKE_ROUNDS }, (_, r) => ({
      label: 'state',
      run: async () => (await call<LikeAnswer>('GET', `/api/videos/${videoOf(m, r)}/like`, tokens.likers[m]!)).ms,
    })),
  );
  const spread = await concurrently(members, (m) =>
    Array.from({ length: LIKE_ROUNDS }, (_, r) => [
      likeStep('like', tokens.likers[m]!, videoOf(m, r), 'POST'),
      likeStep('unlike', tokens.likers[m]!, videoOf(m, r), 'DELETE'),
    ]).flat(),
  );
  const hotId = pool[0]!.streamVideoId;
  const hot = await concurrently(members, (m) =>
    Array.from({ length: HOT_ROUNDS }, () => [
      likeStep('like', tokens.likers[m]!, hotId, 'POST'),
      likeStep('unlike', tokens.likers[m]!, hotId, 'DELETE'),
    ]).flat(),
  );

  // Every like was undone: each touched video's count must be what it was before.
  let wrong = 0;
  const touched = new Set<string>([hotId]);
  for (let m = 0; m < members; m += 1) for (let r = 0; r < LIKE_ROUNDS + 2; r += 1) touched.add(videoOf(m, r));
  for (let r = 0; r < aloneRounds; r += 1) touched.add(pool[(r * 17 + 3) % pool.length]!.streamVideoId);
  for (const video of pool.filter((v) => touched.has(v.streamVideoId))) {
    const state = await call<LikeAnswer>('GET', `/api/videos/${video.streamVideoId}/like`, tokens.likers[0]!);
    if (state.body.likes !== video.likes || state.body.liked) wrong += 1;
  }

  const base = stats(baseline.times.get('state')!, baseline.wallMs);
  const aloneLike = stats(alone.times.get('like')!);
  const aloneUnlike = stats(alone.times.get('unlike')!);
  const like = stats(spread.times.get('like')!);
  const unlike = stats(spread.times.get('unlike')!);
  const writes = spread.times.get('like')!.length + spread.times.get('unlike')!.length;
  const writeRps = (writes / spread.wallMs) * 1000;
  const hotLike = stats(hot.times.get('like')!);
  const hotUnlike = stats(hot.times.get('unlike')!);
  const hotRps = ((hot.times.get('like')!.length + hot.times.get('unlike')!.length) / hot.wallMs) * 1000;
  table(
    `likes on ${catalogue.label}: one member alone, then ${members} members at once, ${LIKE_ROUNDS} like + unlike each over ${pool.length} videos, then ${HOT_ROUNDS} each on one video`,
    [
      { what: `GET /api/videos/{id}/like (baseline, ${members} at once)`, result: base },
      { what: 'POST like (one member alone)', result: aloneLike },
      { what: 'DELETE like (one member alone)', result: aloneUnlike },
      { what: 'POST like (many videos)', result: { ...like, rps: writeRps / 2 }, baseline: base },
      { what: 'DELETE like (many videos)', result: { ...unlike, rps: writeRps / 2 }, baseline: base },
      { what: 'POST like (one video, all members)', result: { ...hotLike, rps: hotRps / 2 }, baseline: base },
      { what: 'DELETE like (one video, all members)', result: { ...hotUnlike, rps: hotRps / 2 }, baseline: base },
    ],
  );
  say(
    `like + unlike throughput: ${writeRps.toFixed(0)} req/s over many videos, ${hotRps.toFixed(0)} req/s on one video; counts back where they started on ${touched.size - wrong} of ${touched.size} videos`,
  );
  const at = `${catalogue.engine}, ${members} at once`;
  note({
    section: 'likes',
    measure: `like p50 / p95 (${at})`,
    result: `${fixed(like.p50)} / ${fixed(like.p95)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'likes',
    measure: `unlike p50 / p95 (${at})`,
    result: `${fixed(unlike.p50)} / ${fixed(unlike.p95)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'likes',
    measure: `like / unlike p50, one member alone (${catalogue.engine})`,
    result: `${fixed(aloneLike.p50)} / ${fixed(aloneUnlike.p50)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'likes',
    measure: `like / unlike p95, one video (${at})`,
    result: `${fixed(hotLike.p95)} / ${fixed(hotUnlike.p95)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'likes',
    measure: `like + unlike throughput (${catalogue.engine})`,
    result: `${writeRps.toFixed(0)} req/s`,
    target: '',
    ok: null,
  });
  note({
    section: 'likes',
    measure: `counts back to start (${catalogue.engine})`,
    result: `${touched.size - wrong}/${touched.size}`,
    target: 'all',
    ok: wrong === 0,
  });
}

type NotificationPage = { notifications: { _id: string }[]; unreadCount: number; pagination: { nextCursor: string | null } };

async function sectionNotifications(catalogue: Catalogue, tokens: Tokens, me: Latency) {
  const first = `/api/notifications?limit=${NOTIFICATIONS_PER_PAGE}`;
  const lastPage = Math.ceil(NOTIFICATIONS / NOTIFICATIONS_PER_PAGE);
  const pages = [...new Set([10, 100, lastPage])].filter((p) => p > 1 && p <= lastPage);
  const cursors = await walkCursors(first, tokens.reader, pages, (body) => (body as NotificationPage).pagination.nextCursor);
  const page1 = await call<NotificationPage>('GET', first, tokens.reader);
  const rows: { what: string; result: Latency; baseline?: Latency }[] = [{ what: 'GET /api/auth/me (baseline)', result: me }];
  const first1 = await sequential(first, tokens.reader);
  rows.push({ what: 'GET /api/notifications page 1', result: first1, baseline: me });
  for (const page of pages) {
    const cursor = cursors.get(page);
    if (cursor)
      rows.push({
        what: `GET /api/notifications page ${page} (cursor)`,
        result: await sequential(`${first}&cursor=${encodeURIComponent(cursor)}`, tokens.reader),
        baseline: me,
      });
  }
  // Marking read: each request a different notification (from the first pages), so every one writes.
  const ids = (await call<NotificationPage>('GET', '/api/notifications?limit=50', tokens.reader)).body.notifications.map(
    (n) => n._id,
  );
  const marks: number[] = [];
  for (const id of ids) marks.push((await call('PUT', `/api/notifications/${id}/read`, tokens.reader)).ms);
  rows.push({ what: 'PUT /api/notifications/{id}/read', result: stats(marks), baseline: me });
  table(
    `notifications on ${catalogue.label}: one member with ${count(NOTIFICATIONS)} (${count(page1.body.unreadCount)} unread), ${NOTIFICATIONS_PER_PAGE} a page, sequential requests after 10 warm-ups`,
    rows,
  );
  const worst = rows.slice(1).reduce((a, b) => (b.result.p95 > a.result.p95 ? b : a));
  note({
    section: 'notif',
    measure: `list page 1 p50 / p95 (${catalogue.engine})`,
    result: `${fixed(first1.p50)} / ${fixed(first1.p95)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'notif',
    measure: `worst p95 (${catalogue.engine}: ${worst.what.replace('GET /api/notifications ', '')})`,
    result: `${fixed(worst.result.p95)} ms`,
    target: '',
    ok: null,
  });
}

async function sectionFeed(catalogue: Catalogue, prepared: Prepared, tokens: Tokens, me: Latency) {
  const first = `/api/feed/following?limit=${FEED_PER_PAGE}`;
  const pages = [10, 100, 1000];
  const cursors = await walkCursors(
    first,
    tokens.fan,
    pages,
    (body) => (body as { pagination: { nextCursor: string | null } }).pagination.nextCursor,
  );
  const rows: { what: string; result: Latency; baseline?: Latency }[] = [{ what: 'GET /api/auth/me (baseline)', result: me }];
  rows.push({ what: 'GET /api/feed/following page 1', result: await sequential(first, tokens.fan), baseline: me });
  rows.push({
    what: 'GET /api/feed/following page 2 (page=2)',
    result: await sequential(`${first}&page=2`, tokens.fan),
    baseline: me,
  });
  for (const page of pages) {
    const cursor = cursors.get(page);
    rows.push(
      cursor
        ? {
            what: `GET /api/feed/following page ${page} (cursor)`,
            result: await sequential(`${first}&cursor=${encodeURIComponent(cursor)}`, tokens.fan),
            baseline: me,
          }
        : { what: `page ${page}: past the end`, result: { p50: 0, p95: 0, n: 0 } },
    );
  }
  table(
    `following feed on ${catalogue.label}: a member following ${count(prepared.creators)} creators (${count(prepared.fanVideos)} public videos), ${FEED_PER_PAGE} a page`,
    rows.filter((r) => r.result.n > 0),
  );
  const measured = rows.slice(1).filter((r) => r.result.n > 0);
  const worst = measured.reduce((a, b) => (b.result.p95 > a.result.p95 ? b : a));
  const target = catalogue.engine === 'PostgreSQL' && catalogue.size >= 1_000_000;
  note({
    section: 'feed',
    measure: `worst p95, ${count(catalogue.size)} on ${catalogue.engine} (${worst.what.replace('GET /api/feed/following ', '')})`,
    result: `${fixed(worst.result.p95)} ms`,
    target: target ? `≤ ${FEED_TARGET_MS} ms` : '',
    ok: target ? worst.result.p95 <= FEED_TARGET_MS : null,
  });
}

// ---------------------------------------------------------------------------------------------- main

type Saved = { saved: boolean; paused: boolean };
type HistoryPage = { videos: unknown[]; pagination: { nextCursor: string | null } };

async function sectionHistory(catalogue: Catalogue, prepared: Prepared, tokens: Tokens, me: Latency) {
  const { pool } = prepared;
  const members = tokens.likers.length;
  // Member m watches video k for SAVES_PER_VIDEO saves, then the next: positions rise 10 s a save.
  const videoOf = (member: number, round: number) =>
    pool[(member * 11 + Math.floor(round / SAVES_PER_VIDEO) * 17) % pool.length]!.streamVideoId;
  const put = async (token: string, id: string, positionSeconds: number) => {
    const started = performance.now();
    const response = await fetch(`${ORIGIN}/api/videos/${id}/progress`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ positionSeconds }),
    });
    const body = (await response.json()) as Saved & { message?: string };
    const ms = performance.now() - started;
    // A position past a seeded video's (random) length is a 400 with its message: still a full round trip, but not a write.
    if (!response.ok || !body.saved) throw new Error(`PUT progress of ${id} answered ${response.status}: ${body.message}`);
    return ms;
  };
  const step = (token: string, member: number, round: number) => ({
    label: 'save',
    run: () => put(token, videoOf(member, round), 1 + (round % SAVES_PER_VIDEO) * 0.5),
  });
  // Warm-up, then one member alone (the fan: its own rate-limit budget), then all at once.
  await concurrently(members, (m) => [0, 1].map((r) => step(tokens.likers[m]!, m, PROGRESS_ROUNDS + r)));
  const aloneRounds = Math.min(200, Math.max(20, REQUESTS / 2));
  const alone = await concurrently(1, () => Array.from({ length: aloneRounds }, (_, r) => step(tokens.fan, members + 1, r)));
  const baseline = await concurrently(members, (m) =>
    Array.from({ length: PROGRESS_ROUNDS }, (_, r) => ({
      label: 'read',
      run: async () => (await call('GET', `/api/videos/${videoOf(m, r)}/progress`, tokens.likers[m]!)).ms,
    })),
  );
  const spread = await concurrently(members, (m) =>
    Array.from({ length: PROGRESS_ROUNDS }, (_, r) => step(tokens.likers[m]!, m, r)),
  );
  const base = stats(baseline.times.get('read')!, baseline.wallMs);
  const lone = stats(alone.times.get('save')!, alone.wallMs);
  const many = stats(spread.times.get('save')!, spread.wallMs);

  // The reader's 1,000 rows: page 1, Continue watching, and a deep page by cursor.
  const first = `/api/users/me/history?limit=${HISTORY_PER_PAGE}`;
  const cursors = await walkCursors(first, tokens.reader, [50, 80], (body) => (body as HistoryPage).pagination.nextCursor);
  const page1 = await sequential(first, tokens.reader);
  const unfinished = await sequential(`/api/users/me/history?unfinished=true&limit=4`, tokens.reader);
  const deep = new Map<number, Latency>();
  for (const [page, cursor] of cursors)
    if (cursor) deep.set(page, await sequential(`${first}&cursor=${encodeURIComponent(cursor)}`, tokens.reader));
  table(
    `history on ${catalogue.label}: ${count(prepared.historyRows)} watch_history rows (${(prepared.historyBytes / 1024 / 1024).toFixed(0)} MB with indexes); ` +
      `progress saves by one member alone, then ${members} at once, ${PROGRESS_ROUNDS} each (a new video every ${SAVES_PER_VIDEO})`,
    [
      { what: 'GET /api/auth/me (reader)', result: me },
      { what: `GET /api/videos/{id}/progress (baseline, ${members} at once)`, result: base },
      { what: 'PUT progress (one member alone)', result: lone },
      { what: `PUT progress (${members} at once)`, result: many, baseline: base },
      { what: `GET history, page 1 (${WATCH_HISTORY_MAX} rows)`, result: page1, baseline: me },
      { what: 'GET history, unfinished, 4 (Continue watching)', result: unfinished, baseline: me },
      ...[...deep].map(([page, result]) => ({ what: `GET history, page ${page} by cursor`, result, baseline: me })),
    ],
  );
  const at = `${catalogue.engine}, ${count(prepared.historyRows)} rows`;
  note({
    section: 'history',
    measure: `progress save p50 / p95, ${members} at once (${at})`,
    result: `${fixed(many.p50)} / ${fixed(many.p95)} ms, ${many.rps!.toFixed(0)} saves/s`,
    target: '',
    ok: null,
  });
  note({
    section: 'history',
    measure: `progress save p50 / p95, one member alone (${catalogue.engine})`,
    result: `${fixed(lone.p50)} / ${fixed(lone.p95)} ms`,
    target: '',
    ok: null,
  });
  note({
    section: 'history',
    measure: `/history page 1 / deepest p95 (${WATCH_HISTORY_MAX} rows; ${catalogue.engine})`,
    result: `${fixed(page1.p95)} / ${fixed(Math.max(page1.p95, ...[...deep.values()].map((l) => l.p95)))} ms`,
    target: '',
    ok: null,
  });
}

async function benchCatalogue(catalogue: Catalogue) {
  const sessionSecret = randomBytes(32).toString('hex');
  const env = serverEnv(catalogue, sessionSecret);
  let server: ChildProcess | null = null;
  try {
    if (catalogue.database) {
      await withPostgres(PG_URL, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${catalogue.database} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${catalogue.database}`);
      });
    }
    const users = Math.max(1000, 2 * CREATORS);
    progress(`seeding ${count(catalogue.size)} videos by ${count(users)} members on ${catalogue.engine}…`);
    // The seeder opens the database itself (one process at a time for PGlite): before the server.
    const seedMs = await seedCatalogue(catalogue.size, { ...env, NODE_ENV: 'development' }, [
      '--users',
      String(users),
      '--media',
      '0',
    ]);
    const prepared = await prepare(catalogue);
    say(
      `\n${catalogue.label}: seeded in ${secs(seedMs)} (${count(users)} owners); bench rows (${MEMBERS + 2} members, ${count(prepared.creators)} follows, ` +
        `${count(NOTIFICATIONS)} notifications) and VACUUM ANALYZE in ${secs(prepared.prepareMs)}`,
    );
    server = startServerProcess(env, ['ignore', 'ignore', 'inherit']);
    await waitForServer(`${ORIGIN}/api/health`, 120_000);
    ownServerPid(server, PORT);

    // Logins a few at a time (argon2 runs on the thread pool); the tokens are the real thing.
    const emails = [...prepared.likers, prepared.fan, prepared.reader];
    const tokens: string[] = [];
    for (let i = 0; i < emails.length; i += 5) tokens.push(...(await Promise.all(emails.slice(i, i + 5).map(login))));
    const all: Tokens = { likers: tokens.slice(0, MEMBERS), fan: tokens[MEMBERS]!, reader: tokens[MEMBERS + 1]! };

    const has = (section: Section) => ONLY.has(section);
    if (has('likes')) await sectionLikes(catalogue, prepared, all);
    if (has('notifications')) await sectionNotifications(catalogue, all, await sequential('/api/auth/me', all.reader));
    if (has('feed')) await sectionFeed(catalogue, prepared, all, await sequential('/api/auth/me', all.fan));
    if (has('history')) await sectionHistory(catalogue, prepared, all, await sequential('/api/auth/me', all.reader));
  } finally {
    if (server) await stopServerProcess(server);
    rmSync(catalogue.dataDir, { recursive: true, force: true });
    if (catalogue.database && !KEEP_DATABASES) {
      await withPostgres(PG_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${catalogue.database} WITH (FORCE)`)).catch(
        (error: unknown) => progress(`could not drop ${catalogue.database}: ${String(error)}`),
      );
    }
  }
}

function catalogues(): Catalogue[] {
  const list: Catalogue[] = [];
  for (const size of SIZES) {
    const database = `chrysalis_benchc_${size}`;
    const url = new URL(PG_URL);
    url.pathname = `/${database}`;
    list.push({
      engine: 'PostgreSQL',
      size,
      database,
      databaseUrl: url.toString(),
      dataDir: path.join(scratch, `pg-${size}`),
      label: `${count(size)} videos on PostgreSQL`,
    });
  }
  for (const size of PGLITE_SIZES) {
    list.push({
      engine: 'PGlite',
      size,
      database: null,
      databaseUrl: '',
      dataDir: path.join(scratch, `pglite-${size}`),
      label: `${count(size)} videos on PGlite`,
    });
  }
  return list;
}

async function main() {
  const started = performance.now();
  try {
    const unknown = [...ONLY].filter((name) => !(SECTIONS as readonly string[]).includes(name));
    if (unknown.length) throw new Error(`BENCH_ONLY: unknown section ${unknown.join(', ')} (use ${SECTIONS.join(',')})`);
    if (!SIZES.length && !PGLITE_SIZES.length)
      throw new Error('BENCH_SIZES or BENCH_PGLITE_SIZES must list catalogue sizes, e.g. 1000000');
    if (!(MEMBERS >= 1 && LIKE_VIDEOS >= 1 && NOTIFICATIONS >= 1 && CREATORS >= 1))
      throw new Error('BENCH_MEMBERS, BENCH_LIKE_VIDEOS, BENCH_NOTIFICATIONS and BENCH_CREATORS must be 1 or more');
    // Each server start adds signal listeners (scripts/lib/server-process.ts).
    process.setMaxListeners(32);
    buildIfNeeded(baseEnv());
    say(
      `bench:community — Node ${process.version}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')} at start, ` + `sections: ${SECTIONS.filter((s) => ONLY.has(s)).join(', ')}`,
    );
    for (const catalogue of catalogues()) await benchCatalogue(catalogue);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  say(
    `\nsummary (${secs(performance.now() - started)} in all; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} at the end)`,
  );
  summary.print(say, 8);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
