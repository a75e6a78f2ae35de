import 'server-only';

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { sql } from 'drizzle-orm';

import { getConfig } from '@/lib/config/server';
import { queryRows, type Database } from '@/lib/db';
import { THUMBNAIL_WIDTHS } from '@/lib/media/thumbnails';

import { hashPassword } from '../auth/passwords';
import { probeVideo } from '../media/probe';
import { makeThumbnailVariants } from '../media/thumbnail-variants';
import { makeThumbnail, makeWebMp4 } from '../media/web-mp4';
import { contentTypeFor, getMediaStorage, mediaKeys, thumbnailVariantName } from '../storage';

/**
 * `npm run seed`: large synthetic catalogues for benchmarks, on either
 * engine. Rows are generated inside the database (INSERT … SELECT over
 * generate_series, a few thousand rows per statement), so a million videos
 * take minutes and nothing big crosses the wire.
 *
 * - Members: `seed_<run>_<n>`, verified adults, all with one hash of a
 *   random password (nobody can log in as them). `<run>` is random per run,
 *   so seeding twice adds a second set instead of colliding.
 * - Videos: titles from the word lists below, so search has selectivity (a
 *   word of the first list is in about 4 % of titles, the rarest in about
 *   0.6 %); descriptions and tags from their own words; Sissy 45 %, Beta
 *   35 %, Censor 20 %; published over the last two years; views log-uniform
 *   (most videos have a few hundred, a few have tens of thousands); owners
 *   skewed (some members upload much more). All ready and approved.
 * - Media: the media route serves `videos/{id}/…`, so shared files cannot
 *   be pointed at. A few real clips are made once with ffmpeg and put (hard
 *   links where storage is local) under the folders of the videos the first
 *   pages show: the newest `mediaPerCategory` of each category and the top
 *   dozen. Every other row has no web MP4 or thumbnail (cards show their
 *   placeholder, the video page says it is not playable yet) and its
 *   `source_key` names an original that does not exist.
 * - `likes_count` is set without `video_likes` rows: Top Videos ranks by the
 *   counter; nobody appears in `likedBy`.
 */

export const ADJECTIVES = [
  'velvet',
  'silken',
  'gentle',
  'bold',
  'dreamy',
  'pastel',
  'glitter',
  'secret',
  'sunday',
  'midnight',
  'rosy',
  'lavender',
  'daring',
  'playful',
  'quiet',
  'sparkling',
  'shy',
  'radiant',
  'golden',
  'lacy',
  'cherry',
  'moonlit',
  'blushing',
  'elegant',
  'breezy',
] as const;

export const NOUNS = [
  'makeover',
  'wardrobe',
  'heels',
  'lipstick',
  'stockings',
  'skirt',
  'corset',
  'catwalk',
  'voice',
  'posture',
  'diary',
  'ritual',
  'lesson',
  'training',
  'routine',
  'confession',
  'challenge',
  'journey',
  'mirror',
  'session',
  'tutorial',
  'haul',
  'portrait',
  'dance',
  'workout',
  'manicure',
  'wig',
  'perfume',
  'ribbon',
  'tiara',
  'chores',
  'etiquette',
  'curtsy',
  'garden',
  'teatime',
  'picnic',
  'vlog',
  'story',
  'letter',
  'promise',
  'checklist',
  'rehearsal',
  'photoshoot',
  'bedtime',
  'morning',
  'weekend',
  'evening',
  'ballet',
  'vanity',
  'closet',
] as const;

