import 'server-only';

import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { eq, ne, sql } from 'drizzle-orm';

import { parseEnv } from '@/lib/config/schema';
import { getDb, queryRows, type Database } from '@/lib/db';
import { users, videoPerformers, videos } from '@/lib/db/schema';
import type { Category } from '@/lib/site';

import { hashPassword } from '../auth/passwords';
import { enqueue } from '../jobs/queue';
import { createVideoFromFile, quarantineDir } from '../videos/upload';

/**
 * Demo content: on the first start of an empty embedded database the site
 * shows a dozen clearly labelled synthetic videos instead of empty pages.
 * They are made by ffmpeg's test sources and go through the real pipeline
 * (stored like an upload, process-video, package-hls), so a fresh install
 * also proves that ffmpeg and the worker work. Never on a database that has
 * any member or video, never with SEED_DEMO=0.
 */

export const SEED_DEMO_JOB = 'seed-demo';
export const DEMO_USERNAME = 'demo_creator';
export const DEMO_EMAIL = 'demo_creator@demo.invalid';
export const DEMO_TITLE_PREFIX = 'Demo: ';
export const DEMO_TAG = 'demo';

const run = promisify(execFile);

export interface DemoClip {
  title: string;
  category: Category;
  tags: string[];
  /** What the picture is, for the description. */
  picture: string;
  /** The lavfi filter graph of the picture (size and rate included). */
  source: string;
  width: number;
  height: number;
  seconds: number;
  /** Frequency of the sine tone, Hz. */
  toneHz: number;
}

const clip = (
  title: string,
  category: Category,
  tags: string[],
  picture: string,
  [width, height]: [number, number],
  seconds: number,
  toneHz: number,
  source: (size: string) => string,
): DemoClip => ({
  title: `${DEMO_TITLE_PREFIX}${title}`,
  category,
  tags: [DEMO_TAG, ...tags],
  picture,
  source: source(`${width}x${height}`),
  width,
  height,
  seconds,
  toneHz,
});

/** The default plan: twelve clips, four per category, newest first in Recent Uploads. */
export const DEMO_PLAN: readonly DemoClip[] = [
  clip(
    'Colour bars warm-up',
    'Beta',
    ['beta', 'warm-up', 'colour bars'],
    'SMPTE HD colour bars',
    [1280, 720],
    8,
    440,
    (s) => `smptehdbars=size=${s}:rate=30`,
  ),
  clip(
    'Butterfly fractal drift',
    'Sissy',
    ['sissy', 'transformation', 'fractal'],
    'a Mandelbrot fractal zoom',
    [640, 360],
    10,
    261.63,
    (s) => `mandelbrot=size=${s}:rate=25`,
  ),
  clip(
    'Pink life cycle',
    'Sissy',
    ['sissy', 'transformation', 'pink'],
    "Conway's game of life in pink and plum",
    [640, 360],
    7,
    329.63,
    (s) => `life=size=${s}:rate=25:mold=10:ratio=0.12:life_color=#ff7ac6:death_color=#2a0b3d:mold_color=#6b2d8f`,
  ),
  clip(
    'Redacted rhythm',
    'Censor',
    ['censor', 'pattern'],
    'a rule 30 cellular automaton',
    [1280, 720],
    6,
    220,
    (s) => `cellauto=size=${s}:rate=25:rule=30`,
  ),
  clip(
    'Pattern focus session',
    'Beta',
    ['beta', 'focus'],
    'a moving test pattern',
    [1280, 720],
    9,
    392,
    (s) => `testsrc2=size=${s}:rate=30`,
  ),
  clip(
    'Soft gradient meditation',
    'Sissy',
    ['sissy', 'calm', 'gradient'],
    'slowly turning pastel gradients',
    [640, 360],
    10,
    293.66,
    (s) => `gradients=size=${s}:rate=30:speed=0.015:c0=#ffb3de:c1=#b28dff:c2=#7fd3ff:nb_colors=3`,
  ),
  clip(
    'Static and stripes',
    'Censor',
    ['censor', 'static'],
    'PAL colour bars under static',
    [640, 360],
    7,
    196,
    (s) => `pal75bars=size=${s}:rate=25,noise=alls=15:allf=t`,
  ),
  clip(
    'Spectrum shift',
    'Beta',
    ['beta', 'colour'],
    'a colour spectrum with a turning hue',
    [1280, 720],
    8,
    349.23,
    (s) => `colorspectrum=size=${s}:rate=30:type=all,hue=h=t*40`,
  ),
  clip(
    'Triangle tessellation',
    'Censor',
    ['censor', 'geometry'],
    'a Sierpinski triangle',
    [640, 360],
    6,
    246.94,
    (s) => `sierpinski=size=${s}:rate=25:type=triangle`,
  ),
  clip(
    'Blurred bars',
    'Censor',
    ['censor', 'blur'],
    'blurred SMPTE colour bars',
    [640, 360],
    9,
    174.61,
    (s) => `smptebars=size=${s}:rate=25,boxblur=luma_radius=12:luma_power=2`,
  ),
  clip(
    'Colour chart check-in',
    'Beta',
    ['beta', 'check-in'],
    'a colour checker chart',
    [1280, 720],
    7,
    493.88,
    (s) => `colorchart=rate=25:patch_size=64x64:preset=reference,scale=${s.replace('x', ':')},setsar=1`,
  ),
  clip(
    'Metamorphosis loop',
    'Sissy',
    ['sissy', 'transformation', 'metamorphosis'],
    'a Sierpinski carpet changing colour',
    [1280, 720],
    8,
    523.25,
    (s) => `sierpinski=size=${s}:rate=25:type=carpet,hue=h=t*45`,
  ),
];

