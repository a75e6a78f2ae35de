/**
 * The upload receiver's own process (scripts/upload-receiver.ts runs this):
 * an HTTP server with no listening socket, fed the connections the app server
 * hands over, one request each. For each request it asks the app, writes the
 * body on the app's order and sends the app's answer (protocol.ts). Its heap
 * holds little more than the sockets' chunks on their way to the disk, so its
 * collector has nothing else to walk (decision 026).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { writeBody } from '../upload-body';

import { isReceiverRequest, type FromReceiver, type ReceiverAnswer, type ToReceiver } from './protocol';

/**
 * A young-generation collection after every this many body bytes. Each socket
 * chunk is a Buffer whose memory lives outside the JS heap; in a heap this
 * small nothing else fills the young generation, so V8 would let some 70 MB of
 * dead chunks pile up before its external-memory limit collects them. A
 * scavenge of this process's heap takes well under a millisecond.
 */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;
const collect = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;

interface Held {
  req: IncomingMessage;
  res: ServerResponse;
  stop: AbortController;
}

function send(message: FromReceiver): void {
  process.send?.(message);
}

/** Sends the app's answer; a body the app did not want is read to its end first, so the client, still sending, sees the answer. */
function respond({ req, res }: Held, answer: ReceiverAnswer): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(answer.status, [...answer.headers, ['connection', 'close']].flat());
  const end = () => void res.end(answer.body);
  if (req.complete) return end();
  req.once('end', end);
  req.resume();
}

export function runUploadReceiver(): void {
  const held = new Map<number, Held>();
  let nextId = 1;
  let sinceCollection = 0;
  const counted = (chunk: Buffer) => {
    sinceCollection += chunk.length;
    if (sinceCollection < COLLECT_EVERY_BYTES) return;
    sinceCollection = 0;
    collect?.({ type: 'minor' });
  };
  const server = createServer((req, res) => {
    if (!isReceiverRequest(req.method, req.url)) {
      res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
      return void res.end(JSON.stringify({ message: 'This connection takes one upload PATCH.' }));
    }
    const id = nextId++;
    const entry: Held = { req, res, stop: new AbortController() };
    held.set(id, entry);
    res.once('close', () => {
      held.delete(id);
      entry.stop.abort();
      send({ type: 'finished', id, status: res.statusCode, aborted: !res.writableFinished });
    });
    send({
      type: 'request',
      id,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
    });
  });
  // One request a connection: the app server vouched only for the first (protocol.ts); any other on it is refused and the connection closes.
  server.maxRequestsPerSocket = 1;

  process.on('message', (message: ToReceiver, handle?: Socket) => {
    if (message.type === 'connection') {
      if (!handle) return;
      // The bytes the app server read to recognise the request come first, then the socket's own.
      handle.unshift(Buffer.from(message.head));
      server.emit('connection', handle);
      handle.resume();
      return;
    }
    const entry = held.get(message.id);
    if (message.type === 'write') {
      if (!entry) return send({ type: 'written', id: message.id, written: { bytes: 0, outcome: 'ended' } });
      const { file, offset, room } = message.order;
      entry.req.on('data', counted);
      writeBody(entry.req, file, offset, room, entry.stop.signal).then(
        (written) => send({ type: 'written', id: message.id, written }),
        (error: unknown) => {
          send({ type: 'failed', message: `body write: ${error instanceof Error ? error.message : String(error)}` });
          send({ type: 'written', id: message.id, written: { bytes: 0, outcome: 'failed' } });
        },
      );
    } else if (message.type === 'stop') {
      entry?.stop.abort();
    } else if (message.type === 'answer' && entry) {
      respond(entry, { ...message.answer, body: Buffer.from(message.answer.body) });
    }
  });
  // The app server is this process's only reason to be: when it goes, so does the receiver.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}
