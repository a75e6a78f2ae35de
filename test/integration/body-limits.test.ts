/**
 * Every route that takes a body reads it as a stream and stops at its cap:
 * a 256 MB chunked body (no Content-Length, so nothing to refuse up front) is
 * answered 413 long before 48 MB of it have been read, whether it claims to
 * be JSON or a form. Routes that take no body never read it at all. The
 * stream counts what the handler actually pulled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { NextRequest } from 'next/server';

import { installDatabase } from '@/lib/db';
import { resetLimiters } from '@/lib/server/rate-limit';

import { ORIGIN } from '../helpers/api';
import { createTestDatabase, ENGINES, type TestDatabase } from '../helpers/db';
import { routeFiles } from '../helpers/routes';
import { promoteToAdmin, verifiedMemberToken } from '../helpers/members';
import { userId } from '../helpers/videos';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-bodies-'));
process.env.SITE_URL = ORIGIN;
process.env.DATA_DIR = dataDir;
// The upload route's cap is MAX_UPLOAD_BYTES (4 GiB by default); a small one shows the same streaming cut.
process.env.MAX_UPLOAD_BYTES = String(16 * 1024 * 1024);
// Configured payments, so the postback reads its body instead of answering 503 at once.
process.env.VEROTEL_SHOP_ID = '123456';
process.env.VEROTEL_SIGNATURE_KEY = 'test-signature-key';
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const MB = 1024 * 1024;
const BODY_BYTES = 256 * MB;
const MUST_STOP_BEFORE = 48 * MB;
const CHUNK = new Uint8Array(64 * 1024).fill(0x61);
const SEGMENTS: Record<string, string> = {
  id: '3f1c1a8e-5b7d-4c1e-9a3b-2d4e6f8a0b1c',
  streamVideoId: 'abcdefgh',
  username: 'somebody',
};

type RouteHandler = (request: NextRequest, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** A 256 MB body produced only as fast as it is read, counting what was read. */
function hugeBody(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= BODY_BYTES) return controller.close();
      sent += CHUNK.byteLength;
      controller.enqueue(CHUNK);
    },
  });
  return { stream, pulled: () => sent };
}

describe.each(ENGINES)('body caps on %s', (engine) => {
  let database: TestDatabase;
  let bearer: string;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    installDatabase(database);
    resetLimiters();
    bearer = await verifiedMemberToken(database.db, 'bodyadmin');
    await promoteToAdmin(database.db, await userId(database.db, 'bodyadmin'));
  }, 60_000);
  afterAll(() => database.destroy());

  it('cuts every chunked 256 MB body at its cap with 413, JSON or form', async () => {
    const results: string[] = [];
    let bodyRoutes = 0;
    // Logout takes no body and would end the caller's session for every route after it.
    for (const file of routeFiles().filter((name) => name !== 'api/auth/logout/route.ts')) {
      const routeModule = (await import(`@/app/${file}`)) as Record<string, RouteHandler | undefined>;
      // Well-formed segments, so no route refuses the path before it would read the body.
      const params = Object.fromEntries(
        [...file.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((match) => [match[1]!, SEGMENTS[match[1]!] ?? 'x']),
      );
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const handler = routeModule[method];
        if (!handler) continue;
        for (const type of ['application/json', 'multipart/form-data; boundary=----chrysalis']) {
          const body = hugeBody();
          const request = new NextRequest(new URL(`/${file.replace(/\/route\.ts$/, '')}`, ORIGIN), {
            method,
            headers: { 'content-type': type, authorization: `Bearer ${bearer}`, 'x-forwarded-for': '198.51.100.77' },
            body: body.stream,
            duplex: 'half',
          } as ConstructorParameters<typeof NextRequest>[1]);
          const response = await handler(request, { params: Promise.resolve(params) });
          const pulled = body.pulled();
          // The upload refuses a form with no file part in its first megabyte (400) long before its own cap.
          const cut =
            response.status === 413 ||
            (file === 'api/videos/upload/route.ts' && type.startsWith('multipart/') && response.status === 400);
          if (cut) bodyRoutes += 1;
          if (process.env.BODY_LIMITS_VERBOSE) console.log(`${method} ${file} ${type} ${response.status} ${pulled}`);
          const line = `${method} ${file} (${type.split(';')[0]}): ${response.status} after ${(pulled / MB).toFixed(2)} MB`;
          // Read past a small JSON cap: must be a 413. Never anywhere near 48 MB.
          if (pulled >= MUST_STOP_BEFORE || (pulled > 7 * MB && !cut) || response.status >= 500) results.push(`FAIL ${line}`);
          else if (pulled > 64 * 1024 + CHUNK.byteLength && !cut) results.push(`FAIL ${line}`);
        }
      }
    }
    expect(results).toEqual([]);
    // Worth something only if bodies were read and cut: every JSON and form route answers 413 (22 of them today).
    expect(bodyRoutes).toBeGreaterThanOrEqual(22);
  }, 300_000);
});
