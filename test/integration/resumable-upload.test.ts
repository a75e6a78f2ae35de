/**
 * Resumable uploads (tus, decision 026): who may start, continue and end
 * one, what is checked at creation (length, size cap, metadata, daily
 * count) and after the last byte (the plain upload's probe and video
 * creation), resuming from HEAD's offset, and the expiry sweep.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';

import { DELETE, HEAD, PATCH, POST } from '@/app/api/videos/uploads/[[...id]]/route';
import { installDatabase } from '@/lib/db';
import { jobs, videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { sweepExpiredResumableUploads, UPLOAD_EXPIRED_MESSAGE, UPLOAD_NOT_FOUND_MESSAGE } from '@/lib/server/videos/resumable';
import { FileLocker } from '@/lib/server/videos/upload-lock';
import { handleNodeUpload, handleReceivedUpload } from '@/lib/server/videos/upload-node';
import { listenWithReceiver, UploadReceiver } from '@/lib/http/upload-receiver';
import { ownerTag } from '@/lib/process-owner';

import { call, ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';

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
  const all = { filename: 'clip.mp4', title: 'Resumed transformation', description: 'Sent in pieces', category: 'Sissy', tags: 'Sissy, resumable', ...fields };
  return Object.entries(all)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',');
}

const TUS = { 'tus-resumable': '1.0.0' };

async function create(bearer: string | undefined, length: number, meta = metadata()) {
  return call(POST, '/api/videos/uploads', { method: 'POST', bearer, headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': meta } });
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

const head = (bearer: string | undefined, id: string) => call(HEAD, `/api/videos/uploads/${id}`, { method: 'HEAD', bearer, headers: TUS });

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
    expect(video).toMatchObject({ title: 'Resumed transformation', category: 'Sissy', tags: ['sissy', 'resumable'], status: 'queued', moderationStatus: 'pending', width: 320 });
    const [row] = await database.db.select().from(videos).where(eq(videos.id, video._id as string));
    expect(readFileSync(path.join(dataDir, 'media', 'originals', row!.sourceKey))).toEqual(clip);
    expect(row!.sourceKey.endsWith('.mp4')).toBe(true);
    expect(await database.db.select().from(jobs).where(eq(jobs.dedupeKey, `process-video:${row!.id}`))).toHaveLength(1);
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
      headers: { ...TUS, 'upload-length': '100', 'upload-metadata': metadata(), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect([401, 403]).toContain(crossSite.status);
  });

  it.each([
    ['over the size cap', { 'upload-length': String(3 * 1024 * 1024) }, 413, /too large\. The limit is 2 MB/],
    ['without Upload-Length', { 'upload-defer-length': '1' }, 400, /Upload-Length/],
    ['with no title', { 'upload-length': '1000', 'upload-metadata': metadata({ title: '' }) }, 400, /Title is required/],
    ['with an unknown category', { 'upload-length': '1000', 'upload-metadata': metadata({ category: 'Nope' }) }, 400, /Category must be one of/],
    ['with a title of NUL and control bytes only (cleaned to nothing, as in the plain upload)', { 'upload-length': '1000', 'upload-metadata': metadata({ title: '\u0000\u0001' }) }, 400, /Title is required/],
    ['with malformed metadata', { 'upload-length': '1000', 'upload-metadata': 'title !!!not base64' }, 400, /./],
    ['empty', { 'upload-length': '0' }, 400, /empty/],
  ])('refuses an upload %s at creation', async (_name, headers, status, message) => {
    const response = await call(POST, '/api/videos/uploads', { method: 'POST', bearer: token, headers: { ...TUS, 'upload-metadata': metadata(), ...headers } });
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
    beforeAll(async () => {
      app = createServer((req, res) => void handleNodeUpload(req, res));
      server = app;
      if (withReceiver) {
        receiver = new UploadReceiver({
          entry: path.join(process.cwd(), 'scripts', 'upload-receiver.ts'),
          onProblem: (message) => problems.push(message),
          onRequest: (upload) => {
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
    const expectReceived = (patches: number) => expect(received).toEqual(withReceiver ? Array<string>(patches).fill('PATCH') : []);

    it('creates, resumes and finishes an upload', async () => {
      const auth = { authorization: `Bearer ${token}`, ...TUS };
      const created = await fetch(`${base}/api/videos/uploads`, { method: 'POST', headers: { ...auth, 'upload-length': String(clip.length), 'upload-metadata': metadata() } });
      expect(created.status).toBe(201);
      const url = `${base}${created.headers.get('location')}`;
      const half = 5000;
      const octets = { ...auth, 'content-type': 'application/offset+octet-stream' };
      expect((await fetch(url, { method: 'PATCH', headers: { ...octets, 'upload-offset': '0' }, body: clip.subarray(0, half) })).status).toBe(204);
      expect((await fetch(url, { method: 'HEAD', headers: auth })).headers.get('upload-offset')).toBe(String(half));
      const done = await fetch(url, { method: 'PATCH', headers: { ...octets, 'upload-offset': String(half) }, body: clip.subarray(half) });
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
      const created = await fetch(`${base}/api/videos/uploads`, { method: 'POST', headers: { ...auth, 'upload-length': String(clip.length), 'upload-metadata': metadata() } });
      expect(created.status).toBe(201);
      return `${base}${created.headers.get('location')}`;
    }

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

    it('keeps the bytes of a PATCH whose connection drops, and continues from them', async () => {
      const auth = { authorization: `Bearer ${token}`, ...TUS };
      const url = await start(auth);
      const sent = 6000;
      // A PATCH announcing the whole clip that sends part of it, then the connection is reset.
      await new Promise<void>((resolve) => {
        const req = httpRequest(url, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0', 'content-length': clip.length } });
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
      const done = await fetch(url, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) }, body: clip.subarray(offset) });
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
