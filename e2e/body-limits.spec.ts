import { request as httpRequest } from 'node:http';

import { BASE_URL, verifiedMember } from './api';
import { expect, test } from './fixtures';

/**
 * Finding 5, through the production server: a chunked 256 MB body (no
 * Content-Length to refuse up front) is answered 413 while the client is
 * still sending, long before 48 MB have gone, and the server's memory does
 * not grow with it. test/integration/body-limits.test.ts covers every route
 * in-process; this checks the real HTTP path (scripts/serve.ts, Next, the
 * raw upload hand-over) for one route of each kind.
 */
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(256 * 1024, 0x61);

/** Streams up to 256 MB chunked; resolves with the status and how much had been written when the answer came. */
function sendHugeBody(path: string, headers: Record<string, string>): Promise<{ status: number; sentWhenAnswered: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const url = new URL(path, BASE_URL);
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => {
          req.destroy();
          resolve({ status, sentWhenAnswered: sent });
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < 256 * MB) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test.describe('bodies are cut at their cap while they arrive', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) <= 1023, 'server answers only: runs once, in the desktop project');

  test('JSON, a form and a video upload: 413 before 48 MB have been sent', async ({ request }) => {
    const member = await verifiedMember(request, 'bodies');
    const cases: [string, Record<string, string>][] = [
      ['/api/auth/login', { 'content-type': 'application/json' }],
      ['/api/auth/register', { 'content-type': 'multipart/form-data; boundary=----chrysalis' }],
      // The upload's cap is MAX_UPLOAD_BYTES (4 GiB by default); a body that has not reached its file part after 1 MiB is no form: cut at once.
      [
        '/api/videos/upload',
        { 'content-type': 'multipart/form-data; boundary=----chrysalis', authorization: `Bearer ${member.token}` },
      ],
    ];
    for (const [path, headers] of cases) {
      const { status, sentWhenAnswered } = await sendHugeBody(path, headers);
      // The upload refuses a form with no file part in its first megabyte (400); the others are over their cap (413).
      expect(status, path).toBe(path === '/api/videos/upload' ? 400 : 413);
      expect(sentWhenAnswered, path).toBeLessThan(48 * MB);
    }
  });
});