/** Views per clip, skewed like a real site, and not in upload order, so Top Videos differs from Recent Uploads. */
const DEMO_VIEWS = [412, 2380, 96, 1205, 57, 734, 18, 301, 143, 9, 866, 1620];

export function demoDescription(clip: DemoClip): string {
  return (
    `Synthetic demo content: ${clip.picture} with a sine tone, generated by ffmpeg when this site first started ` +
    'with an empty database. It is not a real upload: admins can reject it to hide it, and SEED_DEMO=0 skips demo content.'
  );
}

/** SEED_DEMO from the (already validated) environment; on unless set to 0. */
export function demoSeedingEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return parseEnv(env).SEED_DEMO;
}

export interface DemoSeedOptions {
  /** How many clips of the plan to make (default all twelve). */
  count?: number;
  /** Makes every clip this long instead of the plan's 6 to 10 s (tests use 2). */
  durationSeconds?: number;
}

/**
 * Queues the seed-demo job when the database has no members and no videos,
 * so an operator's real site is never touched. Idempotent and race-safe:
 * the job's dedupe key means it is queued once per database, ever (its row
 * stays, done). Returns whether the job was queued now.
 */
export async function enqueueDemoSeedIfEmpty(db: Database, options: DemoSeedOptions = {}): Promise<boolean> {
  const [state] = await queryRows<{ empty: boolean }>(
    db,
    sql`SELECT NOT EXISTS (SELECT 1 FROM users) AND NOT EXISTS (SELECT 1 FROM videos) AS empty`,
  );
  if (!state?.empty) return false;
  const job = await enqueue(db, SEED_DEMO_JOB, { ...options }, { dedupeKey: SEED_DEMO_JOB, maxAttempts: 3 });
  return job !== null;
}

/** A verified uploader, so its approved videos are what the approval gate allows (no documents: the clips are synthetic test patterns). */
async function markVerified(db: Database, id: string): Promise<string> {
  await db.execute(sql`
    INSERT INTO identity_verifications (user_id, legal_name, date_of_birth, status, reviewed_at)
    SELECT ${id}, 'Chrysalis demo content', DATE '1990-01-01', 'approved', now()
    WHERE NOT EXISTS (SELECT 1 FROM identity_verifications WHERE user_id = ${id} AND status = 'approved')`);
  return id;
}

/** The demo creator: cannot log in (a hash of a random password nobody knows), verified, adult. Created once. */
async function demoCreatorId(db: Database): Promise<string> {
  const find = async () =>
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = ${DEMO_USERNAME}`)
    )[0]?.id;
  const existing = await find();
  if (existing) return markVerified(db, existing);
  await db
    .insert(users)
    .values({
      username: DEMO_USERNAME,
      email: DEMO_EMAIL,
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      dateOfBirth: '1990-01-01',
      emailVerifiedAt: new Date(),
    })
    .onConflictDoNothing();
  const id = await find();
  if (!id) throw new Error(`the username ${DEMO_USERNAME} or email ${DEMO_EMAIL} is taken by another account`);
  await markVerified(db, id);
  return id;
}

/** ffmpeg arguments for one clip: H.264/AAC MP4 with its index at the end, as phones and ffmpeg write by default. */
export function demoClipArgs(clip: DemoClip, output: string, options: { seconds: number; label: boolean }): string[] {
  // A "DEMO" badge in the corner; drawtext needs a font, so the caller retries without it if this fails.
  const label = options.label
    ? ',drawtext=text=DEMO:fontcolor=white@0.85:fontsize=h/14:x=w-tw-h/24:y=h/24:box=1:boxcolor=black@0.45:boxborderw=8'
    : '';
  return [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${clip.source},format=yuv420p${label}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${clip.toneHz}:sample_rate=48000`,
    '-t',
    String(options.seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-shortest',
    output,
  ];
}

