/**
 * The upload receiver (decision 026, "The receiver"): a small process beside
 * the app server that takes the bodies of resumable upload PATCHes off the
 * app's heap. The app server hands it connections whose first request is such
 * a PATCH; the receiver asks the app (over IPC) what to do with the request,
 * writes the body where the app says, and sends the app's answer. Everything
 * that decides (caller, owner, lock, offset, expiry, size, the video made
 * after the last byte) stays in the app; the receiver only moves bytes.
 *
 * Deliberately plain Node (no app imports): the receiver loads only this
 * folder and lib/front/upload-body.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';

import { RESUMABLE_UPLOAD_PATH } from '../../upload-paths';
import type { BodyWritten } from '../upload-body';

/** The one request the receiver takes: a PATCH of one upload (tus's 32 hex digit ids), no query. */
const RECEIVER_URL = new RegExp(`^${RESUMABLE_UPLOAD_PATH}/[0-9a-f]{32}$`);
/** The request line a connection must open with to be handed to the receiver: that request, in HTTP/1.1. */
const RECEIVER_REQUEST_LINE = new RegExp(`^PATCH ${RESUMABLE_UPLOAD_PATH}/[0-9a-f]{32} HTTP/1\\.1\\r\\n`);

/** Whether a request is one the receiver takes (it checks for itself what the app server vouched for). */
export function isReceiverRequest(method: string | undefined, url: string | undefined): boolean {
  return method === 'PATCH' && RECEIVER_URL.test(url ?? '');
}
/** Longest such line: what the first bytes of a connection must hold before it can be told. */
const REQUEST_LINE_BYTES = `PATCH ${RESUMABLE_UPLOAD_PATH}/${'0'.repeat(32)} HTTP/1.1\r\n`.length;

/**
 * Whether a connection's first bytes open an upload PATCH for the receiver.
 * Anything else, including a first packet too short to tell, stays with the
 * app server, which answers every request itself too (the receiver is only
 * the faster way for the bytes).
 */
export function opensReceiverRequest(firstBytes: Buffer): boolean {
  if (firstBytes.length < REQUEST_LINE_BYTES) return false;
  return RECEIVER_REQUEST_LINE.test(firstBytes.subarray(0, REQUEST_LINE_BYTES).toString('latin1'));
}

/** Where the app wants a request's body written, and how much of it at most. */
export interface WriteOrder {
  file: string;
  offset: number;
  room: number;
}

/** The app's answer, sent as it is. */
export interface ReceiverAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** App server → receiver. A `connection` message carries the socket as its handle. */
export type ToReceiver =
  | { type: 'connection'; head: Buffer }
  | { type: 'write'; id: number; order: WriteOrder }
  | { type: 'stop'; id: number }
  | { type: 'answer'; id: number; answer: ReceiverAnswer };

/** Receiver → app server (`ready` once it takes connections). */
export type FromReceiver =
  | { type: 'ready' }
  | { type: 'request'; id: number; method: string; url: string; headers: IncomingHttpHeaders; remoteAddress: string | undefined }
  | { type: 'written'; id: number; written: BodyWritten }
  | { type: 'finished'; id: number; status: number; aborted: boolean }
  | { type: 'failed'; message: string };

/**
 * A request the receiver holds, as the app sees it: its head, and its body
 * written on the app's order (`writeBody`, once at most). `answer` sends the
 * app's answer; `stop` ends a write in progress with what arrived.
 */
export interface ReceivedUpload {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  socket: { remoteAddress: string | undefined };
  writeBody(order: WriteOrder, stop?: AbortSignal): Promise<BodyWritten>;
  answer(answer: ReceiverAnswer): void;
}
