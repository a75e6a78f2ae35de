/**
 * The upload receiver (lib/front/upload-receiver, decision 026) as a real
 * process behind a real listening socket: which connections it is handed,
 * that every other connection reaches the app server byte for byte, that it
 * answers one request a connection, writes a body only where the app orders,
 * and that the app server answers everything while no receiver runs. The app
 * side here is a stand-in that records what it is asked; the tus service
 * behind it is tested in resumable-upload.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Server as NetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { listenWithReceiver, UploadReceiver } from '@/lib/front/upload-receiver';
import type { ReceivedUpload } from '@/lib/front/upload-receiver/protocol';

const ID = 'abcdef0123456789abcdef0123456789';
const dir = mkdtempSync(path.join(os.tmpdir(), 'chrysalis-receiver-'));
const file = path.join(dir, 'upload');

/** What the app server answered itself (method, path, body length), and what the receiver held. */
const appSaw: string[] = [];
const received: ReceivedUpload[] = [];
const problems: string[] = [];
let app: Server;
let front: NetServer;
let receiver: UploadReceiver;
let port: number;

beforeAll(async () => {
  // Short timeouts, to see that the app server keeps enforcing them on the connections it is given.
  app = createServer({ headersTimeout: 1000, requestTimeout: 1000, connectionsCheckingInterval: 100 }, (req, res) => {
    let length = 0;
    req.on('data', (chunk: Buffer) => (length += chunk.length));
    req.on('end', () => {
      appSaw.push(`${req.method} ${req.url} ${length}`);
      res.end(`app ${req.method} ${req.url} ${length}`);
    });
  });
  receiver = new UploadReceiver({
    entry: path.join(process.cwd(), 'scripts', 'upload-receiver.ts'),
    onProblem: (message) => problems.push(message),
    onRequest: (upload) => {
      received.push(upload);
      // As the tus service does: the body goes into the upload's file at its offset, then the answer.
      void upload.writeBody({ file, offset: Number(upload.headers['upload-offset']), room: 1024 * 1024 }).then((written) =>
        upload.answer({
          status: written.outcome === 'too-large' ? 413 : 204,
          headers: [['upload-offset', String(written.bytes)]],
          body: Buffer.alloc(0),
        }),
      );
    },
  });
  receiver.start();
  await untilRunning();
  front = listenWithReceiver(app, receiver, 2000);
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  port = (front.address() as AddressInfo).port;
});

afterAll(async () => {
  receiver.stop();
  app.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  appSaw.length = 0;
  received.length = 0;
  writeFileSync(file, '');
});
afterEach(() => expect(problems).toEqual([]));

/** Resolves once the receiver takes connections (it is a process of its own, starting). */
async function untilRunning(): Promise<void> {
  for (let tries = 0; !receiver.running && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(receiver.running).toBe(true);
}

/**
 * Writes raw bytes on a new connection (in pieces, `pauseMs` apart) and
 * resolves with all it reads until the server closes it. `close`: the client
 * ends its side 300 ms after writing, for servers that keep a connection open
 * (the receiver closes its connections itself).
 */
function exchange(pieces: (string | Buffer)[], pauseMs = 0, close = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    void (async () => {
      for (const piece of pieces) {
        socket.write(piece);
        if (pauseMs) await new Promise((wait) => setTimeout(wait, pauseMs));
      }
      // Half-close: the app server then answers what it read and closes.
      if (close) setTimeout(() => socket.end(), 300);
    })();
  });
}

const patch = (body: string, offset = 0, extra = '') =>
  `PATCH /api/videos/uploads/${ID} HTTP/1.1\r\nHost: x\r\nUpload-Offset: ${offset}\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`;

