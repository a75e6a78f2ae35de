/**
 * Resumable uploads (tus, decision 026): who may start, continue and end
 * one, what is checked at creation (length, size cap, metadata, daily
 * count) and after the last byte (the plain upload's probe and video
 * creation), resuming from HEAD's offset, and the expiry sweep.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import fc from 'fast-check';

import { DELETE, HEAD, PATCH, POST } from '@/app/api/videos/uploads/[[...id]]/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { sweepExpiredResumableUploads, UPLOAD_EXPIRED_MESSAGE, UPLOAD_NOT_FOUND_MESSAGE } from '@/lib/server/videos/resumable';
import { STORAGE_FULL_MESSAGE } from '@/lib/server/videos/storage-failure';
import {
  CONCAT_MESSAGE,
  LENGTH_FORMAT_MESSAGE,
  OFFSET_MESSAGE,
  PATCH_CONTENT_TYPE_MESSAGE,
  PATCH_LENGTH_MESSAGE,
  TUS_VERSION_MESSAGE,
} from '@/lib/validation/resumable-uploads';
import { FileLocker } from '@/lib/server/videos/upload-lock';
import { handleNodeUpload, handleReceivedUpload } from '@/lib/server/videos/upload-node';
import { listenWithReceiver, UploadReceiver } from '@/lib/front/upload-receiver';
import { ownerTag } from '@/lib/process-owner';
import { finishUpload } from '@/lib/client/resumable-upload';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { captureLogs, LEVEL } from '../helpers/logs';
import { mediaFixtures } from '../helpers/media';
import { CAN_MOUNT, fillUp, mountTmpfs, SKIP_WITHOUT_ROOT, unmount } from '../helpers/tmpfs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-resumable-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
process.env.MAX_UPLOAD_BYTES = String(2 * 1024 * 1024);
process.env.UPLOADS_PER_DAY = '20';
process.env.RESUMABLE_UPLOAD_EXPIRY_HOURS = '1';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const media = mediaFixtures();
const clip = readFileSync(media.h264Clip());
const resumableDir = path.join(dataDir, 'resumable');

const b64 = (value: string) => Buffer.from(value).toString('base64');
/** Upload-Metadata as tus clients send it: "key base64,key base64". */
function metadata(fields: Record<string, string> = {}): string {
  const all = {
    filename: 'clip.mp4',
    title: 'Resumed transformation',
    description: 'Sent in pieces',
    category: 'Sissy',
    tags: 'Sissy, resumable',
    ...fields,
  };
  return Object.entries(all)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',');
}

const TUS = { 'tus-resumable': '1.0.0' };

async function create(bearer: string | undefined, length: number, meta = metadata()) {
  return call(POST, '/api/videos/uploads', {
    method: 'POST',
    bearer,
    headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': meta },
  });
}

const idOf = (location: string | null) => location!.split('/').pop()!;

function patch(bearer: string | undefined, id: string, offset: number, bytes: Uint8Array) {
  return call(PATCH, `/api/videos/uploads/${id}`, {
    method: 'PATCH',
    bearer,
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: Buffer.from(bytes) as unknown as string,
  });
}

const head = (bearer: string | undefined, id: string) =>
  call(HEAD, `/api/videos/uploads/${id}`, { method: 'HEAD', bearer, headers: TUS });

