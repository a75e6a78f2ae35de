/**
 * @jest-environment jsdom
 */
// jsdom for XMLHttpRequest (upload progress); it sends real HTTP, including CORS preflights.
import { setAuthToken } from '@/lib/client/api-client';
import { uploadRequest } from '@/lib/client/upload-request';

import { scriptedServer } from '../helpers/scripted-server';

describe('upload client', () => {
  it('retries after no response or a 5xx, waiting between attempts, then succeeds', async () => {
    const server = await scriptedServer([
      { status: 502, body: '{"message":"bad gateway"}' },
      { status: 503, body: '{"message":"busy"}' },
      { status: 201, body: '{"video":{"_id":"v1"}}' },
    ]);
    try {
      setAuthToken('token-123');
      const progress: number[] = [];
      const form = new FormData();
      form.append('title', 'A video');
      const started = Date.now();
      const result = await uploadRequest(`${server.url}/api/videos/upload`, form, {
        onProgress: (f) => progress.push(f),
        retryDelaysMs: [50, 100],
      });
      expect(result).toEqual({ video: { _id: 'v1' } });
      expect(server.seen.filter((r) => r.method === 'POST')).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(server.seen.at(-1)!.headers.authorization).toBe('Bearer token-123');
      expect(server.seen.at(-1)!.headers.cookie).toBeUndefined();
      expect(progress.at(-1)).toBe(1);
    } finally {
      setAuthToken(null);
      await server.close();
    }
  });

  it('makes at most 3 attempts, and never retries a 4xx', async () => {
    const failing = await scriptedServer([{ status: 500, body: '{"message":"down"}' }]);
    await expect(uploadRequest(`${failing.url}/u`, new FormData(), { retryDelaysMs: [10, 10] })).rejects.toMatchObject({
      status: 500,
      message: 'down',
    });
    expect(failing.seen.filter((r) => r.method === 'POST')).toHaveLength(3);
    await failing.close();

    const refused = await scriptedServer([{ status: 413, body: '{"message":"File too large"}' }]);
    await expect(uploadRequest(`${refused.url}/u`, new FormData(), { retryDelaysMs: [10, 10] })).rejects.toMatchObject({
      status: 413,
    });
    expect(refused.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
    await refused.close();
  });
});
