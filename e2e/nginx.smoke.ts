import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { expect, test, type APIRequestContext } from '@playwright/test';

import { ADMIN, makeClip } from './api';
import { NGINX_E2E } from '../playwright.nginx.config';

/*
 * The site through deploy/nginx.conf as an operator runs it (playwright.nginx.config.ts): TRUST_PROXY=1,
 * MEDIA_OFFLOAD=x-accel, media in DATA_DIR/media sent by nginx after the app's access check. Every request
 * here goes to nginx's port; the app's own port is never asked.
 */
test.describe.configure({ mode: 'serial' });

const HSTS = 'max-age=63072000; includeSubDomains';
const mediaRoot = path.join(NGINX_E2E.dataDir, 'media');

let token = '';
let streamVideoId = '';

const auth = () => ({ Authorization: `Bearer ${token}` });

/** The one video's folder under DATA_DIR/media/videos (this server's data dir is fresh). */
function videoDir(): string {
  const [id] = readdirSync(path.join(mediaRoot, 'videos'));
  return path.join(mediaRoot, 'videos', id!);
}

/** nginx's own ETag for a file on disk: last modified (seconds) and length, in hex. */
function nginxEtag(file: string): string {
  const info = statSync(file);
  return `"${Math.floor(info.mtimeMs / 1000).toString(16)}-${info.size.toString(16)}"`;
}

/** What nginx (not the app) answered a hand-over with. */
function expectSentByNginx(headers: Record<string, string>) {
  expect(headers.server).toBe('nginx');
  expect(headers['x-accel-redirect']).toBeUndefined();
  expect(headers['x-content-type-options']).toBe('nosniff');
  // An unpublished video's files (the owner's preview): the app's same-site, copied by nginx.
  expect(headers['cross-origin-resource-policy']).toBe('same-site');
  expect(headers['strict-transport-security']).toBe(HSTS);
}

function upload(request: APIRequestContext, video: Buffer, title: string) {
  return request.post('/api/videos/upload', {
    headers: auth(),
    multipart: {
      video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: video },
      title,
      description: '',
      category: 'Beta',
      tags: 'nginx',
    },
  });
}

test('a public page comes through nginx, with HSTS sent once', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  const headers = await response!.allHeaders();
  expect(headers.server).toBe('nginx');
  expect(headers['strict-transport-security']).toBe(HSTS);
  await expect(page).toHaveTitle(/Chrysalis/);
});

test('login through the API', async ({ request }) => {
  // The bootstrap admin before it enrols two-factor: a password login gives a token.
  const login = await request.post('/api/auth/login', { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
  token = ((await login.json()) as { token: string }).token;
  const me = await request.get('/api/auth/me', { headers: auth() });
  expect(me.status()).toBe(200);
});

/** Bytes the app has written to DATA_DIR/quarantine so far (uploads land there as they arrive). */
function quarantinedBytes(): number {
  const dir = path.join(NGINX_E2E.dataDir, 'quarantine');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
}

test('an upload streams through to the app as it arrives, and the app sets the limit nginx leaves room for', async ({
  request,
}) => {
  const clip = makeClip(mkdtempSync(path.join(os.tmpdir(), 'chrysalis-nginx-clip-')));
  // A multipart body sent in two halves: the app must hold the first half before the client sends the
  // second. With nginx buffering request bodies it would see nothing until the last byte.
  const boundary = `----chrysalis${Date.now()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    `${field('title', 'Behind nginx')}${field('description', '')}${field('category', 'Beta')}${field('tags', 'nginx')}` +
      `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(clip.length / 2);
  const { port } = new URL(NGINX_E2E.origin);
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/videos/upload',
        headers: {
          ...auth(),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + clip.length + tail.length,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(Buffer.concat([head, clip.subarray(0, half)]));
    void expect
      .poll(quarantinedBytes, {
        timeout: 20_000,
        message: 'the app received the first half of the upload while the client held back the rest',
      })
      .toBeGreaterThan(0)
      .then(
        () => req.end(Buffer.concat([clip.subarray(half), tail])),
        (error: unknown) => {
          req.destroy();
          reject(error);
        },
      );
  });
  const created = await answer;
  expect(created.status, created.body).toBe(201);
  streamVideoId = (JSON.parse(created.body) as { video: { streamVideoId: string } }).video.streamVideoId;

  // Over MAX_UPLOAD_BYTES but under nginx's MAX + 1 MiB: the app's own answer.
  const over = await upload(request, Buffer.alloc(NGINX_E2E.maxUploadBytes + 256 * 1024, 1), 'Too large');
  expect(over.status()).toBe(413);
  expect(((await over.json()) as { message: string }).message).toMatch(/limit/i);
  // Over nginx's limit too: nginx refuses it before the app reads a byte.
  const farOver = await upload(request, Buffer.alloc(NGINX_E2E.maxUploadBytes + 2 * 1024 * 1024, 1), 'Far too large');
  expect(farOver.status()).toBe(413);
  expect(farOver.headers()['content-type']).toContain('text/html');
});

test('playback: nginx sends the MP4, its ranges and the HLS files from disk after the app checked access', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const media = (file: string, headers: Record<string, string> = {}) =>
    request.get(`/media/videos/${streamVideoId}/${file}`, { headers: { ...auth(), ...headers } });
  // The HLS master playlist is written last: once it is on disk, every file is.
  const masterOnDisk = () => {
    try {
      return existsSync(path.join(videoDir(), 'hls', 'master.m3u8'));
    } catch {
      return false; // no video folder yet
    }
  };
  await expect.poll(masterOnDisk, { timeout: 100_000, intervals: [500] }).toBe(true);
  const dir = videoDir();

  const mp4 = await media('web.mp4');
  expect(mp4.status()).toBe(200);
  const onDisk = readFileSync(path.join(dir, 'web.mp4'));
  expect(Buffer.from(await mp4.body()).equals(onDisk)).toBe(true);
  expectSentByNginx(mp4.headers());
  expect(mp4.headers()['content-type']).toBe('video/mp4');
  // The app's cache policy for a video its owner previews before review.
  expect(mp4.headers()['cache-control']).toBe('private, max-age=300');
  expect(mp4.headers().etag).toBe(nginxEtag(path.join(dir, 'web.mp4')));

  const range = await media('web.mp4', { range: 'bytes=100-299' });
  expect(range.status()).toBe(206);
  expect(range.headers()['content-range']).toBe(`bytes 100-299/${onDisk.length}`);
  expect(Buffer.from(await range.body()).equals(onDisk.subarray(100, 300))).toBe(true);
  expectSentByNginx(range.headers());

  const master = await media('hls/master.m3u8');
  const masterText = await master.text();
  expect(masterText.startsWith('#EXTM3U')).toBe(true);
  expect(master.headers()['content-type']).toBe('application/vnd.apple.mpegurl');
  const variant = masterText.split('\n').find((line) => line && !line.startsWith('#'))!;
  const playlist = await (await media(`hls/${variant}`)).text();
  const segment = playlist.split('\n').find((line) => line && !line.startsWith('#'))!;
  const segmentPath = path.join(dir, 'hls', path.dirname(variant), segment);
  const segmentResponse = await media(`hls/${path.dirname(variant)}/${segment}`);
  expect(segmentResponse.status()).toBe(200);
  expect(Buffer.from(await segmentResponse.body()).equals(readFileSync(segmentPath))).toBe(true);
  expectSentByNginx(segmentResponse.headers());
});

