import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { APIRequestContext } from '@playwright/test';

import { E2E_METRICS_TOKEN } from '../scripts/lib/e2e-env';
import { sample } from '../test/helpers/metrics';

import { makeClip, unique, uploadClip, verifiedMember, visitor } from './api';
import { expect, test } from './fixtures';

/**
 * Prometheus metrics on the production server (docs/operations.md, Metrics):
 * /metrics with METRICS_TOKEN, request ids, and counters that move when the
 * site is used, as an operator's Prometheus would see them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function scrape(request: APIRequestContext): Promise<string> {
  const response = await request.get('/metrics', { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(response.status()).toBe(200);
  return response.text();
}

test.describe('metrics', () => {
  test('/metrics answers only with the token', async ({ request }) => {
    const none = await request.get('/metrics');
    expect(none.status()).toBe(401);
    expect(none.headers()['www-authenticate']).toMatch(/^Bearer/);
    expect(await none.text()).not.toContain('chrysalis_');
    const wrong = await request.get('/metrics', { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}x` } });
    expect(wrong.status()).toBe(401);
    const basic = await request.get('/metrics', {
      headers: { Authorization: `Basic ${Buffer.from(`x:${E2E_METRICS_TOKEN}`).toString('base64')}` },
    });
    expect(basic.status()).toBe(401);

    const right = await request.get('/metrics', { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
    expect(right.status()).toBe(200);
    expect(right.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await right.text();
    for (const name of [
      'chrysalis_http_requests_total',
      'chrysalis_http_request_duration_seconds',
      'chrysalis_jobs_queued',
      'chrysalis_job_duration_seconds',
      'chrysalis_db_pool_max',
      'process_cpu_user_seconds_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    // The embedded database is one connection.
    expect(sample(text, 'chrysalis_db_pool_max')).toBe(1);
  });

  test('requests are counted by route with ids collapsed, and carry a request id', async ({ request }) => {
    const labels = { method: 'GET', route: '/api/videos/:streamVideoId', status: '404' };
    const before = sample(await scrape(request), 'chrysalis_http_requests_total', labels);

    const missing = await request.get(`/api/videos/nope${unique()}`, { headers: visitor() });
    expect(missing.status()).toBe(404);
    expect(missing.headers()['x-request-id']).toMatch(UUID);
    // Playwright is the trusted proxy here (TRUST_PROXY=1): its request id is kept, a malformed one replaced.
    const traced = await request.get(`/api/videos/nope${unique()}`, {
      headers: { ...visitor(), 'x-request-id': 'edge-trace-4711' },
    });
    expect(traced.headers()['x-request-id']).toBe('edge-trace-4711');
    const forged = await request.get(`/api/videos/nope${unique()}`, {
      headers: { ...visitor(), 'x-request-id': 'forged "id" {}' },
    });
    expect(forged.headers()['x-request-id']).toMatch(UUID);

    await expect
      .poll(async () => sample(await scrape(request), 'chrysalis_http_requests_total', labels))
      .toBeGreaterThanOrEqual(before + 3);
    // Other paths never make labels of their own: a made-up path is "other".
    const text = await scrape(request);
    expect(text).not.toMatch(/route="\/api\/videos\/nope/);
  });

  test('public pages count page-cache answers', async ({ request }) => {
    const answers = async () => {
      const text = await scrape(request);
      return ['hit', 'stale', 'miss', 'pass'].reduce(
        (sum, result) => sum + sample(text, 'chrysalis_page_cache_requests_total', { result }),
        0,
      );
    };
    const before = await answers();
    for (let i = 0; i < 2; i += 1) expect((await request.get('/category/Sissy', { headers: visitor() })).status()).toBe(200);
    await expect.poll(answers).toBeGreaterThanOrEqual(before + 2);
  });

  test('an upload counts its bytes, its processing job and ffmpeg time', async ({ request }) => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-metrics-e2e-'));
    try {
      const clip = makeClip(dir);
      const member = await verifiedMember(request, 'metrics', { identity: false });
      const text = await scrape(request);
      const bytesBefore = sample(text, 'chrysalis_upload_bytes_total', { outcome: 'stored' });
      const jobsBefore = sample(text, 'chrysalis_job_duration_seconds_count', { type: 'process-video', outcome: 'done' });
      const ffmpegBefore = sample(text, 'chrysalis_ffmpeg_duration_seconds_count', { output: 'web_mp4' });

      await uploadClip(request, member.token, clip, { title: `Metrics ${unique()}` });

      const after = await scrape(request);
      expect(sample(after, 'chrysalis_upload_bytes_total', { outcome: 'stored' })).toBeGreaterThanOrEqual(
        bytesBefore + clip.length,
      );
      await expect
        .poll(
          async () =>
            sample(await scrape(request), 'chrysalis_job_duration_seconds_count', { type: 'process-video', outcome: 'done' }),
          { timeout: 60_000 },
        )
        .toBeGreaterThanOrEqual(jobsBefore + 1);
      // Other specs' videos finish too: the job count above may be theirs, so wait for this clip's transcode as well.
      await expect
        .poll(async () => sample(await scrape(request), 'chrysalis_ffmpeg_duration_seconds_count', { output: 'web_mp4' }), {
          timeout: 60_000,
        })
        .toBeGreaterThanOrEqual(ffmpegBefore + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
