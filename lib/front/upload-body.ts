/**
 * Writes an upload's body into its file at an offset: the one body writer of
 * resumable uploads, used by the app process (lib/server/videos/resumable.ts)
 * and by the upload receiver process (lib/front/upload-receiver), so both
 * keep the same rules.
 *
 * Deliberately plain Node (no app imports): the upload receiver runs it in a
 * process that loads nothing else.
 */
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Large writes: the default 16 KiB buffer makes the file stream push back on every 64 KiB socket chunk. */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * How a body write ended: `complete` (the body ended), `ended` (the client
 * went away, or the write was asked to stop: what arrived is kept), `too-large`
 * (more bytes than `room`), `failed` (the file could not be written).
 */
export type BodyOutcome = 'complete' | 'ended' | 'too-large' | 'failed';

export interface BodyWritten {
  /** Bytes written at the offset (all of them on disk when this resolves). */
  bytes: number;
  outcome: BodyOutcome;
  /** Why a `failed` write failed (the file system's code and words), plain data so it crosses to and from the upload receiver. */
  cause?: { code?: string; message: string };
}

/**
 * Writes `source` into `file` (which exists) from `offset`, refusing more than
 * `room` bytes. The source is piped, not pipelined: a refusal must not destroy
 * the request, whose socket carries the answer. A client that goes away, or
 * `stop` (another request wants the upload's lock), ends the write with what
 * arrived, as tus does.
 */
export async function writeBody(
  source: Readable,
  file: string,
  offset: number,
  room: number,
  stop?: AbortSignal,
): Promise<BodyWritten> {
  let received = 0;
  let ended = false;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > room ? new RangeError('more bytes than the upload has left') : null, chunk);
    },
  });
  const out = createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: WRITE_BUFFER_BYTES });
  const keepWhatArrived = () => {
    ended = true;
    source.unpipe(limiter);
    limiter.end();
  };
  const closed = () => {
    if (!source.readableEnded) keepWhatArrived();
  };
  source.once('error', keepWhatArrived);
  source.once('close', closed);
  stop?.addEventListener('abort', keepWhatArrived, { once: true });
  if (stop?.aborted) keepWhatArrived();
  else source.pipe(limiter);
  try {
    await pipeline(limiter, out);
    return { bytes: out.bytesWritten, outcome: ended ? 'ended' : 'complete' };
  } catch (error) {
    source.unpipe(limiter);
    if (received > room) return { bytes: out.bytesWritten, outcome: 'too-large' };
    const { code, message } = error as NodeJS.ErrnoException;
    return { bytes: out.bytesWritten, outcome: 'failed', cause: { ...(code ? { code } : {}), message: String(message) } };
  } finally {
    source.off('error', keepWhatArrived);
    source.off('close', closed);
    stop?.removeEventListener('abort', keepWhatArrived);
  }
}
