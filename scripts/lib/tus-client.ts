/**
 * A minimal tus 1.0 client for the benchmarks (bench:videos): creation,
 * PATCHes streamed from disk in chunks of a chosen size, HEAD to resume,
 * and a count of every body byte it sent, so "kill the connection at 50 %,
 * resume" can report the bytes sent twice. Never holds the file in memory.
 */
import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';

export interface TusTarget {
  port: number;
  token: string;
  /** The tus endpoint, e.g. /api/videos/uploads. */
  endpoint: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** performance.now() when the request's last byte was sent. */
  sentAt: number;
}

function send(
  target: TusTarget,
  method: string,
  url: string,
  headers: Record<string, string | number>,
  body?: { file: string; start: number; end: number; sent: { bytes: number }; cutAt?: number },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sentAt = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: url,
        method,
        headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${target.token}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), sentAt }),
        );
      },
    );
    req.on('error', reject);
    req.on('finish', () => {
      sentAt = performance.now();
    });
    if (!body) return void req.end();
    // The headers go at once, as the plain copy's client sends them with its multipart head before the
    // file's first bytes: the server checks the caller while the first MiB is read, not after.
    req.flushHeaders();
    const stream = createReadStream(body.file, { start: body.start, end: body.end - 1, highWaterMark: 1024 * 1024 });
    stream.on('data', (chunk) => {
      body.sent.bytes += chunk.length;
      // The cut: the connection dies mid-PATCH, as a phone losing its network does.
      if (body.cutAt !== undefined && body.sent.bytes >= body.cutAt) {
        stream.destroy();
        req.destroy(new Error('connection cut'));
      }
    });
    stream.on('error', (error) => req.destroy(error));
    stream.pipe(req);
  });
}

export interface TusResult {
  status: number;
  body: string;
  /** Body bytes the client sent, every attempt counted. */
  sentBytes: number;
  ms: number;
  /** performance.now() when the last answer was complete. */
  at: number;
  /** From the last byte sent to the last answer: what the server does after reading (probe, storing, the database). */
  tailMs: number;
}

/**
 * Uploads a file with tus in PATCHes of at most `chunkBytes` (Infinity: one
 * PATCH for the rest). With `cutAtFraction`, the connection is cut once that
 * share of the file was sent; the client then asks HEAD for the offset and
 * continues from there.
 */
export async function tusUpload(
  target: TusTarget,
  file: string,
  metadata: Record<string, string>,
  chunkBytes: number,
  cutAtFraction?: number,
): Promise<TusResult> {
  const size = statSync(file).size;
  const started = performance.now();
  const sent = { bytes: 0 };
  const encoded = Object.entries({ filename: path.basename(file), ...metadata })
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
  const created = await send(target, 'POST', target.endpoint, {
    'upload-length': size,
    'upload-metadata': encoded,
    'content-length': 0,
  });
  if (created.status !== 201)
    return {
      status: created.status,
      body: created.body,
      sentBytes: 0,
      ms: performance.now() - started,
      at: performance.now(),
      tailMs: 0,
    };
  const url = String(created.headers.location);
  let offset = 0;
  let cut = cutAtFraction === undefined ? undefined : Math.floor(size * cutAtFraction);
  let last: Answer = created;
  while (offset < size) {
    const end = Math.min(size, offset + chunkBytes);
    try {
      last = await send(
        target,
        'PATCH',
        url,
        { 'upload-offset': offset, 'content-type': 'application/offset+octet-stream', 'content-length': end - offset },
        { file, start: offset, end, sent, cutAt: cut },
      );
    } catch {
      cut = undefined;
      // Where the server stands after the cut (its PATCH ends when it sees the socket close: ask until it lets go of the lock).
      for (;;) {
        const head = await send(target, 'HEAD', url, {});
        if (head.status === 200) {
          offset = Number(head.headers['upload-offset']);
          break;
        }
        if (head.status !== 423 && head.status < 500) throw new Error(`HEAD after the cut answered ${head.status}: ${head.body}`);
      }
      continue;
    }
    if (last.status >= 300) break;
    offset = last.status === 204 ? Number(last.headers['upload-offset']) : end;
  }
  const at = performance.now();
  return { status: last.status, body: last.body, sentBytes: sent.bytes, ms: at - started, at, tailMs: at - last.sentAt };
}