test('a pending video is refused to visitors, and the internal location is not reachable from outside', async ({ request }) => {
  const visitor = await request.get(`/media/videos/${streamVideoId}/web.mp4`);
  expect(visitor.status()).toBe(404);
  expect(visitor.headers()['x-accel-redirect']).toBeUndefined();
  const direct = await request.get(`/_media/videos/${path.basename(videoDir())}/web.mp4`);
  expect(direct.status()).toBe(404);
  expect((await direct.body()).length).toBeLessThan(2_000);
});

test('the client address is the one nginx saw, whatever X-Forwarded-For the client sends (TRUST_PROXY=1)', async ({
  request,
}) => {
  test.setTimeout(120_000);
  // Failed logins are limited per address (15 in 5 minutes). Each attempt claims another address in its own
  // X-Forwarded-For; nginx appends the real one, and the app believes only that: the 16th is refused.
  // (Were the client's entries believed, every attempt would have a fresh budget.) Last: it spends this address's.
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 16; attempt += 1) {
    const response = await request.post('/api/auth/login', {
      headers: { 'x-forwarded-for': `198.51.100.${attempt + 1}` },
      data: { email: `nobody-${attempt}@example.org`, password: 'not-the-password-1' },
    });
    statuses.push(response.status());
  }
  expect(statuses).toEqual([...Array<number>(15).fill(401), 429]);
});

// Last: the tests above find the one video's folder on disk, and this makes a second.
test('a resumable (tus) upload goes through nginx: created, half sent, resumed from HEAD, finished', async ({ request }) => {
  const clip = makeClip(mkdtempSync(path.join(os.tmpdir(), 'chrysalis-nginx-tus-')));
  const tus = { ...auth(), 'Tus-Resumable': '1.0.0' };
  const metadata = [`filename ${btoa('clip.mp4')}`, `title ${btoa('Resumed behind nginx')}`, `category ${btoa('Beta')}`].join(
    ',',
  );
  const created = await request.post('/api/videos/uploads', {
    headers: { ...tus, 'Upload-Length': String(clip.length), 'Upload-Metadata': metadata },
  });
  expect(created.status(), await created.text()).toBe(201);
  const url = created.headers().location!;
  const half = Math.floor(clip.length / 2);
  const octets = { ...tus, 'Content-Type': 'application/offset+octet-stream' };
  expect(
    (await request.patch(url, { headers: { ...octets, 'Upload-Offset': '0' }, data: clip.subarray(0, half) })).status(),
  ).toBe(204);
  const head = await request.head(url, { headers: tus });
  expect(head.headers()['upload-offset']).toBe(String(half));
  const done = await request.patch(url, { headers: { ...octets, 'Upload-Offset': String(half) }, data: clip.subarray(half) });
  expect(done.status(), await done.text()).toBe(200);
  expect(((await done.json()) as { video: { title: string } }).video.title).toBe('Resumed behind nginx');
});