/** Half of all titles get one of these, so each is in about 0.6 % of titles. */
export const EXTRAS = [
  'update',
  'recap',
  'preview',
  'deluxe',
  'remix',
  'encore',
  'sequel',
  'finale',
  'prologue',
  'epilogue',
  'rainy',
  'sunny',
  'snowy',
  'spring',
  'summer',
  'autumn',
  'winter',
  'holiday',
  'birthday',
  'anniversary',
  'paris',
  'london',
  'berlin',
  'tokyo',
  'seaside',
  'cabin',
  'rooftop',
  'balcony',
  'kitchen',
  'studio',
  'slowmo',
  'timelapse',
  'closeup',
  'unboxing',
  'outtakes',
  'bloopers',
  'livestream',
  'podcast',
  'interview',
  'review',
  'beginner',
  'advanced',
  'expert',
  'firsttime',
  'anytime',
  'daily',
  'weekly',
  'monthly',
  'yearly',
  'overnight',
  'crimson',
  'emerald',
  'sapphire',
  'ivory',
  'onyx',
  'coral',
  'amber',
  'jade',
  'pearl',
  'ruby',
  'whisper',
  'echo',
  'spark',
  'glow',
  'shimmer',
  'flutter',
  'twirl',
  'sway',
  'strut',
  'pose',
  'lullaby',
  'serenade',
  'anthem',
  'ballad',
  'chorus',
  'melody',
  'rhythm',
  'tempo',
  'waltz',
  'tango',
] as const;

/** A fifth of titles end with one of these (about 1 % each). */
export const SUFFIXES = [
  'tips',
  'guide',
  'edition',
  'marathon',
  'vibes',
  'diaries',
  'basics',
  'essentials',
  'chronicles',
  'special',
  'countdown',
  'compilation',
  'notes',
  'moments',
  'highlights',
  'showcase',
  'spotlight',
  'uncut',
  'extended',
  'redux',
] as const;

/** Descriptions and tags use words of their own, so a title word's share of search hits stays what the title lists give. */
const DESCRIPTION_OPENERS = [
  'Filmed in one take.',
  'A calm one to unwind with.',
  'Requested by the community.',
  'Shot on a phone, edited lightly.',
  'Part of an ongoing series.',
  'My favourite so far.',
  'Turn the sound up for this one.',
  'Short and sweet.',
  'Thanks for all the kind comments.',
  'Experimenting with lighting.',
  'First upload in a while.',
  'Made for the community prompt.',
] as const;

const DESCRIPTION_TOPICS = [
  'confidence',
  'practice',
  'style',
  'grace',
  'comfort',
  'courage',
  'patience',
  'discipline',
  'expression',
  'balance',
  'kindness',
  'fashion',
  'movement',
  'colour',
  'texture',
  'sound',
  'light',
  'calm',
  'focus',
  'joy',
] as const;

const TAG_POOL = [
  'transformation',
  'feminization',
  'crossdressing',
  'makeup',
  'fashion',
  'lingerie',
  'shoes',
  'nails',
  'hosiery',
  'howto',
  'cosplay',
  'choreography',
  'asmr',
  'pov',
  'newbie',
  'pink',
  'maid',
  'chastity',
  'hypno',
  'caption',
  'roleplay',
  'tease',
  'femboy',
  'trans',
  'queer',
  'nonbinary',
  'selfcare',
  'fitness',
  'music',
  'lgbtq',
] as const;

export interface BulkSeedOptions {
  videos: number;
  /** Members who own them (default 1,000). */
  users?: number;
  /** Rows per INSERT (default 5,000). */
  batchSize?: number;
  /** Newest videos per category that get real media files (default 24); the top dozen get them too. 0 for none. */
  mediaPerCategory?: number;
  /** Called after each batch. */
  onProgress?: (progress: { phase: 'users' | 'videos' | 'media' | 'analyze'; done: number; total: number }) => void;
}

export interface BulkSeedResult {
  run: string;
  users: number;
  videos: number;
  withMedia: number;
  milliseconds: number;
}

const run = promisify(execFile);
const words = (list: readonly string[]) => list.join(' ');

