import 'server-only';

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

import { NextRequest } from 'next/server';

import { getConfig } from '@/lib/config/server';
import { onAppEvent } from '@/lib/events';
import type { ReceivedUpload } from '@/lib/front/upload-receiver/protocol';
import { RESUMABLE_UPLOAD_PATH } from '@/lib/upload-paths';
import { stampClientAddress } from '@/lib/front/resolve-client-address';

import { errorResponse, handler } from '../route-handler';

import { handleResumable } from './resumable';
import { uploadVideo } from './upload';

/** A Node request's headers as a Headers object (repeated headers joined, as fetch does). */
function headersOf(nodeHeaders: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The status, headers and body of a web Response, to write to a Node response or to send through the upload receiver. */
async function partsOf(response: Response): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  if (response.status !== 204 && response.status !== 304) headers.set('content-length', String(body.length));
  return { status: response.status, headers: [...headers], body };
}

/**
 * Writes a web Response to a Node response (a refused upload may not have
 * been read: Node reads and discards the rest after the answer, so the
 * client sees it). `close`: the connection closes after the answer, so the
 * client's next request opens a new one, which the upload receiver can take
 * when it is a PATCH (lib/front/upload-receiver).
 */
async function send(res: ServerResponse, response: Response, close = false): Promise<void> {
  const { status, headers, body } = await partsOf(response);
  res.statusCode = status;
  for (const [name, value] of headers) res.setHeader(name, value);
  if (close) res.setHeader('connection', 'close');
  res.end(body);
}

/** The request a Node request's head describes, for the usual caller and origin checks (the same as the App Router routes). */
function nextRequestOf(method: string | undefined, url: string | undefined, headers: IncomingHttpHeaders): NextRequest {
  return new NextRequest(new URL(url ?? '/', `http://${headers.host ?? 'localhost'}`), { method, headers: headersOf(headers) });
}

/**
 * An upload straight from the Node server: the request's headers become a
 * NextRequest for the usual caller and origin checks (the same as the App
 * Router routes), and its body stream goes to the upload service untouched:
 * POST /api/videos/upload to uploadVideo, the tus endpoint to tus.
 */
export async function handleNodeUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // As scripts/serve.ts does for every request (the same result when it already has): the address comes from the socket, never from the client.
  stampClientAddress(req, getConfig().trustProxy);
  const request = nextRequestOf(req.method, req.url, req.headers);
  if (request.nextUrl.pathname.startsWith(RESUMABLE_UPLOAD_PATH)) {
    await send(res, await handleResumable(request, req), true);
    return;
  }
  const upload = handler({ auth: 'member', status: 201 }, ({ actor }) => uploadVideo(actor, request, req));
  await send(res, await upload(request, { params: Promise.resolve({}) }));
}

/**
 * An upload PATCH whose body the upload receiver holds: answered by the same
 * tus handler, which has the receiver write the body.
 */
export async function handleReceivedUpload(upload: ReceivedUpload): Promise<void> {
  // As for a Node request: the address comes from the receiver's socket, never from the client.
  stampClientAddress(upload, getConfig().trustProxy);
  const answer = await handleResumable(nextRequestOf(upload.method, upload.url, upload.headers), upload);
  upload.answer(await partsOf(answer));
}

/** A failure below the upload handlers, answered as any API error (a lost database connection is a 503, the rest a logged 500). */
const failureAnswer = (method: string | undefined, url: string | undefined, error: unknown) =>
  partsOf(errorResponse(new Request(new URL(url ?? '/', 'http://localhost'), { method }), error));

/** Takes the uploads scripts/serve.ts hands over (lib/events.ts), answering any failure as the API does. */
export function registerUploadBridge(): void {
  onAppEvent('received-upload', (upload) => {
    handleReceivedUpload(upload).catch(async (error: unknown) =>
      upload.answer(await failureAnswer(upload.method, upload.url, error)),
    );
  });
  onAppEvent('upload-request', (req, res) => {
    handleNodeUpload(req, res).catch(async (error: unknown) => {
      const { status, headers, body } = await failureAnswer(req.method, req.url, error);
      if (!res.headersSent) res.writeHead(status, [...headers, ['connection', 'close']].flat());
      res.end(body);
    });
  });
}