async function renderClip(clip: DemoClip, output: string, seconds: number, signal?: AbortSignal): Promise<void> {
  const options = { timeout: 180_000, maxBuffer: 1024 * 1024, signal };
  try {
    await run('ffmpeg', demoClipArgs(clip, output, { seconds, label: true }), options);
  } catch {
    signal?.throwIfAborted();
    await run('ffmpeg', demoClipArgs(clip, output, { seconds, label: false }), options);
  }
}

export interface DemoSeedResult {
  created: number;
  skipped: 'site-has-content' | null;
}

/** The demo creator is the only one in each demo clip (decision 015): its performer records say so. */
async function declareDemoPerformer(
  db: Database,
  video: { id: string; streamVideoId: string; ownerId: string; title: string },
  publishedAt: Date,
) {
  const recordedOn = new Date(publishedAt.getTime() - 86_400_000).toISOString().slice(0, 10);
  await db.transaction(async (tx) => {
    await tx.insert(videoPerformers).values({
      videoId: video.id,
      streamVideoId: video.streamVideoId,
      ownerId: video.ownerId,
      videoTitle: video.title,
      recordedOn,
      position: 0,
      isUploader: true,
      consentType: 'uploader',
    });
    await tx.update(videos).set({ recordedOn, performersDeclaredAt: publishedAt }).where(eq(videos.id, video.id));
  });
}

/**
 * The seed-demo job's work: make each clip of the plan with ffmpeg, put it
 * into media storage exactly like an upload (createVideoFromFile: original,
 * row, process-video job), approved and published over the last few days.
 * Idempotent: a rerun after a crash reuses the demo creator and skips clips
 * whose title exists. Does nothing if someone else's video exists by then.
 */
export async function seedDemoContent(options: DemoSeedOptions & { signal?: AbortSignal } = {}): Promise<DemoSeedResult> {
  const db = await getDb();
  const plan = DEMO_PLAN.slice(0, options.count ?? DEMO_PLAN.length);
  const [others] = await db
    .select({ id: videos.id })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.ownerId))
    .where(ne(sql`lower(${users.username})`, DEMO_USERNAME))
    .limit(1);
  if (others) return { created: 0, skipped: 'site-has-content' };

  const ownerId = await demoCreatorId(db);
  const existing = new Set(
    (await db.select({ title: videos.title }).from(videos).where(eq(videos.ownerId, ownerId))).map((row) => row.title),
  );
  await mkdir(quarantineDir(), { recursive: true });
  // Clips an earlier, crashed attempt left behind (one seed-demo job per database, run by one worker at a time).
  for (const name of await readdir(quarantineDir()))
    if (name.startsWith('demo-')) await rm(path.join(quarantineDir(), name), { force: true });
  const now = Date.now();
  let created = 0;
  for (const [index, clip] of plan.entries()) {
    if (existing.has(clip.title)) continue;
    const file = path.join(quarantineDir(), `demo-${randomUUID()}.mp4`);
    try {
      await renderClip(clip, file, options.durationSeconds ?? clip.seconds, options.signal);
      // Spread over the last three days, first clip newest, so Recent Uploads has an order.
      const publishedAt = new Date(now - (index * 6.5 + 0.25) * 3_600_000);
      const video = await createVideoFromFile(
        ownerId,
        { path: file, bytes: (await stat(file)).size, originalName: 'demo.mp4' },
        { title: clip.title, description: demoDescription(clip), category: clip.category, tags: clip.tags },
        {
          moderationStatus: 'approved',
          publishedAt,
          moderatedAt: publishedAt,
          createdAt: publishedAt,
          views: DEMO_VIEWS[index % DEMO_VIEWS.length]!,
        },
      );
      await declareDemoPerformer(db, video, publishedAt);
      created += 1;
    } finally {
      await rm(file, { force: true });
    }
    // Twelve clips take a while: stop between clips if another worker took the job over (the worker renews its lease meanwhile).
    options.signal?.throwIfAborted();
  }
  return { created, skipped: null };
}