describe.each(ENGINES)('resumable uploads on %s', (engine) => {
  let database: TestDatabase;
  let token: string;
  let other: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    token = await verifiedMemberToken(database.db, `tus${engine}`);
    other = await verifiedMemberToken(database.db, `tusother${engine}`);
  });
  afterAll(() => database.destroy());
  beforeEach(() => resetLimiters());

  it('takes a video in two pieces, resuming from the offset HEAD reports, and makes it a video as the plain upload does', async () => {
    const created = await create(token, clip.length);
    expect(created.status).toBe(201);
    const id = idOf(created.headers.get('location'));
    expect(created.headers.get('location')).toBe(`/api/videos/uploads/${id}`);

    const half = Math.floor(clip.length / 2);
    const first = await patch(token, id, 0, clip.subarray(0, half));
    expect(first.status).toBe(204);
    const resumed = await head(token, id);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('upload-offset')).toBe(String(half));
    expect(resumed.headers.get('upload-length')).toBe(String(clip.length));

    // A piece sent again from a stale offset is refused without touching the file.
    expect((await patch(token, id, 0, clip.subarray(0, 10))).status).toBe(409);

    const last = await patch(token, id, half, clip.subarray(half));
    expect(last.status).toBe(200);
    const video = last.body.video as Record<string, unknown>;
    expect(video).toMatchObject({
      title: 'Resumed transformation',
      category: 'Sissy',
      tags: ['sissy', 'resumable'],
      status: 'queued',
      moderationStatus: 'pending',
      width: 320,
    });
    const [row] = await database.db
      .select()
      .from(videos)
      .where(eq(videos.id, video._id as string));
    expect(readFileSync(path.join(dataDir, 'media', 'originals', row!.sourceKey))).toEqual(clip);
    expect(row!.sourceKey.endsWith('.mp4')).toBe(true);
    expect(
      await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `process-video:${row!.id}`)),
    ).toHaveLength(1);
    // Nothing of the upload is left behind, and its id is gone.
    expect(readdirSync(resumableDir).filter((name) => name.startsWith(id))).toEqual([]);
    expect((await head(token, id)).status).toBe(404);
  });

  it("answers someone else's upload, or a made-up id, with 404 and nothing of it", async () => {
    const id = idOf((await create(token, clip.length)).headers.get('location'));
    await patch(token, id, 0, clip.subarray(0, 1000));
    for (const response of [
      await head(other, id),
      await patch(other, id, 1000, clip.subarray(1000, 2000)),
      await call(DELETE, `/api/videos/uploads/${id}`, { method: 'DELETE', bearer: other, headers: TUS }),
      await head(token, '0123456789abcdef0123456789abcdef'),
      await head(token, '..%2F..%2Fsession-secret'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.message).toBe(UPLOAD_NOT_FOUND_MESSAGE);
      expect(response.headers.get('upload-offset')).toBeNull();
    }
    // The owner's upload is untouched by the other member's PATCH, and the owner may end it.
    expect((await head(token, id)).headers.get('upload-offset')).toBe('1000');
    expect((await call(DELETE, `/api/videos/uploads/${id}`, { method: 'DELETE', bearer: token, headers: TUS })).status).toBe(204);
    expect(existsSync(path.join(resumableDir, id))).toBe(false);
  });

  it('wants a member for every request', async () => {
    expect((await create(undefined, clip.length)).status).toBe(401);
    const id = idOf((await create(token, clip.length)).headers.get('location'));
    expect((await head(undefined, id)).status).toBe(401);
    expect((await patch(undefined, id, 0, clip.subarray(0, 10))).status).toBe(401);
    // A session cookie on a request from another site is not believed (CSRF), as on every mutating route.
    const crossSite = await call(POST, '/api/videos/uploads', {
      method: 'POST',
      cookie: `chrysalis_session=${token}`,
      headers: {
        ...TUS,
        'upload-length': '100',
        'upload-metadata': metadata(),
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    });
    expect([401, 403]).toContain(crossSite.status);
  });

  it.each([
    ['over the size cap', { 'upload-length': String(3 * 1024 * 1024) }, 413, /too large\. The limit is 2 MB/],
    ['without Upload-Length', { 'upload-defer-length': '1' }, 400, /Upload-Length/],
    ['with no title', { 'upload-length': '1000', 'upload-metadata': metadata({ title: '' }) }, 400, /Title is required/],
    [
      'with an unknown category',
      { 'upload-length': '1000', 'upload-metadata': metadata({ category: 'Nope' }) },
      400,
      /Category must be one of/,
    ],
    [
      'with a title of NUL and control bytes only (cleaned to nothing, as in the plain upload)',
      { 'upload-length': '1000', 'upload-metadata': metadata({ title: '\u0000\u0001' }) },
      400,
      /Title is required/,
    ],
    ['with malformed metadata', { 'upload-length': '1000', 'upload-metadata': 'title !!!not base64' }, 400, /./],
    ['empty', { 'upload-length': '0' }, 400, /empty/],
  ])('refuses an upload %s at creation', async (_name, headers, status, message) => {
    const response = await call(POST, '/api/videos/uploads', {
      method: 'POST',
      bearer: token,
      headers: { ...TUS, 'upload-metadata': metadata(), ...headers },
    });
    expect(response.status).toBe(status);
    expect(String(response.body.message)).toMatch(message);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses more bytes than the declared length', async () => {
    const id = idOf((await create(token, 100)).headers.get('location'));
    const response = await patch(token, id, 0, new Uint8Array(200));
    expect(response.status).toBe(413);
    expect((await head(token, id)).headers.get('upload-offset')).toBe('0');
  });

  it('deletes a finished file that is no video and answers with the probe words of the plain upload', async () => {
    const junk = Buffer.from('this is not a video at all');
    const id = idOf((await create(token, junk.length)).headers.get('location'));
    const response = await patch(token, id, 0, junk);
    expect(response.status).toBe(415);
    expect(response.body.message).toMatch(/not a video we can read/);
    expect(readdirSync(resumableDir).filter((name) => name.startsWith(id))).toEqual([]);
  });

  it("counts a started upload against the member's daily uploads", async () => {
    const busy = await verifiedMemberToken(database.db, `tusbusy${engine}`);
    const started: number[] = [];
    for (let i = 0; i < 20; i += 1) started.push((await create(busy, 1000)).status);
    expect(started.every((status) => status === 201)).toBe(true);
    const refused = await create(busy, 1000);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/today's limit of 20 uploads/);
  });

  it('sweeps unfinished uploads past their expiry, and only those', async () => {
    const oldId = idOf((await create(token, 1000)).headers.get('location'));
    const freshId = idOf((await create(token, 1000)).headers.get('location'));
    const config = path.join(resumableDir, `${oldId}.json`);
    const info = JSON.parse(readFileSync(config, 'utf8')) as { creation_date: string };
    info.creation_date = new Date(Date.now() - 2 * 60 * 60_000).toISOString();
    writeFileSync(config, JSON.stringify(info));
    const expired = await head(token, oldId);
    expect(expired.status).toBe(410);
    expect(expired.body.message).toBe(UPLOAD_EXPIRED_MESSAGE);
    expect(await sweepExpiredResumableUploads()).toBeGreaterThanOrEqual(1);
    expect(existsSync(path.join(resumableDir, oldId))).toBe(false);
    expect((await head(token, freshId)).status).toBe(200);
  });

  it('sweeps an old upload file whose record a crash removed, and leaves a new one being created', async () => {
    const oldOrphan = path.join(resumableDir, 'a'.repeat(32));
    const newOrphan = path.join(resumableDir, 'b'.repeat(32));
    writeFileSync(oldOrphan, 'left by a crash');
    writeFileSync(newOrphan, 'tus writes the file before its record');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(oldOrphan, old, old);
    await sweepExpiredResumableUploads();
    expect(existsSync(oldOrphan)).toBe(false);
    expect(existsSync(newOrphan)).toBe(true);
    rmSync(newOrphan);
  });

  describe("an address spelled to reach someone else's upload", () => {
    /** The victim's upload (1000 bytes in) and the attacker's own; the victim is `other`. */
    let victim: string;
    let own: string;
    let attacker: string;
    const victimTitle = 'Victim private title';
    beforeAll(async () => {
      attacker = await verifiedMemberToken(database.db, `tusattacker${engine}`);
      victim = idOf(
        (await create(other, clip.length, metadata({ title: victimTitle, filename: 'victim-secret.mp4' }))).headers.get(
          'location',
        ),
      );
      expect((await patch(other, victim, 0, clip.subarray(0, 1000))).status).toBe(204);
    });
    /** The attacker's own upload, made again when a DELETE spelled at it took it away. */
    async function ownUpload(): Promise<string> {
      if (!own || (await head(attacker, own)).status !== 200)
        own = idOf((await create(attacker, clip.length)).headers.get('location'));
      return own;
    }

    /** One request as the attacker, at `/api/videos/uploads/<spelling>`: a PATCH would finish the victim's upload from its offset. */
    function attack(method: 'HEAD' | 'PATCH' | 'DELETE', spelling: string) {
      const url = `/api/videos/uploads/${spelling}`;
      if (method === 'HEAD') return call(HEAD, url, { method, bearer: attacker, headers: TUS });
      if (method === 'DELETE') return call(DELETE, url, { method, bearer: attacker, headers: TUS });
      return call(PATCH, url, {
        method,
        bearer: attacker,
        headers: { ...TUS, 'upload-offset': '1000', 'content-type': 'application/offset+octet-stream' },
        body: Buffer.from(clip.subarray(1000)) as unknown as string,
      });
    }

    /** The victim's upload is as it was, and the answer carried nothing of it. */
    async function expectUntouched(response: Awaited<ReturnType<typeof attack>>, spelling: string) {
      const where = `${spelling} → ${response.status}`;
      expect({ where, leaked: response.headers.get('upload-metadata')?.includes(b64(victimTitle)) ?? false }).toEqual({
        where,
        leaked: false,
      });
      expect({ where, body: JSON.stringify(response.body).includes(victimTitle) }).toEqual({ where, body: false });
      const seen = await head(other, victim);
      expect({ where, status: seen.status, offset: seen.headers.get('upload-offset') }).toEqual({
        where,
        status: 200,
        offset: '1000',
      });
    }

    it.each(['HEAD', 'PATCH', 'DELETE'] as const)(
      'never lets %s past the path: query, semicolon, encoded slash, double slash, fragment, dots',
      async (method) => {
        const mine = await ownUpload();
        const spellings = [
          victim,
          `${mine}?/${victim}`,
          `${mine}?x=/${victim}`,
          `${mine};/${victim}`,
          `${mine}%2F${victim}`,
          `${mine}%2f${victim}`,
          `${mine}%252F${victim}`,
          `${mine}//${victim}`,
          `${mine}/${victim}`,
          `${victim}/`,
          `${mine}#/${victim}`,
          `${mine}/%2e%2e/${victim}`,
          `${mine}/..%2F${victim}`,
          `${mine}\\${victim}`,
          `${mine}%5C${victim}`,
          `${victim}.json`,
          `${victim.toUpperCase()}`,
        ];
        for (const spelling of spellings) await expectUntouched(await attack(method, spelling), spelling);
        expect(await database.db.select().from(videos).where(eq(videos.title, victimTitle))).toEqual([]);
      },
    );

    it('holds for any spelling made of path, query and fragment pieces (property)', async () => {
      const piece = fc.constantFrom(
        '?/',
        '?a=/',
        ';/',
        '%2F',
        '%2f',
        '%252F',
        '//',
        '/',
        '/../',
        '/./',
        '#/',
        '\\',
        '%5C',
        '/%2e%2e/',
        '%3F/',
        '&/',
        '%23/',
        '/.%2e/',
        '?',
        '#',
        '%00/',
        '/ ',
      );
      const spelling = fc.record({
        head: fc.constantFrom('own', 'victim', 'x', ''),
        glue: fc.array(piece, { minLength: 1, maxLength: 3 }),
        tail: fc.constantFrom('', '/', '?', '#', '.json', '%00'),
      });
      await fc.assert(
        fc.asyncProperty(
          spelling,
          fc.constantFrom('HEAD', 'PATCH', 'DELETE' as const),
          async ({ head: first, glue, tail }, method) => {
            const start = first === 'own' ? await ownUpload() : first === 'victim' ? victim : first;
            const written = `${start}${glue.join('')}${victim}${tail}`;
            await expectUntouched(await attack(method, written), written);
          },
        ),
        { numRuns: 60 },
      );
      expect(await database.db.select().from(videos).where(eq(videos.title, victimTitle))).toEqual([]);
    });

    it("gives the finished video to the upload's recorded owner, who finishes it", async () => {
      const done = await patch(other, victim, 1000, clip.subarray(1000));
      expect(done.status).toBe(200);
      const [row] = await database.db
        .select()
        .from(videos)
        .where(eq(videos.id, (done.body.video as { _id: string })._id));
      const [victimRow] = await database.db.select().from(videos).where(eq(videos.title, victimTitle));
      expect(row!.ownerId).toBe(victimRow!.ownerId);
      expect(row!.title).toBe(victimTitle);
    });
  });

  describe('malformed or unsupported tus requests (4xx with a JSON message, never 5xx)', () => {
    // A member of its own: the fuzz starts uploads, each counted against the day's.
    let fuzzer: string;
    beforeAll(async () => {
      fuzzer = await verifiedMemberToken(database.db, `tusfuzzer${engine}`);
    });
    beforeEach(() => resetLimiters());
    const expectJsonRefusal = (response: Awaited<ReturnType<typeof call>>, status: number, message: string | RegExp) => {
      expect({ status: response.status, type: response.headers.get('content-type') }).toEqual({
        status,
        type: 'application/json',
      });
      expect(String(response.body.message)).toMatch(message);
    };
    const post = (headers: Record<string, string>) =>
      call(POST, '/api/videos/uploads', {
        method: 'POST',
        bearer: fuzzer,
        headers: { 'upload-metadata': metadata(), ...headers },
      });

    it.each([
      [
        'Upload-Concat: partial (parallel uploads)',
        { ...TUS, 'upload-length': '1000', 'upload-concat': 'partial' },
        400,
        CONCAT_MESSAGE,
      ],
      [
        'Upload-Concat: final',
        { ...TUS, 'upload-concat': 'final;/api/videos/uploads/0123456789abcdef0123456789abcdef' },
        400,
        CONCAT_MESSAGE,
      ],
      ['Upload-Concat: junk', { ...TUS, 'upload-length': '1000', 'upload-concat': 'whatever' }, 400, CONCAT_MESSAGE],
      ['no Tus-Resumable', { 'upload-length': '1000' }, 412, TUS_VERSION_MESSAGE],
      ['Tus-Resumable of another version', { 'tus-resumable': '0.2.2', 'upload-length': '1000' }, 412, TUS_VERSION_MESSAGE],
      ['Upload-Length with an exponent', { ...TUS, 'upload-length': '1e3' }, 400, LENGTH_FORMAT_MESSAGE],
      ['Upload-Length negative', { ...TUS, 'upload-length': '-1' }, 400, LENGTH_FORMAT_MESSAGE],
      ['Upload-Length with a leading zero', { ...TUS, 'upload-length': '0100' }, 400, LENGTH_FORMAT_MESSAGE],
      ['Upload-Length past exact integers', { ...TUS, 'upload-length': '99999999999999999999' }, 400, LENGTH_FORMAT_MESSAGE],
      [
        'Upload-Length and Upload-Defer-Length',
        { ...TUS, 'upload-length': '1000', 'upload-defer-length': '1' },
        400,
        /Upload-Length/,
      ],
      ['Upload-Defer-Length: 2', { ...TUS, 'upload-defer-length': '2' }, 400, /Upload-Length/],
      [
        'Upload-Metadata with a key and no pair separator',
        { ...TUS, 'upload-length': '1000', 'upload-metadata': 'title dGl0bGU= extra' },
        400,
        /Upload-Metadata is not valid/,
      ],
    ])('refuses a POST with %s', async (_name, headers, status, message) => {
      const response = await post(headers);
      expectJsonRefusal(response, status, message);
      expect(response.headers.get('location')).toBeNull();
      if (status === 412) expect(response.headers.get('tus-version')).toBe('1.0.0');
    });

    it.each([
      ['no Upload-Offset', { 'content-type': 'application/offset+octet-stream' }, 400, OFFSET_MESSAGE],
      [
        'Upload-Offset not a number',
        { 'upload-offset': 'abc', 'content-type': 'application/offset+octet-stream' },
        400,
        OFFSET_MESSAGE,
      ],
      [
        'Upload-Offset negative',
        { 'upload-offset': '-5', 'content-type': 'application/offset+octet-stream' },
        400,
        OFFSET_MESSAGE,
      ],
      ['no Content-Type', { 'upload-offset': '0' }, 415, PATCH_CONTENT_TYPE_MESSAGE],
      [
        'Content-Type of a form',
        { 'upload-offset': '0', 'content-type': 'multipart/form-data; boundary=x' },
        415,
        PATCH_CONTENT_TYPE_MESSAGE,
      ],
      [
        'Upload-Length (the size is set at creation)',
        { 'upload-offset': '0', 'upload-length': '10', 'content-type': 'application/offset+octet-stream' },
        400,
        PATCH_LENGTH_MESSAGE,
      ],
      [
        'Upload-Concat',
        { 'upload-offset': '0', 'upload-concat': 'partial', 'content-type': 'application/offset+octet-stream' },
        400,
        CONCAT_MESSAGE,
      ],
    ])('refuses a PATCH with %s, leaving the upload as it was', async (_name, headers, status, message) => {
      const id = idOf((await create(fuzzer, 100)).headers.get('location'));
      const response = await call(PATCH, `/api/videos/uploads/${id}`, {
        method: 'PATCH',
        bearer: fuzzer,
        headers: { ...TUS, ...headers },
        body: '0123456789',
      });
      expectJsonRefusal(response, status, message);
      expect((await head(fuzzer, id)).headers.get('upload-offset')).toBe('0');
    });

    it('answers HEAD and DELETE of another tus version with 412 and our Tus-Version', async () => {
      const id = idOf((await create(fuzzer, 100)).headers.get('location'));
      expectJsonRefusal(
        await call(HEAD, `/api/videos/uploads/${id}`, { method: 'HEAD', bearer: fuzzer, headers: { 'tus-resumable': '2.0.0' } }),
        412,
        TUS_VERSION_MESSAGE,
      );
      expectJsonRefusal(
        await call(DELETE, `/api/videos/uploads/${id}`, { method: 'DELETE', bearer: fuzzer }),
        412,
        TUS_VERSION_MESSAGE,
      );
      expect((await head(fuzzer, id)).status).toBe(200);
    });

    it('answers any tus header values with a 2xx or a JSON 4xx, never a 5xx (fuzz)', async () => {
      const value = fc.oneof(
        fc.constantFrom(
          '',
          '0',
          '1',
          '-1',
          '1.0.0',
          '1e3',
          '100',
          '0x10',
          ' 100',
          '100 ',
          'partial',
          'final;',
          'final;/x',
          'application/offset+octet-stream',
          '9'.repeat(30),
          '\u0000',
        ),
        fc.string({ maxLength: 40 }),
      );
      const name = fc.constantFrom(
        'tus-resumable',
        'upload-length',
        'upload-offset',
        'upload-defer-length',
        'upload-concat',
        'upload-metadata',
        'content-type',
        'x-http-method-override',
        'x-forwarded-proto',
        'tus-version',
        'upload-expires',
      );
      const headers = fc.dictionary(name, value, { maxKeys: 5 });
      const id = idOf((await create(fuzzer, 1_000_000)).headers.get('location'));
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('POST', 'PATCH', 'HEAD'), headers, fc.boolean(), async (method, fuzzed, tus) => {
          const sent: Record<string, string> = {};
          // Header values the fetch API would refuse to send are no request at all.
          for (const [key, text] of Object.entries({ ...(tus ? TUS : {}), ...fuzzed }))
            if (/^[\t\u0020-\u007e]*$/.test(text)) sent[key] = text;
          const handlerOf = { POST, PATCH, HEAD }[method as 'POST'];
          const response = await call(handlerOf, method === 'POST' ? '/api/videos/uploads' : `/api/videos/uploads/${id}`, {
            method,
            bearer: fuzzer,
            headers: sent,
            body: method === 'PATCH' ? 'abc' : undefined,
          });
          const where = `${method} ${JSON.stringify(sent)} → ${response.status}`;
          expect({ where, ok: response.status < 500 }).toEqual({ where, ok: true });
          if (response.status >= 400)
            expect({ where, type: response.headers.get('content-type'), message: typeof response.body.message }).toEqual({
              where,
              type: 'application/json',
              message: 'string',
            });
        }),
        { numRuns: 80 },
      );
    });
  });

  // A real full disk: a 2 MB tmpfs over the folder, filled to its last block (or nearly).
  (CAN_MOUNT ? describe : describe.skip)(`when the disk is full${CAN_MOUNT ? '' : ` (${SKIP_WITHOUT_ROOT})`}`, () => {
    let member: string;
    beforeAll(async () => {
      member = await verifiedMemberToken(database.db, `tusfull${engine}`);
    });
    const expectFull = (response: Awaited<ReturnType<typeof call>>) => {
      expect({ status: response.status, message: response.body.message, type: response.headers.get('content-type') }).toEqual({
        status: 507,
        message: STORAGE_FULL_MESSAGE,
        type: 'application/json',
      });
    };
    const expectLoggedFull = (logs: ReturnType<typeof captureLogs>) =>
      expect(logs.at(LEVEL.error)).toContainEqual(
        expect.objectContaining({ component: 'upload', code: 'ENOSPC', msg: expect.stringContaining('ENOSPC') }),
      );

    it('answers a full upload folder with 507: a start is given back, a PATCH keeps what was written and resumes from it once there is room', async () => {
      mountTmpfs(resumableDir);
      try {
        const started = idOf((await create(member, clip.length)).headers.get('location'));
        let free = fillUp(resumableDir);
        const logs = captureLogs();
        // More starts than the day allows: each failed one is given back.
        for (let i = 0; i < 21; i += 1) expectFull(await create(member, clip.length));
        expectLoggedFull(logs);
        // Not even the upload's lock file can be written: refused, and no empty lock is left to block the retry.
        expectFull(await patch(member, started, 0, clip));
        free();

        free = fillUp(resumableDir, 8 * 1024);
        const cut = await patch(member, started, 0, clip);
        logs.restore();
        expectFull(cut);
        expectLoggedFull(logs);
        const kept = Number((await head(member, started)).headers.get('upload-offset'));
        expect(kept).toBeLessThan(clip.length);
        free();
        const done = await patch(member, started, kept, clip.subarray(kept));
        expect(done.status).toBe(200);
        const [row] = await database.db
          .select()
          .from(videos)
          .where(eq(videos.id, (done.body.video as { _id: string })._id));
        expect(readFileSync(path.join(dataDir, 'media', 'originals', row!.sourceKey))).toEqual(clip);
        // The day's uploads were not spent by the failed starts.
        expect((await create(member, clip.length)).status).toBe(201);
      } finally {
        unmount(resumableDir);
      }
    });

    it('keeps a complete upload whose last step failed on a full media folder: HEAD tells the full offset, a PATCH of no bytes finishes it, expiry sweeps one never finished', async () => {
      const mediaDir = path.join(dataDir, 'media');
      mountTmpfs(mediaDir);
      const free = fillUp(mediaDir);
      try {
        const id = idOf((await create(member, clip.length)).headers.get('location'));
        const logs = captureLogs();
        const failed = await patch(member, id, 0, clip);
        logs.restore();
        expectFull(failed);
        expectLoggedFull(logs);
        const resumed = await head(member, id);
        expect({ status: resumed.status, offset: resumed.headers.get('upload-offset') }).toEqual({
          status: 200,
          offset: String(clip.length),
        });
        // Still full: the last step fails again, and the upload is still kept.
        expectFull(await patch(member, id, clip.length, new Uint8Array(0)));
        expect(readFileSync(path.join(resumableDir, id))).toEqual(clip);

        // Another that is never retried: it goes with the expiry sweep like any unfinished upload.
        const abandoned = idOf((await create(member, clip.length)).headers.get('location'));
        expectFull(await patch(member, abandoned, 0, clip));
        const config = path.join(resumableDir, `${abandoned}.json`);
        writeFileSync(
          config,
          JSON.stringify({
            ...JSON.parse(readFileSync(config, 'utf8')),
            creation_date: new Date(Date.now() - 2 * 60 * 60_000).toISOString(),
          }),
        );
        await sweepExpiredResumableUploads();
        expect(existsSync(path.join(resumableDir, abandoned))).toBe(false);

        free();
        // Two retries at once (two tabs): one makes the video, the other is told to wait or finds it gone.
        const before = (await database.db.select().from(videos)).length;
        const answers = await Promise.all([
          patch(member, id, clip.length, new Uint8Array(0)),
          patch(member, id, clip.length, new Uint8Array(0)),
        ]);
        const done = answers.find((answer) => answer.status === 200)!;
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, answers.find((answer) => answer !== done)!.status]);
        expect([404, 423]).toContain(answers.find((answer) => answer !== done)!.status);
        expect(await database.db.select().from(videos)).toHaveLength(before + 1);
        const [row] = await database.db
          .select()
          .from(videos)
          .where(eq(videos.id, (done.body.video as { _id: string })._id));
        expect(readFileSync(path.join(mediaDir, 'originals', row!.sourceKey))).toEqual(clip);
        expect(readdirSync(resumableDir).filter((name) => name.startsWith(id))).toEqual([]);
        expect(readdirSync(mediaDir, { recursive: true }).filter((name) => String(name).endsWith('.partial'))).toEqual([]);
      } finally {
        free();
        unmount(mediaDir);
      }
    });
  });

  describe.each([
    ['in the app server', false],
    ['with their bodies written by the upload receiver process', true],
  ])('through the production server (handed over before Next, streamed), %s', (_where, withReceiver) => {
    let app: Server;
    let server: Server | NetServer;
    let receiver: UploadReceiver | undefined;
    let base: string;
    /** The requests the receiver held, and what it reported going wrong. */
    const received: string[] = [];
    const problems: string[] = [];
    /** Body bytes every PATCH announced, wherever it was taken. */
    let patchedBytes = 0;
    const countPatch = (method: string | undefined, length: string | string[] | undefined) => {
      if (method === 'PATCH') patchedBytes += Number(length ?? 0);
    };
    beforeAll(async () => {
      app = createServer((req, res) => {
        countPatch(req.method, req.headers['content-length']);
        void handleNodeUpload(req, res);
      });
      server = app;
      if (withReceiver) {
        receiver = new UploadReceiver({
          entry: path.join(process.cwd(), 'scripts', 'upload-receiver.ts'),
          onProblem: (message) => problems.push(message),
          onRequest: (upload) => {
            countPatch(upload.method, upload.headers['content-length']);
            received.push(upload.method);
            void handleReceivedUpload(upload);
          },
        });
        receiver.start();
        for (let tries = 0; !receiver.running && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
        server = listenWithReceiver(app, receiver);
      }
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      receiver?.stop();
      app.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    beforeEach(() => (received.length = 0));
    afterEach(() => expect(problems).toEqual([]));
    /** Each PATCH went through the receiver when there is one (a PATCH that opens its connection). */
    const expectReceived = (patches: number) =>
      expect(received).toEqual(withReceiver ? Array<string>(patches).fill('PATCH') : []);

    it('creates, resumes and finishes an upload', async () => {
      const auth = { authorization: `Bearer ${token}`, ...TUS };
      const created = await fetch(`${base}/api/videos/uploads`, {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(clip.length), 'upload-metadata': metadata() },
      });
      expect(created.status).toBe(201);
      const url = `${base}${created.headers.get('location')}`;
      const half = 5000;
      const octets = { ...auth, 'content-type': 'application/offset+octet-stream' };
      expect(
        (await fetch(url, { method: 'PATCH', headers: { ...octets, 'upload-offset': '0' }, body: clip.subarray(0, half) }))
          .status,
      ).toBe(204);
      expect((await fetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe(String(half));
      const done = await fetch(url, {
        method: 'PATCH',
        headers: { ...octets, 'upload-offset': String(half) },
        body: clip.subarray(half),
      });
      expect(done.status).toBe(200);
      expect(((await done.json()) as { video: { title: string } }).video.title).toBe('Resumed transformation');
      expect(done.headers.get('connection')).toBe('close');
      expectReceived(2);
      // Not the caller's: the same 404 as through Next.
      const stranger = await fetch(url, { method: 'HEAD', headers: { ...auth, authorization: `Bearer ${other}` } });
      expect(stranger.status).toBe(404);
    });

    /** Starts an upload of the clip through the production server; its URL. */
    async function start(auth: Record<string, string>): Promise<string> {
      const created = await fetch(`${base}/api/videos/uploads`, {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(clip.length), 'upload-metadata': metadata() },
      });
      expect(created.status).toBe(201);
      return `${base}${created.headers.get('location')}`;
    }

    it("never reaches another member's upload through a raw request target: absolute form with another host, query, semicolon", async () => {
      const created = await fetch(`${base}/api/videos/uploads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${other}`,
          ...TUS,
          'upload-length': String(clip.length),
          'upload-metadata': metadata({ title: 'Raw victim title' }),
        },
      });
      const victimUrl = `${base}${created.headers.get('location')}`;
      const victim = idOf(victimUrl);
      const own = idOf(await start({ authorization: `Bearer ${token}`, ...TUS }));
      const raw = (method: string, target: string) =>
        new Promise<{ status: number; metadata: string | undefined }>((resolve, reject) => {
          const { port } = new URL(base);
          const req = httpRequest({
            host: '127.0.0.1',
            port,
            method,
            path: target,
            headers: {
              authorization: `Bearer ${token}`,
              ...TUS,
              'upload-offset': '0',
              'content-type': 'application/offset+octet-stream',
              'content-length': '10',
            },
          });
          req.on('response', (response) => {
            response.resume();
            resolve({ status: response.statusCode!, metadata: response.headers['upload-metadata'] as string | undefined });
          });
          req.on('error', reject);
          req.end(method === 'PATCH' ? '0123456789' : undefined);
        });
      for (const target of [
        `http://evil.example/api/videos/uploads/${own}?/${victim}`,
        `http://evil.example/api/videos/uploads/${victim}`,
        `/api/videos/uploads/${own}?/${victim}`,
        `/api/videos/uploads/${own};/${victim}`,
        `/api/videos/uploads/${own}%2F${victim}`,
        `/api/videos/uploads//${victim}`,
      ]) {
        for (const method of ['HEAD', 'PATCH', 'DELETE']) {
          const answer = await raw(method, target);
          expect({ target, method, leaked: (answer.metadata ?? '').includes(b64('Raw victim title')) }).toEqual({
            target,
            method,
            leaked: false,
          });
        }
      }
      const seen = await fetch(victimUrl, { method: 'HEAD', headers: { authorization: `Bearer ${other}`, ...TUS } });
      expect({ status: seen.status, offset: seen.headers.get('upload-offset') }).toEqual({ status: 200, offset: '0' });
    });

    it('refuses a chunked body (no Content-Length) longer than what the upload has left', async () => {
      const auth = { authorization: `Bearer ${token}`, ...TUS };
      const url = await start(auth);
      const body = Buffer.concat([clip, Buffer.alloc(64 * 1024, 1)]);
      const tooLong = await fetch(url, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
        body: new ReadableStream({ start: (controller) => (controller.enqueue(body), controller.close()) }),
        duplex: 'half',
      } as RequestInit);
      expect(tooLong.status).toBe(413);
      expectReceived(1);
    });

    (CAN_MOUNT ? it : it.skip)(
      `answers a disk that fills while the body arrives with 507, and continues from what was kept${CAN_MOUNT ? '' : ` (${SKIP_WITHOUT_ROOT})`}`,
      async () => {
        mountTmpfs(resumableDir);
        try {
          const auth = { authorization: `Bearer ${token}`, ...TUS };
          const url = await start(auth);
          const free = fillUp(resumableDir, 8 * 1024);
          const octets = { ...auth, 'content-type': 'application/offset+octet-stream' };
          const logs = captureLogs();
          const full = await fetch(url, { method: 'PATCH', headers: { ...octets, 'upload-offset': '0' }, body: clip });
          logs.restore();
          expect({ status: full.status, body: await full.json() }).toEqual({
            status: 507,
            body: { message: STORAGE_FULL_MESSAGE },
          });
          expect(logs.at(LEVEL.error)).toContainEqual(expect.objectContaining({ component: 'upload', code: 'ENOSPC' }));
          const offset = Number((await fetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset'));
          expect(offset).toBeLessThan(clip.length);
          free();
          const done = await fetch(url, {
            method: 'PATCH',
            headers: { ...octets, 'upload-offset': String(offset) },
            body: clip.subarray(offset),
          });
          expect(done.status).toBe(200);
          expectReceived(2);
        } finally {
          unmount(resumableDir);
        }
      },
    );

    (CAN_MOUNT ? it : it.skip)(
      `lets tus-js-client finish an upload whose last step met a full media disk, sending the file once${CAN_MOUNT ? '' : ` (${SKIP_WITHOUT_ROOT})`}`,
      async () => {
        const { Upload } = await import('tus-js-client');
        const mediaDir = path.join(dataDir, 'media');
        mountTmpfs(mediaDir);
        const free = fillUp(mediaDir);
        const logs = captureLogs();
        try {
          patchedBytes = 0;
          const statuses: number[] = [];
          // The browser module's way (lib/client/resumable-upload.ts): tus-js-client, then finishUpload when its retry found every byte sent.
          const answer = await new Promise<string>((resolve, reject) => {
            const upload = new Upload(clip, {
              endpoint: `${base}/api/videos/uploads`,
              headers: { Authorization: `Bearer ${token}` },
              metadata: { filename: 'clip.mp4', title: 'Finished after a full disk', category: 'Sissy' },
              retryDelays: [100],
              onAfterResponse: (_request, response) => void statuses.push(response.getStatus()),
              onSuccess: ({ lastResponse }) => {
                if (lastResponse.getBody()) return resolve(lastResponse.getBody());
                // Still full on the first try of the last step: room is made while the client waits to retry.
                finishUpload(upload.url!, clip.length, token, { onRetry: () => free() }).then(resolve, reject);
              },
              onError: reject,
            });
            upload.start();
          });
          expect(statuses).toEqual([201, 507, 200]);
          expect((JSON.parse(answer) as { video: { title: string } }).video.title).toBe('Finished after a full disk');
          // The file crossed the network once; the retries of the last step carried no bytes.
          expect(patchedBytes).toBe(clip.length);
        } finally {
          logs.restore();
          free();
          unmount(mediaDir);
        }
      },
      20_000,
    );

    it('keeps the bytes of a PATCH whose connection drops, and continues from them', async () => {
      const auth = { authorization: `Bearer ${token}`, ...TUS };
      const url = await start(auth);
      const sent = 6000;
      // A PATCH announcing the whole clip that sends part of it, then the connection is reset.
      await new Promise<void>((resolve) => {
        const req = httpRequest(url, {
          method: 'PATCH',
          headers: {
            ...auth,
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
            'content-length': clip.length,
          },
        });
        req.on('error', () => resolve());
        req.write(clip.subarray(0, sent), () => setTimeout(() => req.destroy(), 300));
      });
      // The server sees the reset and lets go of the lock: HEAD answers with what arrived.
      let head = await fetch(url, { method: 'HEAD', headers: auth });
      for (let tries = 0; head.status !== 200 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        head = await fetch(url, { method: 'HEAD', headers: auth });
      }
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBe(sent);
      const done = await fetch(url, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
        body: clip.subarray(offset),
      });
      expect(done.status).toBe(200);
      expectReceived(2);
    });
  });
});