/** Members `seed_<run>_<n>`, in batches, all with the same unusable password hash. */
async function insertUsers(
  db: Database,
  prefix: string,
  count: number,
  batchSize: number,
  onProgress: BulkSeedOptions['onProgress'],
) {
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  for (let from = 1; from <= count; from += batchSize) {
    const to = Math.min(count, from + batchSize - 1);
    await db.execute(sql`
      INSERT INTO users (username, email, password_hash, date_of_birth, email_verified_at, created_at, updated_at)
      SELECT ${prefix} || lpad(g::text, 7, '0'),
             ${prefix} || lpad(g::text, 7, '0') || '@seed.invalid',
             ${passwordHash},
             DATE '1975-01-01' + (random() * 10000)::int,
             c, c, c
      FROM (SELECT g, now() - random() * interval '800 days' AS c FROM generate_series(${from}::int, ${to}::int) g) s`);
    // Their videos are inserted approved: they are verified uploaders, as the approval gate requires of real ones.
    await db.execute(sql`
      INSERT INTO identity_verifications (user_id, legal_name, date_of_birth, status, submitted_at, reviewed_at)
      SELECT id, 'Seeded member', date_of_birth, 'approved', created_at, created_at FROM users
      WHERE username IN (SELECT ${prefix} || lpad(g::text, 7, '0') FROM generate_series(${from}::int, ${to}::int) g)`);
    onProgress?.({ phase: 'users', done: to, total: count });
  }
}

/** One batch of videos, generated by the database itself. */
async function insertVideoBatch(db: Database, prefix: string, userCount: number, from: number, to: number) {
  // CTEs with random() are materialised: the word lists stay in the one-row vocab and are joined where used.
  await db.execute(sql`
    WITH vocab AS (
      SELECT string_to_array(${words(ADJECTIVES)}, ' ') AS adj, string_to_array(${words(NOUNS)}, ' ') AS noun,
             string_to_array(${words(EXTRAS)}, ' ') AS extra, string_to_array(${words(SUFFIXES)}, ' ') AS suffix,
             string_to_array(${DESCRIPTION_OPENERS.join('|')}, '|') AS opener, string_to_array(${words(DESCRIPTION_TOPICS)}, ' ') AS topic,
             string_to_array(${words(TAG_POOL)}, ' ') AS tag
    ),
    picked AS (
      SELECT gen_random_uuid() AS id, random() AS r_cat, random() AS r_size, power(random(), 2) AS r_len,
             now() - power(random(), 1.2) * interval '730 days' AS published,
             floor(exp(random() * 11.5))::int - 1 AS views,
             -- Skewed owners: the first members upload far more than the last.
             1 + floor(power(random(), 2) * ${userCount}::int)::int AS owner_n
      FROM generate_series(${from}::int, ${to}::int) g
    ),
    shaped AS (
      SELECT picked.*,
             CASE WHEN r_cat < 0.45 THEN 'Sissy' WHEN r_cat < 0.8 THEN 'Beta' ELSE 'Censor' END AS category,
             initcap(adj[1 + floor(random() * cardinality(adj))::int]) || ' ' || noun[1 + floor(random() * cardinality(noun))::int]
               || CASE WHEN random() < 0.5 THEN ' ' || extra[1 + floor(random() * cardinality(extra))::int] ELSE '' END
               || CASE WHEN random() < 0.2 THEN ' ' || suffix[1 + floor(random() * cardinality(suffix))::int] ELSE '' END AS title,
             CASE WHEN r_size < 0.3 THEN 1920 WHEN r_size < 0.75 THEN 1280 WHEN r_size < 0.9 THEN 640 ELSE 720 END AS width,
             CASE WHEN r_size < 0.3 THEN 1080 WHEN r_size < 0.75 THEN 720 WHEN r_size < 0.9 THEN 360 ELSE 1280 END AS height,
             round((15 + r_len * 1800)::numeric, 2)::float8 AS duration
      FROM picked, vocab
    ),
    inserted AS (
    INSERT INTO videos (id, stream_video_id, owner_id, title, description, category, tags, processing_state, moderation_status,
                        source_key, source_bytes, duration_seconds, width, height, views, likes_count,
                        created_at, updated_at, published_at, moderated_at, recorded_on, performers_declared_at)
    SELECT s.id,
           -- 12 URL-safe characters from the random part of the id (unique index; a collision would fail the batch loudly).
           substr(translate(encode(decode(substr(replace(s.id::text, '-', ''), 1, 18), 'hex'), 'base64'), '+/', '-_'), 1, 12),
           u.id,
           s.title,
           opener[1 + floor(random() * cardinality(opener))::int] || ' A ' || lower(s.category) || ' video about '
             || topic[1 + floor(random() * cardinality(topic))::int] || ' and ' || topic[1 + floor(random() * cardinality(topic))::int] || '.',
           s.category,
           ARRAY[lower(s.category), tag[1 + floor(random() * cardinality(tag))::int]]
             || CASE WHEN random() < 0.6 THEN ARRAY[tag[1 + floor(random() * cardinality(tag))::int]] ELSE '{}'::text[] END,
           'ready', 'approved',
           s.id::text || '.mp4', (s.duration * 400000)::bigint, s.duration, s.width, s.height,
           s.views, floor(s.views * random() * 0.06)::int,
           s.published - random() * interval '3 hours', s.published, s.published, s.published,
           (s.published - interval '1 day')::date, s.published
    FROM shaped s
    CROSS JOIN vocab
    -- The members' unique index is on lower(username); their names are lower case.
    JOIN users u ON lower(u.username) = ${prefix} || lpad(s.owner_n::text, 7, '0')
    RETURNING id, stream_video_id, owner_id, title, recorded_on
    )
    -- Performer records (decision 015): the uploader is the only one in each video.
    INSERT INTO video_performers (video_id, stream_video_id, owner_id, video_title, recorded_on, position, is_uploader, consent_type)
    SELECT id, stream_video_id, owner_id, title, recorded_on, 0, true, 'uploader' FROM inserted`);
}

