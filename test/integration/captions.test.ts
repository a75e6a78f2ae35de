import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq, sql } from 'drizzle-orm';

import { GET as moderationQueue } from '@/app/api/admin/videos/route';
import { GET as listRoute } from '@/app/api/videos/[streamVideoId]/captions/route';
import { DELETE as removeRoute, PUT as saveRoute } from '@/app/api/videos/[streamVideoId]/captions/[language]/route';
import { GET as mediaRoute } from '@/app/media/videos/[streamVideoId]/[...file]/route';
import { installDatabase, queryRows } from '@/lib/db';
import { users, type Video } from '@/lib/db/schema';
import { CAPTION_FILE_MAX_BYTES, CAPTION_LANGUAGES_MAX, COMMON_CAPTION_LANGUAGES } from '@/lib/media/captions';
import { resetLimiters } from '@/lib/server/rate-limit';
import { CAPTION_MESSAGES } from '@/lib/server/videos/caption-files';
import {
  CAPTION_NOT_FOUND_MESSAGE,
  CAPTIONS_FULL_MESSAGE,
  captionTracks,
  INVALID_LANGUAGE_MESSAGE,
} from '@/lib/server/videos/captions';
import { collectMemberData } from '@/lib/server/exports/collect';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { insertVideo, userId } from '../helpers/videos';