it('hands a connection that opens with an upload PATCH to the receiver, which writes the body where the app says and sends its answer', async () => {
  const body = 'x'.repeat(200_000);
  writeFileSync(file, 'head:');
  const answer = await exchange([patch(body, 5)], 0, false);
  expect(answer).toMatch(/^HTTP\/1\.1 204 /);
  expect(answer.toLowerCase()).toContain('upload-offset: 200000');
  expect(answer.toLowerCase()).toContain('connection: close');
  expect(readFileSync(file, 'latin1')).toBe(`head:${body}`);
  expect(received.map((upload) => `${upload.method} ${upload.url} ${upload.headers['upload-offset']}`)).toEqual([
    `PATCH /api/videos/uploads/${ID} 5`,
  ]);
  expect(received[0]!.socket.remoteAddress).toMatch(/127\.0\.0\.1/);
  expect(appSaw).toEqual([]);
});

it('answers one request a connection: a request sent behind the PATCH is not served by the receiver, nor does it reach the app', async () => {
  const answer = await exchange([patch('abc') + 'GET /secret HTTP/1.1\r\nHost: x\r\n\r\n'], 0, false);
  expect(answer).toMatch(/^HTTP\/1\.1 204 /);
  expect(answer).not.toContain('app GET');
  expect(received).toHaveLength(1);
  expect(appSaw).toEqual([]);
});

it('refuses a body longer than the room the app gives it, writing nothing past it', async () => {
  const answer = await exchange([patch('y'.repeat(1024 * 1024 + 10))], 0, false);
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(readFileSync(file).length).toBeLessThanOrEqual(1024 * 1024);
});

it('leaves every other connection with the app server, all its bytes in order (pipelined requests, bodies)', async () => {
  const post = `POST /api/videos/uploads HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n${'z'.repeat(70_000)}`;
  const answer = await exchange([`GET /a HTTP/1.1\r\nHost: x\r\n\r\n${post}GET /b HTTP/1.1\r\nHost: x\r\n\r\n`]);
  expect(appSaw).toEqual(['GET /a 0', 'POST /api/videos/uploads 70000', 'GET /b 0']);
  expect(answer.indexOf('app GET /a')).toBeLessThan(answer.indexOf('app POST'));
  expect(received).toEqual([]);
});

it('leaves a PATCH with the app server when it comes second on a connection, or its first packet is too short to tell', async () => {
  await exchange([`GET / HTTP/1.1\r\nHost: x\r\n\r\n${patch('abc')}`]);
  await exchange(['PAT', patch('abcd').slice(3)], 100);
  expect(appSaw).toEqual(['GET / 0', `PATCH /api/videos/uploads/${ID} 3`, `PATCH /api/videos/uploads/${ID} 4`]);
  expect(received).toEqual([]);
});

it('keeps serving through the app server while the receiver is down, and hands over again once it is back', async () => {
  const pid = receiver.pid!;
  process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 100));
  await exchange([patch('one')]);
  expect(appSaw).toEqual([`PATCH /api/videos/uploads/${ID} 3`]);
  expect(problems.splice(0)).toEqual([expect.stringContaining('upload receiver exited')]);
  await untilRunning();
  expect(receiver.pid).not.toBe(pid);
  expect(await exchange([patch('two')], 0, false)).toMatch(/^HTTP\/1\.1 204 /);
  expect(received).toHaveLength(1);
});

it('closes a connection that sends nothing', async () => {
  const started = Date.now();
  expect(await exchange([])).toBe('');
  expect(Date.now() - started).toBeLessThan(5000);
});

it("keeps the app server's header timeout on the connections it is given (a client that never finishes its headers)", async () => {
  const started = Date.now();
  const answer = await exchange(['GET / HTTP/1.1\r\nHost: x\r\n'], 0, false);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(Date.now() - started).toBeLessThan(5000);
  expect(appSaw).toEqual([]);
});

it("accepts connections with the app server's own socket settings (no Nagle delay, half-open allowed)", () => {
  const settings = (server: object) => {
    const { noDelay, allowHalfOpen, keepAlive, highWaterMark } = server as Record<string, unknown>;
    return { noDelay, allowHalfOpen, keepAlive, highWaterMark };
  };
  expect(settings(front)).toEqual(settings(app));
  expect(settings(front)).toMatchObject({ noDelay: true, allowHalfOpen: true });
});
