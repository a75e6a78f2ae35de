/**
 * @jest-environment jsdom
 */
// jsdom for XMLHttpRequest; the servers are real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ApiClientError } from '@/lib/client/api-client';
import { uploadRequest, UploadCancelledError, type UploadRetry } from '@/lib/client/upload-request';

import { scriptedServer } from '../helpers/scripted-server';

/** A server that reads the body but never answers, counting requests. */
async function silentServer() {
  let posts = 0;
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('access-control-allow-headers', 'authorization, content-type, accept');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    posts += 1;
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

const bigForm = () => {
  const form = new FormData();
  form.append('title', 'A video');
  form.append('video', new Blob([new Uint8Array(256 * 1024)], { type: 'video/mp4' }), 'clip.mp4');
  return form;
};

describe('upload client: cancel, retry notices, byte counts', () => {
  it('aborts the request in flight, fails with "Upload cancelled." and does not retry', async () => {
    const server = await silentServer();
    try {
      const controller = new AbortController();
      const pending = uploadRequest(`${server.url}/u`, bigForm(), { signal: controller.signal, retryDelaysMs: [10, 10] });
      await new Promise((resolve) => setTimeout(resolve, 150));
      controller.abort();
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UploadCancelledError);
      expect((error as Error).message).toBe('Upload cancelled.');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.posts()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('does not start when already cancelled, and a cancel during the wait stops the retries', async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(uploadRequest('http://127.0.0.1:9/u', new FormData(), { signal: cancelled.signal })).rejects.toBeInstanceOf(
      UploadCancelledError,
    );

    const failing = await scriptedServer([{ status: 503, body: '{"message":"busy"}' }]);
    try {
      const controller = new AbortController();
      const retries: UploadRetry[] = [];
      const pending = uploadRequest(`${failing.url}/u`, new FormData(), {
        signal: controller.signal,
        retryDelaysMs: [5_000, 5_000],
        onRetry: (retry) => {
          retries.push(retry);
          controller.abort();
        },
      });
      await expect(pending).rejects.toBeInstanceOf(UploadCancelledError);
      expect(failing.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 2, maxAttempts: 3, delayMs: 5_000 });
      expect(retries[0]!.error).toBeInstanceOf(ApiClientError);
      expect(retries[0]!.error.status).toBe(503);
    } finally {
      await failing.close();
    }
  });

  it('announces each retry with its attempt number and reports bytes with the fraction', async () => {
    const server = await scriptedServer([
      { status: 500, body: '{"message":"oops"}' },
      { status: 502, body: '{"message":"oops"}' },
      { status: 201, body: '{"video":{"_id":"v1"}}' },
    ]);
    try {
      const retries: number[] = [];
      const progress: { fraction: number; loaded: number; total: number }[] = [];
      await uploadRequest(`${server.url}/u`, bigForm(), {
        retryDelaysMs: [10, 20],
        onRetry: ({ attempt }) => retries.push(attempt),
        onProgress: (fraction, bytes) => progress.push({ fraction, ...bytes }),
      });
      expect(retries).toEqual([2, 3]);
      const last = progress.at(-1)!;
      expect(last.fraction).toBe(1);
      // The finish is reported with the byte counts of the last progress event (jsdom may send none: then 0 of 0).
      expect(last.loaded).toBe(last.total);
      for (const event of progress.slice(0, -1)) expect(event.loaded).toBeLessThanOrEqual(event.total);
    } finally {
      await server.close();
    }
  });
});