/*
 * Captions (issue 35 part 4, decision 051): an owner's WebVTT or SubRip file per language, made into our own plain
 * WebVTT; served under a versioned name to whoever may see the video; listed for moderators; in the export.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-captions-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = path.join(tmp, 'data');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SRT = [
  '1',
  '00:00:01,000 --> 00:00:02,500',
  '<b>Hello</b> </script > <script>alert(1)</script> world',
  '',
  '2',
  '00:00:03,000 --> 00:00:04,000',
  'A & B <font color="red">red</font>\u0000',
  '',
].join('\r\n');

const file = (content: string | Uint8Array<ArrayBuffer>, name = 'captions.srt') => {
  const form = new FormData();
  form.append('file', new File([content], name));
  return form;
};

describe.each(ENGINES)('captions on %s', (engine) => {
  let database: TestDatabase;
  let ownerToken: string;
  let otherToken: string;
  let adminToken: string;
  let ownerId: string;
  let published: Video;
  let pending: Video;

  const save = (video: Video, language: string, form: FormData | undefined, bearer = ownerToken) =>
    call(saveRoute, `/api/videos/${video.streamVideoId}/captions/${language}`, {
      method: 'PUT',
      params: { streamVideoId: video.streamVideoId, language },
      form,
      bearer,
    });
  const remove = (video: Video, language: string, bearer = ownerToken) =>
    call(removeRoute, `/api/videos/${video.streamVideoId}/captions/${language}`, {
      method: 'DELETE',
      params: { streamVideoId: video.streamVideoId, language },
      bearer,
    });
  const list = (video: Video, bearer = ownerToken) =>
    call(listRoute, `/api/videos/${video.streamVideoId}/captions`, { params: { streamVideoId: video.streamVideoId }, bearer });
  const media = (url: string, bearer?: string, headers?: Record<string, string>) => {
    const [, , , streamVideoId, ...rest] = url.split('/');
    return call(mediaRoute, url, { params: { streamVideoId: streamVideoId!, file: rest }, bearer, headers });
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    ownerToken = await verifiedMemberToken(database.db, `captions_${engine}`);
    otherToken = await verifiedMemberToken(database.db, `captions_other_${engine}`);
    adminToken = await verifiedMemberToken(database.db, `captions_admin_${engine}`);
    await promoteToAdmin(database.db, await userId(database.db, `captions_admin_${engine}`));
    ownerId = await userId(database.db, `captions_${engine}`);
    published = await insertVideo(database.db, ownerId, { title: 'Captioned' });
    pending = await insertVideo(database.db, ownerId, {
      title: 'Captioned, pending',
      moderationStatus: 'pending',
      publishedAt: null,
    });
  }, 120_000);
  afterAll(() => database.destroy());

  it('turns a SubRip file into plain WebVTT: no markup, no control characters, escaped text', async () => {
    const saved = await save(published, 'en', file(SRT));
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('English captions added: 2 captions.');
    const [track] = saved.body.captions as { language: string; label: string; url: string; cueCount: number }[];
    expect(track).toMatchObject({ language: 'en', label: 'English', cueCount: 2 });
    expect(track!.url).toMatch(new RegExp(`^/media/videos/${published.streamVideoId}/captions/en\\.[0-9a-f]{16}\\.vtt$`));

    const served = await media(track!.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const vtt = served.body.raw as string;
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<b>Hello</b> alert(1) world\n\n00:00:03.000 --> 00:00:04.000\nA &amp; B red\n',
    );
    expect(vtt).not.toMatch(/script|font|\u0000/);
    // The version is the ETag: a player that has the file is answered 304.
    const again = await media(track!.url, undefined, { 'if-none-match': served.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('replaces a language, keeps one row per language and answers old versions with a 404', async () => {
    const before = ((await list(published)).body.captions as { url: string }[])[0]!.url;
    const replaced = await save(
      published,
      'EN',
      file('WEBVTT\n\n00:01.000 --> 00:02.000 align:start\nHi <v Sam>there</v>\n', 'en.vtt'),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.message).toBe('English captions replaced: 1 caption.');
    const tracks = replaced.body.captions as { url: string }[];
    expect(tracks).toHaveLength(1);
    expect((await media(before)).status).toBe(404);
    expect((await media(tracks[0]!.url)).body.raw).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi there\n');
  });

  it('names each language in itself, sorted by that name, as the player lists them', async () => {
    expect((await save(published, 'pt-br', file(SRT))).status).toBe(200);
    expect((await save(published, 'es', file(SRT))).status).toBe(200);
    const tracks = await captionTracks(published.id, published.streamVideoId);
    expect(tracks.map((track) => [track.language, track.label])).toEqual([
      ['en', 'English'],
      ['es', 'Español'],
      ['pt-BR', 'Português (Brasil)'],
    ]);
  });

  it('refuses what is not a captions file, each with what to fix', async () => {
    const refusals: [FormData | undefined, string][] = [
      [file('just some text'), CAPTION_MESSAGES.unknownFormat],
      [file('WEBVTT\n\n'), CAPTION_MESSAGES.noCues],
      [file('1\n00:00:05,000 --> 00:00:01,000\nbackwards\n'), CAPTION_MESSAGES.noCues],
      [file(new Uint8Array([0xff, 0xfe, 0x41, 0x00])), CAPTION_MESSAGES.notUtf8],
      [file(`WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'😀'.repeat(2_000)}\n`), CAPTION_MESSAGES.cueTooLong('0:01')],
      [undefined, 'Choose a WebVTT (.vtt) or SubRip (.srt) file.'],
    ];
    for (const [form, message] of refusals) {
      const answer = await save(published, 'fr', form ?? new FormData());
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    const tooLarge = await save(published, 'fr', file('x'.repeat(CAPTION_FILE_MAX_BYTES + 17 * 1024)));
    expect(tooLarge.status).toBe(413);
    for (const language of ['x', 'not a tag', 'en_US', '../en', 'und', 'en\u0000']) {
      const answer = await save(published, encodeURIComponent(language), file(SRT));
      expect([answer.status, answer.body.message]).toEqual([400, INVALID_LANGUAGE_MESSAGE]);
    }
    expect((await captionTracks(published.id, published.streamVideoId)).map((track) => track.language)).not.toContain('fr');
  });

  it('lets only the owner and admins change captions; others get 403, or 404 for a video they cannot see', async () => {
    expect((await save(published, 'de', file(SRT), otherToken)).status).toBe(403);
    expect((await remove(published, 'en', otherToken)).status).toBe(403);
    expect((await list(published, otherToken)).status).toBe(403);
    expect((await save(pending, 'de', file(SRT), otherToken)).status).toBe(404);
    expect((await list(pending, otherToken)).status).toBe(404);
    const visitor = await call(saveRoute, `/api/videos/${published.streamVideoId}/captions/de`, {
      method: 'PUT',
      params: { streamVideoId: published.streamVideoId, language: 'de' },
      form: file(SRT),
    });
    expect(visitor.status).toBe(401);
    const byAdmin = await save(pending, 'de', file(SRT), adminToken);
    expect(byAdmin.status).toBe(200);
    const audit = await queryRows<{ summary: string }>(
      database.db,
      sql`SELECT summary FROM admin_audit_log WHERE target_id = ${pending.streamVideoId} ORDER BY created_at`,
    );
    expect(audit.map((entry) => entry.summary)).toEqual(['Admin added Deutsch captions (2 cues) on “Captioned, pending”']);
  });

  it('serves an unpublished video’s captions to its owner and admins only, never to shared caches', async () => {
    const [track] = (await list(pending)).body.captions as { url: string }[];
    expect((await media(track!.url)).status).toBe(404);
    expect((await media(track!.url, otherToken)).status).toBe(404);
    const own = await media(track!.url, ownerToken);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, max-age=300');
    expect((await media(track!.url, adminToken)).status).toBe(200);
  });

  it('shows moderators each video’s captions and puts them in the owner’s export', async () => {
    const queue = await call(moderationQueue, '/api/admin/videos?status=pending&limit=50', { bearer: adminToken });
    const item = (queue.body.videos as { streamVideoId: string; captions: { label: string }[] }[]).find(
      (video) => video.streamVideoId === pending.streamVideoId,
    )!;
    expect(item.captions.map((track) => track.label)).toEqual(['Deutsch']);
    const [user] = await database.db.select().from(users).where(eq(users.id, ownerId));
    const data = await collectMemberData(database.db, user!, async () => false);
    const exported = (
      data.json['videos.json'] as { streamVideoId: string; captions: { language: string; vtt: string }[] }[]
    ).find((video) => video.streamVideoId === published.streamVideoId)!;
    expect(exported.captions.map((caption) => caption.language)).toEqual(['en', 'es', 'pt-BR']);
    expect(exported.captions[0]!.vtt).toMatch(/^WEBVTT\n/);
  });

  it('removes a language (a 404 for one the video has none in), and at most twenty languages are kept', async () => {
    const removed = await remove(published, 'es');
    expect([removed.status, removed.body.message]).toEqual([200, 'Español captions removed.']);
    expect((await remove(published, 'es')).body.message).toBe(CAPTION_NOT_FOUND_MESSAGE);
    // Two languages are there (en, pt-BR): eighteen more fill the video.
    const many = [...COMMON_CAPTION_LANGUAGES.filter((tag) => tag !== 'en' && tag !== 'pt-BR'), 'ca', 'cs'];
    for (const language of many.slice(0, CAPTION_LANGUAGES_MAX - 2))
      expect((await save(published, language, file(SRT), adminToken)).status).toBe(200);
    const full = await save(published, 'fi', file(SRT), adminToken);
    expect([full.status, full.body.message]).toEqual([409, CAPTIONS_FULL_MESSAGE]);
    // Replacing a language it has is still allowed.
    expect((await save(published, 'en', file(SRT), adminToken)).status).toBe(200);
  });

  it('goes with its video', async () => {
    await database.db.execute(sql`DELETE FROM videos WHERE id = ${published.id}`);
    const left = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM video_captions WHERE video_id = ${published.id}`,
    );
    expect(left[0]!.n).toBe(0);
  });
});
