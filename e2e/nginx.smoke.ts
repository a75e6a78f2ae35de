import { statSync, readFileSync, readdirSync, mkdtempSync } from 'node:fs';
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
  expect(headers['cross-origin-resource-policy']).toBe('same-site');
  expect(headers['strict-transport-security']).toBe(HSTS);
}

function upload(request: APIRequestContext, video: Buffer, title: string) {
  return request.post('/api/videos/upload', {
    headers: auth(),
    multipart: { video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: video }, title, description: '', category: 'Beta', tags: 'nginx' },
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

test('an upload streams through to the app, which sets the limit nginx leaves room for', async ({ request }) => {
  const clip = makeClip(mkdtempSync(path.join(os.tmpdir(), 'chrysalis-nginx-clip-')));
  const created = await upload(request, clip, 'Behind nginx');
  expect(created.status(), await created.text()).toBe(201);
  streamVideoId = ((await created.json()) as { video: { streamVideoId: string } }).video.streamVideoId;

  // Over MAX_UPLOAD_BYTES but under nginx's MAX + 1 MiB: the app's own answer.
  const over = await upload(request, Buffer.alloc(NGINX_E2E.maxUploadBytes + 256 * 1024, 1), 'Too large');
  expect(over.status()).toBe(413);
  expect(((await over.json()) as { message: string }).message).toMatch(/limit/i);
  // Over nginx's limit too: nginx refuses it before the app reads a byte.
  const farOver = await upload(request, Buffer.alloc(NGINX_E2E.maxUploadBytes + 2 * 1024 * 1024, 1), 'Far too large');
  expect(farOver.status()).toBe(413);
  expect(farOver.headers()['content-type']).toContain('text/html');
});

test('playback: nginx sends the MP4, its ranges and the HLS files from disk after the app checked access', async ({ request }) => {
  test.setTimeout(120_000);
  const media = (file: string, headers: Record<string, string> = {}) => request.get(`/media/videos/${streamVideoId}/${file}`, { headers: { ...auth(), ...headers } });
  // The HLS master playlist is written last: once it is there, every file is.
  await expect.poll(async () => (await media('hls/master.m3u8')).status(), { timeout: 100_000, intervals: [500] }).toBe(200);
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