/** A few real, web-ready clips and their thumbnails, made once by the real pipeline's ffmpeg steps. */
async function makeSharedMedia(dir: string) {
  const sources = [
    { source: 'testsrc2=size=1280x720:rate=30', tone: 440 },
    { source: 'smptehdbars=size=1280x720:rate=30', tone: 330 },
    { source: 'mandelbrot=size=640x360:rate=25', tone: 262 },
    { source: 'life=size=640x360:rate=25:mold=10:ratio=0.12:life_color=#ff7ac6:death_color=#2a0b3d', tone: 392 },
  ];
  await mkdir(dir, { recursive: true });
  const clips = [];
  for (const [index, { source, tone }] of sources.entries()) {
    const raw = path.join(dir, `raw-${index}.mp4`);
    await run(
      'ffmpeg',
      [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `${source},format=yuv420p`,
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${tone}:sample_rate=48000`,
        '-t',
        '4',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '28',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-shortest',
        raw,
      ],
      { timeout: 120_000 },
    );
    const probe = await probeVideo(raw);
    const web = path.join(dir, `web-${index}.mp4`);
    const thumbnail = path.join(dir, `thumbnail-${index}.jpg`);
    await makeWebMp4(raw, web, probe);
    await makeThumbnail(raw, thumbnail, probe);
    const variantsDir = path.join(dir, `variants-${index}`);
    await mkdir(variantsDir);
    const thumbnailVersion = await makeThumbnailVariants(thumbnail, variantsDir);
    clips.push({ web, thumbnail, variantsDir, thumbnailVersion, probe });
  }
  return clips;
}

/** A private copy for putFile (which may move it): a hard link when possible, else a copy. */
async function stage(file: string, into: string): Promise<string> {
  const target = path.join(into, `${randomBytes(8).toString('hex')}${path.extname(file)}`);
  await link(file, target).catch(() => copyFile(file, target));
  return target;
}

/** Gives the videos the first pages show real media, sharing a few clips. */
async function attachMedia(
  db: Database,
  prefix: string,
  perCategory: number,
  onProgress: BulkSeedOptions['onProgress'],
): Promise<number> {
  if (perCategory <= 0) return 0;
  const targets = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM (
          SELECT v.id, row_number() OVER (PARTITION BY v.category ORDER BY v.published_at DESC, v.id DESC) AS rn
          FROM videos v JOIN users u ON u.id = v.owner_id WHERE starts_with(u.username, ${prefix})) newest
        WHERE rn <= ${perCategory}
        UNION
        SELECT id FROM (
          SELECT v.id FROM videos v JOIN users u ON u.id = v.owner_id WHERE starts_with(u.username, ${prefix})
          ORDER BY v.views + 10 * v.likes_count DESC, v.published_at DESC, v.id DESC LIMIT 12) top`,
  );
  const work = path.join(getConfig().dataDir, 'work', `seed-${prefix.replace(/\W/g, '')}`);
  try {
    const clips = await makeSharedMedia(work);
    onProgress?.({ phase: 'media', done: 0, total: targets.length });
    const storage = getMediaStorage();
    for (const [index, { id }] of targets.entries()) {
      const clip = clips[index % clips.length]!;
      const files: [string, string][] = [
        [mediaKeys.webMp4(id), clip.web],
        [mediaKeys.thumbnail(id), clip.thumbnail],
        ...THUMBNAIL_WIDTHS.map((width): [string, string] => [
          mediaKeys.thumbnailVariant(id, width),
          path.join(clip.variantsDir, thumbnailVariantName(width)),
        ]),
      ];
      for (const [key, file] of files) await storage.putFile(key, await stage(file, work), contentTypeFor(key));
      await db.execute(sql`
        UPDATE videos SET web_mp4_key = ${mediaKeys.webMp4(id)}, thumbnail_key = ${mediaKeys.thumbnail(id)}, thumbnail_version = ${clip.thumbnailVersion},
               duration_seconds = ${clip.probe.durationSeconds}, width = ${clip.probe.width}, height = ${clip.probe.height}
        WHERE id = ${id}`);
      onProgress?.({ phase: 'media', done: index + 1, total: targets.length });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return targets.length;
}

/** Seeds `users` members and `videos` public videos; see the comment at the top. */
export async function seedBulk(db: Database, options: BulkSeedOptions): Promise<BulkSeedResult> {
  const started = Date.now();
  const userCount = options.users ?? 1000;
  const batchSize = options.batchSize ?? 5000;
  if (!Number.isInteger(options.videos) || options.videos < 0) throw new Error('videos must be a whole number, 0 or more');
  if (!Number.isInteger(userCount) || userCount < 1 || userCount > 9_999_999)
    throw new Error('users must be a whole number from 1 to 9,999,999');
  const runId = randomBytes(3).toString('hex');
  const prefix = `seed_${runId}_`;

  options.onProgress?.({ phase: 'users', done: 0, total: userCount });
  await insertUsers(db, prefix, userCount, batchSize, options.onProgress);
  options.onProgress?.({ phase: 'videos', done: 0, total: options.videos });
  for (let from = 1; from <= options.videos; from += batchSize) {
    const to = Math.min(options.videos, from + batchSize - 1);
    await insertVideoBatch(db, prefix, userCount, from, to);
    options.onProgress?.({ phase: 'videos', done: to, total: options.videos });
  }
  const withMedia = options.videos > 0 ? await attachMedia(db, prefix, options.mediaPerCategory ?? 24, options.onProgress) : 0;
  options.onProgress?.({ phase: 'analyze', done: 0, total: 1 });
  await db.execute(sql`ANALYZE users`);
  await db.execute(sql`ANALYZE videos`);
  options.onProgress?.({ phase: 'analyze', done: 1, total: 1 });
  return { run: runId, users: userCount, videos: options.videos, withMedia, milliseconds: Date.now() - started };
}