describe('the upload locker (several web processes on one DATA_DIR)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-locks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const release = () => undefined;

  it('breaks a lock whose process is gone (a crash), at once', async () => {
    writeFileSync(path.join(dir, 'a.lock'), ownerTag(2 ** 22 + 12345));
    const locker = new FileLocker(dir);
    const lock = locker.newLock('a');
    await lock.lock(new AbortController().signal, release);
    expect(readFileSync(path.join(dir, 'a.lock'), 'utf8')).toBe(ownerTag());
    await lock.unlock();
    // The answer does not wait for the file to go; the next lock of this process does.
    await locker.released('a');
    expect(existsSync(path.join(dir, 'a.lock'))).toBe(false);
  });

  it('takes a lock again at once after this process let go of it (the next PATCH of an upload)', async () => {
    const locker = new FileLocker(dir);
    const first = locker.newLock('c');
    await first.lock(new AbortController().signal, release);
    await first.unlock();
    // The lock file may still be going: the next lock waits for that, not for the other-process poll.
    const again = locker.newLock('c');
    await again.lock(AbortSignal.timeout(2_000), release);
    expect(readFileSync(path.join(dir, 'c.lock'), 'utf8')).toBe(ownerTag());
    await again.unlock();
    await locker.released('c');
    expect(existsSync(path.join(dir, 'c.lock'))).toBe(false);
  });

  it('makes another process wait for a live holder, and asks a holder in this process to let go', async () => {
    const here = new FileLocker(dir);
    const held = here.newLock('b');
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked += 1;
    });
    // Another process's locker: it cannot ask, so it waits (here until its request ends).
    const elsewhere = new FileLocker(dir).newLock('b');
    await expect(elsewhere.lock(AbortSignal.timeout(400), release)).rejects.toThrow(/ended while it waited/);
    expect(asked).toBe(0);
    // This process: the holder is asked to let go, and the lock passes once it does.
    const next = here.newLock('b');
    const waiting = next.lock(new AbortController().signal, release);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(asked).toBeGreaterThan(0);
    await held.unlock();
    await waiting;
    await next.unlock();
  });
});
