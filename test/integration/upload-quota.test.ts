import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { NextRequest } from 'next/server';

import { POST as upload } from '@/app/api/videos/upload/route';
import { installDatabase } from '@/lib/db';
import { videos } from '@/lib/db/schema';
import { resetLimiters } from '@/lib/server/rate-limit';
import { STORAGE_FULL_MESSAGE } from '@/lib/server/videos/storage-failure';
import { handleNodeUpload } from '@/lib/server/videos/upload-node';

import { call, ORIGIN } from '../helpers/api';
import { captureLogs, LEVEL } from '../helpers/logs';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { verifiedMemberToken } from '../helpers/members';
import { mediaFixtures } from '../helpers/media';
import { CAN_MOUNT, fillUp, mountTmpfs, SKIP_WITHOUT_ROOT, unmount } from '../helpers/tmpfs';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-upload-quota-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
process.env.UPLOADS_PER_DAY = '3';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const clip = readFileSync(mediaFixtures().h264Clip());
const LIMIT_REACHED = "You have reached today's limit of 3 uploads. You can upload again in 24 hours.";

function uploadForm(file: Blob) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ title: 'Quota check', description: '', category: 'Beta', tags: '' }))
    form.append(key, value);
  form.append('video', file, 'clip.mp4');
  return form;
}

const quarantined = () => {
  try {
    return readdirSync(path.join(dataDir, 'quarantine'));
  } catch {
    return [];
  }
};

describe.each(ENGINES)('the daily upload quota (UPLOADS_PER_DAY) on %s', (engine) => {
  let database: TestDatabase;
  let server: Server;
  let bridgePort: number;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    server = createServer((req, res) => void handleNodeUpload(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bridgePort = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.destroy();
  });

  const send = (token: string, file: Blob) => call(upload, '/api/videos/upload', { form: uploadForm(file), bearer: token });

  it('counts every upload started, refused ones too but not failures on our side, then answers 429 before reading the body', async () => {
    const token = await verifiedMemberToken(database.db, `quota_${engine}`);
    expect((await send(token, new Blob([clip]))).status).toBe(201);
    expect((await send(token, new Blob(['not a video at all']))).status).toBe(415);

    // Media storage breaks (a file where the originals folder belongs): a 500 is ours, and the upload is given back.
    const originals = path.join(dataDir, 'media', 'originals');
    rmSync(originals, { recursive: true, force: true });
    mkdirSync(path.dirname(originals), { recursive: true });
    writeFileSync(originals, 'in the way');
    const logs = captureLogs();
    expect((await send(token, new Blob([clip]))).status).toBe(500);
    expect(logs.at(LEVEL.error)).toContainEqual(
      expect.objectContaining({
        msg: expect.stringContaining('/api/videos/upload failed'),
        err: expect.objectContaining({ code: 'ENOTDIR' }),
      }),
    );
    logs.restore();
    rmSync(originals);

    expect((await send(token, new Blob([clip]))).status).toBe(201);

    // The fourth upload counted: refused while its body has not been touched.
    let bodyRead = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => void (bodyRead = true) }, { highWaterMark: 0 });
    const refused = await upload(
      new NextRequest(`${ORIGIN}/api/videos/upload`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(1024 ** 3),
        },
        body,
        duplex: 'half',
      } as ConstructorParameters<typeof NextRequest>[1]),
      { params: Promise.resolve({}) },
    );
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: LIMIT_REACHED });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 60 * 60);
    expect(bodyRead).toBe(false);
    expect(quarantined()).toEqual([]);
    expect(await database.db.select().from(videos)).toHaveLength(2);
  });

  it('is the same service behind the raw Node upload handler: the 429 arrives before the client has sent its body', async () => {
    const token = await verifiedMemberToken(database.db, `bridged_${engine}`);
    for (let i = 0; i < 3; i += 1) expect((await send(token, new Blob(['still not a video']))).status).toBe(415);

    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest({
        port: bridgePort,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/videos/upload',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(1024 ** 3),
        },
      });
      req.on('response', (response) => {
        resolve(response);
        req.destroy();
      });
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      // Headers only: a gigabyte is promised and never sent.
      req.flushHeaders();
    });
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);

    // Another member's quota is their own.
    const other = await verifiedMemberToken(database.db, `unhurried_${engine}`);
    expect((await send(other, new Blob([clip]))).status).toBe(201);
  });

  // A real full disk: a 2 MB tmpfs over the folder, filled to its last block.
  (CAN_MOUNT ? describe : describe.skip)(`when the disk is full${CAN_MOUNT ? '' : ` (${SKIP_WITHOUT_ROOT})`}`, () => {
    const sendBridged = (token: string, file: Blob) =>
      fetch(`http://127.0.0.1:${bridgePort}/api/videos/upload`, {
        method: 'POST',
        body: uploadForm(file),
        headers: { authorization: `Bearer ${token}` },
      });

    it.each([
      ['the upload (quarantine) folder, while the body arrives', 'quarantine'],
      ['the media folder, while the received video moves into it', 'media'],
    ])('answers a full %s with 507, logs the cause, keeps nothing and gives the upload back', async (_where, folder) => {
      const dir = path.join(dataDir, folder);
      mountTmpfs(dir);
      const free = fillUp(dir);
      try {
        const token = await verifiedMemberToken(database.db, `full_${folder}_${engine}`);
        const before = (await database.db.select().from(videos)).length;
        const logs = captureLogs();
        // More tries than the day allows: each failure on our side is given back.
        for (let i = 0; i < 4; i += 1) {
          const response = i % 2 ? await sendBridged(token, new Blob([clip])) : await send(token, new Blob([clip]));
          const body = (response instanceof Response ? await response.json() : response.body) as { message: string };
          expect({ status: response.status, message: body.message }).toEqual({ status: 507, message: STORAGE_FULL_MESSAGE });
        }
        logs.restore();
        const errors = logs.at(LEVEL.error);
        expect(errors).toHaveLength(4);
        expect(errors[0]).toMatchObject({
          component: 'upload',
          code: 'ENOSPC',
          err: expect.objectContaining({ code: 'ENOSPC' }),
        });
        expect(quarantined().filter((name) => !name.startsWith('.'))).toEqual([]);
        expect(
          readdirSync(path.join(dataDir, 'media'), { recursive: true }).filter((name) => String(name).endsWith('.partial')),
        ).toEqual([]);
        expect(await database.db.select().from(videos)).toHaveLength(before);

        // Room again: the member still has the whole day's uploads.
        free();
        for (let i = 0; i < 3; i += 1) expect((await send(token, new Blob([clip]))).status).toBe(201);
        expect((await send(token, new Blob([clip]))).status).toBe(429);
      } finally {
        free();
        unmount(dir);
      }
    });
  });
});
